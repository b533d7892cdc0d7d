import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root (tests run compiled from dist/test/…). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();

/**
 * Where the peer's state lives: `.kaas-test` in the checkout, or KAAS_TEST_PEER_HOME, so that several
 * checkouts of one machine (git worktrees) share the one peer its fixed loopback ports allow.
 */
const PEER_HOME = process.env.KAAS_TEST_PEER_HOME ?? path.join(ROOT, '.kaas-test');
/** Where the test run keeps the OpenStack peer (databases, logs, clouds.yaml, peer.env). */
export const PEER_DIR = path.join(PEER_HOME, 'peer');
/** Written by global setup when it started the peer, so teardown never stops a developer's peer. */
export const PEER_STARTED_MARK = path.join(PEER_HOME, 'peer-started-by-jest');
/** One file per jest process using the peer (named by pid); the last one out stops it. */
export const PEER_USERS_DIR = path.join(PEER_HOME, 'peer-users');
/**
 * The switches of test/peer/start.sh for the main suite's peer: no octavia-worker (amphora load
 * balancers stay PENDING_CREATE, which the doctor tests' stuck-LB problem relies on) and no
 * nova/glance/placement (no test boots servers): ~0.9 GiB instead of ~2.1 GiB, and a faster start.
 * start.sh restarts a peer that runs with other switches. The testbed's own peer turns both on.
 */
export const PEER_SWITCHES: Readonly<Record<string, string>> = { OCTAVIA_WORKER: '0', NOVA: '0' };
/** The variable global setup sets to the path of peer.env for the test workers. */
export const PEER_ENV_VAR = 'KAAS_TEST_PEER_ENV';
/** Every stdout/stderr/logger text a test run captured, one file per capture, for the secrets check. */
export const PRINTED_ROOT = path.join(ROOT, '.kaas-test', 'printed');
/** The variable global setup sets to this run's own capture directory (concurrent runs do not mix). */
export const PRINTED_ENV_VAR = 'KAAS_TEST_PRINTED_DIR';

/** This test run's capture directory. */
export function printedDir(): string {
  return process.env[PRINTED_ENV_VAR] ?? path.join(PRINTED_ROOT, 'default');
}
