import { closeRunTempDir, leftoverMessage } from './temp-check.js';

/** Global teardown beside temp-global-setup.ts: fails the run when the tests left anything in its temp dir. */
export default function tempGlobalTeardown(): void {
  const left = closeRunTempDir();
  if (left.length) throw new Error(leftoverMessage(left));
}
