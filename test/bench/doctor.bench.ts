import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createLb, setLbStatus, testProject } from '../support/doctor-project.js';
import { PEER_DIR, PEER_ENV_VAR, PEER_SWITCHES } from '../support/peer-paths.js';
import { compareMs, KAAS, type Bench } from './measure.js';

const ROOT = process.cwd();
const PROJECT = 'kaas-doctor-bench';
const LBS = 50;
const FLOOR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'doctor-floor.js');

/** Starts (or reuses) the peer and makes the project hold exactly 50 OCCM-named OVN load balancers. */
async function prepare(): Promise<{ cloudsFile: string }> {
  // A running peer (another checkout's, KAAS_TEST_PEER_HOME) is used as it is: never restarted.
  const up = spawnSync('curl', ['-sf', '-o', '/dev/null', 'http://127.0.0.1:5000/v3'], { timeout: 10_000 }).status === 0 && fs.existsSync(path.join(PEER_DIR, 'peer.env'));
  if (!up) {
    const r = spawnSync('bash', [path.join(ROOT, 'test', 'peer', 'start.sh'), PEER_DIR], { encoding: 'utf8', timeout: 20 * 60_000, env: { ...process.env, ...PEER_SWITCHES } });
    if (r.status !== 0) throw new Error(`test/peer/start.sh failed: ${(r.stderr || r.stdout).slice(-800)}`);
  }
  process.env[PEER_ENV_VAR] = path.join(PEER_DIR, 'peer.env');
  const t = await testProject(PROJECT);
  const have = (await t.demo.call<{ loadbalancers: { name: string; provisioning_status: string }[] }>('load-balancer', 'http://127.0.0.1:9876', { method: 'GET', path: '/v2/lbaas/loadbalancers' })).data.loadbalancers;
  if (have.length > LBS) setLbStatus({ projectId: t.projectId }, 'DELETED');
  for (let i = have.length > LBS ? 0 : have.length; i < LBS; i++) await createLb(t, `kube_service_bench_ns${i}_web`, 'ovn');
  return { cloudsFile: t.cloudsFile };
}

/** `kaas doctor bench --cloud-only` on a project with 50 load balancers vs the bare list calls. */
export const bench: Bench = {
  name: `kaas doctor --cloud-only (${LBS} LBs)`,
  baseline: 'token + the same 7 list calls (fetch)',
  async run(runs) {
    const { cloudsFile } = await prepare();
    const settingsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-bench-'));
    // The settings dir is the HOME too: removed after the runs, whatever they end with.
    try {
      const env = { PATH: process.env.PATH, HOME: settingsDir, OS_CLIENT_CONFIG_FILE: cloudsFile, NO_COLOR: '1' };
      const args = [KAAS, 'doctor', 'bench', '--cloud-only', '--cloud', PROJECT, '-o', 'json', '--settings-dir', settingsDir];
      const floorArgs = [FLOOR, 'http://127.0.0.1:5000/v3', 'demo', 'demo-secret', PROJECT];
      const once = spawnSync(process.execPath, [...args, '--verbose'], { encoding: 'utf8', env });
      const m = /openstack: (\d+) HTTP requests/.exec(once.stderr);
      if (once.status !== 0 || !m) throw new Error(`kaas doctor failed (${once.status}): ${once.stderr.slice(-500)}`);
      const floorOut = spawnSync(process.execPath, floorArgs, { encoding: 'utf8', env });
      const floorReq = Number(/requests (\d+)/.exec(floorOut.stdout)?.[1]);
      const { candidateMs, baselineMs } = compareMs({ command: process.execPath, args, opts: { env } }, { command: process.execPath, args: floorArgs, opts: { env } }, runs);
      return {
        candidateMs, baselineMs,
        notes: [`HTTP requests: kaas ${m[1]}, floor ${floorReq} (ratio ${(Number(m[1]) / floorReq).toFixed(2)}); one GET per LB would be ${LBS}+`],
      };
    } finally {
      fs.rmSync(settingsDir, { recursive: true, force: true });
    }
  },
};
