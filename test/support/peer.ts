import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { PEER_DIR, PEER_ENV_VAR, PEER_SWITCHES, ROOT } from './peer-paths.js';
import { recordPrinted } from './printed.js';
import { runKaas, tempDir, type CliRun } from './cli.js';
import path from 'node:path';

/** What test/peer/start.sh wrote to peer.env, plus the secrets it uses. */
export interface PeerFacts {
  dir: string;
  cloudsFile: string;
  authUrl: string;
  region: string;
  demoPassword: string;
  adminPassword: string;
  appcredId: string;
  appcredSecret: string;
  demoUserId: string;
  demoProjectId: string;
  /** Every secret of the peer, for the leak checks. */
  secrets: string[];
}

function parseEnvFile(text: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of text.split('\n')) {
    const m = /^([A-Z0-9_]+)=(.*)$/.exec(line.trim());
    if (m) out[m[1]] = m[2];
  }
  return out;
}

/**
 * The peer global setup started. Throws (failing the test, never skipping) when global setup did
 * not start one, e.g. under KAAS_PEER=skip.
 */
export function peer(): PeerFacts {
  const file = process.env[PEER_ENV_VAR];
  if (!file || !fs.existsSync(file)) {
    throw new Error(`the OpenStack peer was not started by jest global setup (${PEER_ENV_VAR} unset${process.env.KAAS_PEER === 'skip' ? ', KAAS_PEER=skip' : ''})`);
  }
  const e = parseEnvFile(fs.readFileSync(file, 'utf8'));
  return {
    dir: e.OS_PEER_DIR ?? PEER_DIR,
    cloudsFile: e.OS_CLIENT_CONFIG_FILE,
    authUrl: e.OS_PEER_AUTH_URL,
    region: e.OS_PEER_REGION,
    demoPassword: e.OS_PEER_DEMO_PASSWORD,
    adminPassword: e.OS_PEER_ADMIN_PASSWORD,
    appcredId: e.OS_PEER_APPCRED_ID,
    appcredSecret: e.OS_PEER_APPCRED_SECRET,
    demoUserId: e.OS_PEER_DEMO_USER_ID,
    demoProjectId: e.OS_PEER_DEMO_PROJECT_ID,
    secrets: [e.OS_PEER_DEMO_PASSWORD, e.OS_PEER_ADMIN_PASSWORD, e.OS_PEER_APPCRED_SECRET, 'service-secret'],
  };
}

/**
 * The values of a run's environment that look like secrets, for the secrets check. A file path is none,
 * even when a random temporary name holds "pw" (a CI-shaped run on 2026-11-29 took a clouds.yaml under
 * `…-E8NBpw/` for a secret, and the hint that names the file for one leaked).
 */
export function envSecrets(env: Record<string, string>): string[] {
  return Object.values(env).filter((v) => !path.isAbsolute(v) && /secret|pw|pass/i.test(v));
}

/**
 * Runs the built `kaas` against the peer with a clean environment plus `env`, an empty settings
 * directory unless one is given, and records everything it printed for the secrets check.
 */
export function kaasOnPeer(args: string[], env: Record<string, string> = {}, extraSecrets: string[] = []): CliRun {
  const p = peer();
  const withDir = args.includes('--settings-dir') ? args : [...args, '--settings-dir', tempDir('kaas-settings-')];
  // A shared hold on the peer's lock: waits while another test file has services stopped.
  const prefix = holdingLock ? undefined : ['flock', '-s', lockFile()];
  const r = runKaas(withDir, { env: { OS_CLIENT_CONFIG_FILE: p.cloudsFile, ...env }, prefix });
  recordPrinted(`kaas ${args.join(' ')}`, `${r.stdout}\n${r.stderr}`, [...p.secrets, ...extraSecrets, ...envSecrets(env)]);
  return r;
}

