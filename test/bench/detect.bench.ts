import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { PEER_DIR, PEER_SWITCHES, ROOT } from '../support/peer-paths.js';
import { KAAS, medianMs, type Bench } from './measure.js';

/** Starts (or reuses) the test peer (KAAS_TEST_PEER_HOME is honoured); throws when it cannot start. */
function ensurePeer(): Record<string, string> {
  const r = spawnSync('bash', [path.join(ROOT, 'test', 'peer', 'start.sh'), PEER_DIR], { encoding: 'utf8', timeout: 20 * 60_000, env: { ...process.env, ...PEER_SWITCHES } });
  if (r.status !== 0) throw new Error(`test/peer/start.sh failed: ${(r.stderr || r.stdout).slice(-800)}`);
  const lines = fs.readFileSync(path.join(PEER_DIR, 'peer.env'), 'utf8').split('\n').filter((l) => l.includes('='));
  return Object.fromEntries(lines.map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
}

/** How many HTTP requests a verbose `kaas detect` reports making (its "openstack: N HTTP requests" line). */
function kaasRequests(env: NodeJS.ProcessEnv, args: string[]): number {
  const r = spawnSync(process.execPath, [KAAS, ...args, '--verbose'], { encoding: 'utf8', env });
  const m = /openstack: (\d+) HTTP requests/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`kaas detect --verbose failed: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}

/**
 * `kaas detect` (settings, clouds.yaml, token, Octavia versions + providers, Neutron external
 * networks, planning) against its floor: a bare Node script sending the same four requests to the
 * same peer (test/bench/detect-floor.ts). A third script, timed in the same rounds, sends them through
 * the libraries kaas must use, axios and yaml, bundled with kaas's trims (detect-floor-libs.ts): it
 * splits kaas's distance to the floor into what those libraries cost and what kaas's own work costs.
 * A fourth loads yargs, yaml and axios as the bundle does, with its code caches, parses the same
 * command line with yargs and sends the same requests (detect-floor-cached.ts): the floor the
 * libraries kaas starts with set at their fastest, with none of kaas's own work in it.
 */
export const bench: Bench = {
  name: 'kaas detect',
  baseline: 'bare node:http script, same 4 requests',
  async run(runs) {
    const peer = ensurePeer();
    const settingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-bench-'));
    try {
      const env = { PATH: process.env.PATH, HOME: settingsDir, OS_CLIENT_CONFIG_FILE: path.join(PEER_DIR, 'clouds.yaml'), NO_COLOR: '1' };
      const kaasArgs = ['detect', '--cloud', 'peer-demo', '-o', 'json', '--settings-dir', settingsDir];
      const floorEnv = {
        PATH: process.env.PATH, FLOOR_AUTH_URL: peer.OS_PEER_AUTH_URL, FLOOR_USER: 'demo', FLOOR_PASSWORD: peer.OS_PEER_DEMO_PASSWORD,
        FLOOR_PROJECT: 'demo', FLOOR_REGION: peer.OS_PEER_REGION,
      };
      const floor = path.join(path.dirname(fileURLToPath(import.meta.url)), 'detect-floor.js');
      const libsFloor = path.join(settingsDir, 'floor-libs', 'detect-floor-libs.js');
      const { bundleScript } = (await import(pathToFileURL(path.join(ROOT, 'build', 'bundle.mjs')).href)) as { bundleScript(entry: string, out: string): Promise<void> };
      await bundleScript('test/bench/detect-floor-libs.ts', libsFloor);
      const libsEnv = { PATH: process.env.PATH, FLOOR_CLOUDS: path.join(PEER_DIR, 'clouds.yaml'), FLOOR_CLOUD: 'peer-demo' };
      // The cached-libraries floor needs the bundle's vendor files (not there for KAAS_BENCH_ENTRY=dist/cli/main.js).
      const vendor = path.join(path.dirname(KAAS), 'vendor');
      const cachedFloor = fs.existsSync(vendor) ? path.join(settingsDir, 'floor-cached', 'detect-floor-cached.js') : undefined;
      if (cachedFloor) await bundleScript('test/bench/detect-floor-cached.ts', cachedFloor);
      const cachedFloorEnv = { PATH: process.env.PATH, FLOOR_CLOUDS: path.join(PEER_DIR, 'clouds.yaml'), FLOOR_VENDOR: vendor };
      // The same detect with clouds.yaml `cache: {auth: true}` (lib/openstack/auth-cache.ts): the token of
      // an earlier run is kept, so a run sends 3 requests and the services know the token already.
      const cachedClouds = path.join(settingsDir, 'clouds-cache-auth.yaml');
      fs.writeFileSync(cachedClouds, `cache:\n  auth: true\n${fs.readFileSync(path.join(PEER_DIR, 'clouds.yaml'), 'utf8')}`);
      const cachedEnv = { ...env, OS_CLIENT_CONFIG_FILE: cachedClouds, XDG_CACHE_HOME: path.join(settingsDir, 'cache') };
      const warm = spawnSync(process.execPath, [KAAS, ...kaasArgs], { env: cachedEnv, encoding: 'utf8' });
      if (warm.status !== 0) throw new Error(`kaas detect with cache.auth failed: ${warm.stderr.slice(-500)}`);
      const [candidateMs, baselineMs, libsMs, cachedMs, cachedFloorMs] = medianMs([
        { command: process.execPath, args: [KAAS, ...kaasArgs], opts: { env } },
        { command: process.execPath, args: [floor], opts: { env: floorEnv } },
        { command: process.execPath, args: [libsFloor], opts: { env: libsEnv } },
        { command: process.execPath, args: [KAAS, ...kaasArgs], opts: { env: cachedEnv } },
        ...(cachedFloor ? [{ command: process.execPath, args: [cachedFloor, 'detect', '--cloud', 'peer-demo', '-o', 'json'], opts: { env: cachedFloorEnv } }] : []),
      ], runs);
      return {
        candidateMs, baselineMs,
        notes: [
          `HTTP requests: kaas detect ${kaasRequests(env, kaasArgs)} (token + 3 concurrent), floor script 4; target: ratio ≤ 1.06`,
          `the same 4 requests through bundled axios + yaml (detect-floor-libs.ts): ${libsMs.toFixed(1)} ms, ratio ${(libsMs / baselineMs).toFixed(2)} to the floor; kaas / that: ${(candidateMs / libsMs).toFixed(2)}`,
          cachedFloorMs === undefined
            ? 'yargs + yaml + axios with the code caches: not timed (no vendor files beside the entry)'
            : `yargs + yaml + axios loaded with the bundle's code caches, the command line parsed, the same 4 requests (detect-floor-cached.ts): ${cachedFloorMs.toFixed(1)} ms, ratio ${(cachedFloorMs / baselineMs).toFixed(2)} to the floor; kaas / that: ${(candidateMs / cachedFloorMs).toFixed(2)}`,
          `kaas detect with clouds.yaml cache.auth: true (the token of an earlier run kept; ${kaasRequests(cachedEnv, kaasArgs)} requests): ${cachedMs.toFixed(1)} ms, ratio ${(cachedMs / baselineMs).toFixed(2)} to the floor (which asks for a token every run)`,
        ],
      };
    } finally {
      fs.rmSync(settingsDir, { recursive: true, force: true });
    }
  },
};
