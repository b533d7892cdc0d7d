import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KAAS, medianMs, type Bench } from './measure.js';

const ROOT = process.cwd();
const PEER_DIR = path.join(ROOT, '.kaas-test', 'peer');

/** Starts (or reuses) the test peer; throws when it cannot start. */
function ensurePeer(): string {
  const r = spawnSync('bash', [path.join(ROOT, 'test', 'peer', 'start.sh'), PEER_DIR], { encoding: 'utf8', timeout: 20 * 60_000 });
  if (r.status !== 0) throw new Error(`test/peer/start.sh failed: ${(r.stderr || r.stdout).slice(-800)}`);
  return path.join(PEER_DIR, 'clouds.yaml');
}

/** How many HTTP requests a verbose `kaas detect` reports making (its "openstack: N HTTP requests" line). */
function kaasRequests(env: NodeJS.ProcessEnv, args: string[]): number {
  const r = spawnSync(process.execPath, [KAAS, ...args, '--verbose'], { encoding: 'utf8', env });
  const m = /openstack: (\d+) HTTP requests/.exec(r.stderr);
  if (r.status !== 0 || !m) throw new Error(`kaas detect --verbose failed: ${r.stderr.slice(-500)}`);
  return Number(m[1]);
}

/** How many HTTP requests the openstack CLI makes (keystoneauth logs one "REQ: curl" per request with --debug). */
function openstackRequests(env: NodeJS.ProcessEnv, args: string[]): number {
  const r = spawnSync('openstack', [...args, '--debug'], { encoding: 'utf8', env });
  return (r.stderr.match(/^REQ: curl/gm) ?? []).length;
}

/**
 * `kaas detect` (token, Octavia versions + providers, Neutron external networks, planning) against
 * `openstack loadbalancer provider list` (python-openstackclient + octavia plugin): same peer,
 * same clouds.yaml entry (password auth).
 */
export const bench: Bench = {
  name: 'kaas detect',
  baseline: 'openstack loadbalancer provider list',
  async run(runs) {
    const cloudsFile = ensurePeer();
    const settingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-bench-'));
    const env = { PATH: process.env.PATH, HOME: settingsDir, OS_CLIENT_CONFIG_FILE: cloudsFile, NO_COLOR: '1' };
    const kaasArgs = ['detect', '--cloud', 'peer-demo', '-o', 'json', '--settings-dir', settingsDir];
    const osArgs = ['--os-cloud', 'peer-demo', 'loadbalancer', 'provider', 'list', '-f', 'value'];
    const candidateMs = medianMs(process.execPath, [KAAS, ...kaasArgs], runs, { env });
    const baselineMs = medianMs('openstack', osArgs, runs, { env });
    return {
      candidateMs,
      baselineMs,
      notes: [
        `HTTP requests: kaas detect ${kaasRequests(env, kaasArgs)} (token + 3 concurrent), openstack CLI ${openstackRequests(env, osArgs)}`,
      ],
    };
  },
};
