import { openRunTempDir } from './temp-check.js';

/**
 * Global setup of the jest runs without the OpenStack peer (the testbed scenarios, the release): the
 * run's private temp dir only (test/support/temp-check.ts), so that temp-global-teardown.ts finds
 * what a test file left behind, as the main suite's global teardown does.
 */
export default function tempGlobalSetup(): void {
  openRunTempDir();
}
