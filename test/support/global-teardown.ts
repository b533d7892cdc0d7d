import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { PEER_DIR, PEER_STARTED_MARK, PEER_USERS_DIR, printedDir, ROOT } from './peer-paths.js';
import { findLeakedSecrets } from './printed.js';
import { closeRunTempDir, leftoverMessage } from './temp-check.js';

/** Other jest processes still using the peer (their pid files, if those processes live). */
function otherUsers(): string[] {
  if (!fs.existsSync(PEER_USERS_DIR)) return [];
  return fs.readdirSync(PEER_USERS_DIR).filter((pid) => pid !== String(process.pid) && fs.existsSync(`/proc/${pid}`));
}

/**
 * Jest global teardown: fails the run if any secret the suite used appears in anything it printed
 * (captured CLI stdout/stderr and logger lines under .kaas-test/printed/), then stops the
 * OpenStack peer if a test run started it and no other test run still uses it
 * (KAAS_PEER_KEEP=1 keeps it running for the next run; a peer started by hand is never stopped).
 * It also fails the run when the tests left anything in the run's temp dir (test/support/temp-check.ts).
 */
export default async function globalTeardown(): Promise<void> {
  const leftovers = closeRunTempDir();
  const printed = printedDir();
  const leaks = fs.existsSync(printed) ? findLeakedSecrets(printed) : [];
  if (!leaks.length) fs.rmSync(printed, { recursive: true, force: true });
  fs.rmSync(path.join(PEER_USERS_DIR, String(process.pid)), { force: true });
  if (fs.existsSync(PEER_STARTED_MARK) && process.env.KAAS_PEER_KEEP !== '1' && otherUsers().length === 0) {
    spawnSync('bash', [path.join(ROOT, 'test', 'peer', 'stop.sh'), PEER_DIR], { stdio: 'ignore', timeout: 120_000 });
    fs.rmSync(PEER_STARTED_MARK, { force: true });
  }
  const failures = [
    ...(leaks.length ? [`[kaas tests] secrets leaked into printed output:\n  ${leaks.join('\n  ')}`] : []),
    ...(leftovers.length ? [leftoverMessage(leftovers)] : []),
  ];
  if (failures.length) throw new Error(failures.join('\n'));
}