/** True while this test file holds the peer's lock exclusively (its own services stopped). */
let holdingLock = false;
const lockFile = () => path.join(peer().dir, '.lock');

/**
 * How long an exclusive hold waits for the lock: less than jest's 60 s hook timeout, so that a
 * wait jest has given up on never goes on to take the lock (and stop or pause a service) after the
 * test file's afterAll has run, leaving every other user of the peer waiting on it for good.
 */
const EXCLUSIVE_WAIT_S = 45;

/** Holds the peer's lock in `mode` through a flock child until the returned function is called. */
async function holdLock(mode: '-s' | '-x', waitSeconds?: number): Promise<() => void> {
  const wait = waitSeconds === undefined ? [] : ['-w', String(waitSeconds)];
  const holder = spawn('flock', [...wait, mode, lockFile(), '-c', 'echo locked; read _'], { stdio: ['pipe', 'pipe', 'inherit'] });
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(code === 1 && waitSeconds !== undefined
      ? `the test peer's lock ${lockFile()} was not free within ${waitSeconds} s: other test runs on this peer (KAAS_TEST_PEER_HOME) kept it busy; run this file again when they are done`
      : `flock on ${lockFile()} exited ${code}`)));
  });
  return () => holder.stdin.end();
}

/**
 * Runs `fn` (in-process calls to the peer) under a shared hold on the peer's lock, so that it
 * never meets a service another test file has stopped on purpose.
 */
export async function withPeer<T>(fn: () => Promise<T>): Promise<T> {
  if (holdingLock) return fn();
  const release = await holdLock('-s');
  try {
    return await fn();
  } finally {
    release();
  }
}

/** Runs test/peer/stop.sh for some services, or start.sh to bring missing ones back (caller holds the lock). */
function peerScript(script: 'start.sh' | 'stop.sh', ...services: string[]): void {
  const r = spawnSync('bash', [path.join(ROOT, 'test', 'peer', script), peer().dir, ...services], {
    encoding: 'utf8', timeout: 300_000, env: { ...process.env, ...PEER_SWITCHES, KAAS_PEER_LOCK_HELD: '1' },
  });
  if (r.status !== 0) throw new Error(`${script} failed: ${r.stdout}\n${r.stderr}`);
}

/**
 * Stops some peer services while holding the peer's lock, so that a concurrent test run's
 * start.sh waits instead of bringing them back early. Returns the function that restarts them
 * and releases the lock.
 */
export async function stopPeerServices(...services: string[]): Promise<() => void> {
  const release = await holdLock('-x', EXCLUSIVE_WAIT_S);
  holdingLock = true;
  const done = () => {
    holdingLock = false;
    release();
  };
  try {
    peerScript('stop.sh', ...services);
  } catch (e) {
    done();
    throw e;
  }
  return () => {
    try {
      peerScript('start.sh');
    } finally {
      done();
    }
  };
}

/**
 * Pauses one peer service (SIGSTOP to its process group, as recorded in DIR/pids) while holding
 * the peer's lock exclusively, so that it accepts connections but never answers: a slow cloud.
 * Returns the function that resumes it (SIGCONT) and releases the lock; call it in `finally`.
 */
export async function pausePeerService(service: string): Promise<() => void> {
  const release = await holdLock('-x', EXCLUSIVE_WAIT_S);
  holdingLock = true;
  const line = fs.readFileSync(path.join(peer().dir, 'pids'), 'utf8').split('\n').find((l) => l.startsWith(`${service} `));
  const pgid = Number(line?.split(/\s+/)[1]);
  const done = () => {
    holdingLock = false;
    release();
  };
  if (!Number.isInteger(pgid) || pgid <= 1) {
    done();
    throw new Error(`no process group recorded for peer service ${service}`);
  }
  process.kill(-pgid, 'SIGSTOP');
  return () => {
    try {
      process.kill(-pgid, 'SIGCONT');
    } finally {
      done();
    }
  };
}
