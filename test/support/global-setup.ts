import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { REFERENCE_DIR } from './reference.js';
import { openRunTempDir } from './temp-check.js';
import { PEER_DIR, PEER_ENV_VAR, PEER_STARTED_MARK, PEER_SWITCHES, PEER_USERS_DIR, PRINTED_ENV_VAR, PRINTED_ROOT, ROOT } from './peer-paths.js';

/** The part of jest's global config read here (path patterns given on the command line). */
interface JestGlobalConfig {
  nonFlagArgs?: string[];
  testPathPatterns?: { patterns?: string[] };
}

function testFiles(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.test.js')).map((f) => path.join(dir, f));
}

/** True unless path patterns were given and none of them selects a test under dist/test/integration. */
function integrationSelected(config?: JestGlobalConfig): boolean {
  const patterns = [...(config?.nonFlagArgs ?? []), ...(config?.testPathPatterns?.patterns ?? [])];
  if (patterns.length === 0) return true;
  const files = testFiles(path.join(ROOT, 'dist', 'test', 'integration'));
  return files.some((f) => patterns.some((p) => {
    try {
      return new RegExp(p, 'i').test(f);
    } catch {
      return f.includes(p);
    }
  }));
}

/**
 * Jest global setup: starts the OpenStack peer when the run needs it (below), then gives the run its
 * private temp dir (test/support/temp-check.ts) — after the peer, whose services outlive the run.
 */
export default async function globalSetup(globalConfig?: JestGlobalConfig): Promise<void> {
  await startPeer(globalConfig);
  openRunTempDir();
}

/**
 * Starts the real OpenStack peer (test/peer/start.sh: Keystone, Octavia,
 * Neutron from Debian packages on loopback, with the switches PEER_SWITCHES) once for the whole run, and tells the test workers
 * where its peer.env is (env KAAS_TEST_PEER_ENV). Idempotent: a peer already running is reused.
 * If the peer cannot start, the run fails here — integration tests never skip silently. A run
 * whose path patterns select no integration test (e.g. `jest dist/test/unit`) does not start it.
 * KAAS_PEER=skip starts nothing; integration tests then fail with a message saying so.
 */
async function startPeer(globalConfig?: JestGlobalConfig): Promise<void> {
  const printed = path.join(PRINTED_ROOT, String(process.pid));
  fs.rmSync(printed, { recursive: true, force: true });
  fs.mkdirSync(printed, { recursive: true });
  process.env[PRINTED_ENV_VAR] = printed;
  // Without the upstream reference data, dozens of tests would each fail on a missing file: say it once.
  if (!fs.existsSync(REFERENCE_DIR)) {
    throw new Error(`[kaas tests] the upstream reference data is not at ${REFERENCE_DIR}: the tests compare against ../shared/reference beside the checkout (as CI has it); put the shared folder there, or point KAAS_REFERENCE_DIR at its reference/ directory`);
  }
  if (!integrationSelected(globalConfig)) {
    process.stderr.write('\n[kaas tests] no integration test selected: the OpenStack peer is not started\n');
    return;
  }
  if (process.env.KAAS_PEER === 'skip') {
    process.stderr.write('\n[kaas tests] KAAS_PEER=skip: the OpenStack peer is not started; integration tests will fail\n');
    return;
  }
  if (typeof process.getuid === 'function' && process.getuid() !== 0) {
    throw new Error('[kaas tests] the OpenStack peer needs root (apt-get install, /run/octavia): run the tests as root, or KAAS_PEER=skip for unit tests only');
  }
  // Registered before starting, so that a concurrent run's teardown does not stop the peer under us.
  fs.mkdirSync(PEER_USERS_DIR, { recursive: true });
  fs.writeFileSync(path.join(PEER_USERS_DIR, String(process.pid)), '');
  const script = path.join(ROOT, 'test', 'peer', 'start.sh');
  process.stderr.write(`\n[kaas tests] starting the OpenStack peer: ${script} ${PEER_DIR}\n`);
  const r = spawnSync('bash', [script, PEER_DIR], { encoding: 'utf8', timeout: 20 * 60_000, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...PEER_SWITCHES } });
  process.stderr.write(r.stdout ?? '');
  if (r.status !== 0) {
    throw new Error(`[kaas tests] the OpenStack peer did not start (exit ${r.status ?? r.signal}):\n${(r.stderr ?? '').slice(-3000)}`);
  }
  // Stopped again in teardown only if a test run started it (a developer's running peer stays).
  if (!/all services were already running/.test(r.stdout ?? '')) fs.writeFileSync(PEER_STARTED_MARK, String(process.pid));
  process.env[PEER_ENV_VAR] = path.join(PEER_DIR, 'peer.env');
}
