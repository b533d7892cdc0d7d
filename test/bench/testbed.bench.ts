import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from '../testbed/env.js';
import type { Bench } from './measure.js';

/**
 * The testbed (test/testbed/testbed.sh): cold start (a fresh directory, nothing running: peer databases,
 * certificates, CRDs, managers) and warm start (everything already running), then create-cluster to
 * the furthest state the testbed reaches, kaas against the plain Cluster API path, each twice in the order
 * kaas, plain, plain, kaas, their means compared (testbed-create.ts, run inside the namespace), and one kaas run
 * more with the Keystone token kept (clouds.yaml cache.auth: true), reported beside the ratio. Opt-in: it needs root and the Go-built binaries, and takes ~15 minutes on
 * 2 cores. KAAS_BENCH_TESTBED=1 runs it in .kaas-test/bench-testbed (started fresh, stopped after);
 * KAAS_BENCH_TESTBED=DIR uses the testbed in DIR as it is (no cold start measured, left running).
 */
const ROOT = process.cwd();
const SCRIPT = path.join(ROOT, 'test', 'testbed', 'testbed.sh');

function timed(args: string[]): number {
  const t0 = Date.now();
  const r = spawnSync('bash', [SCRIPT, ...args], { encoding: 'utf8', timeout: 60 * 60_000, env: process.env });
  if (r.status !== 0) throw new Error(`testbed.sh ${args.join(' ')}: exit ${r.status}: ${(r.stderr || r.stdout).slice(-800)}`);
  return Date.now() - t0;
}

/** CAPO's v1beta1 cluster template of the pinned CAPO version, from the Go module cache the build filled. */
function capoTemplate(bin: string): string {
  const version = fs.readFileSync(path.join(bin, 'manifests', 'cluster-api-provider-openstack', 'VERSION'), 'utf8').trim().split(/\s+/).pop()!;
  const cache = spawnSync('go', ['env', 'GOMODCACHE'], { encoding: 'utf8' }).stdout.trim();
  const file = path.join(cache, 'sigs.k8s.io', `cluster-api-provider-openstack@${version}`, 'templates', 'cluster-template-capi-v1beta1.yaml');
  if (!fs.existsSync(file)) throw new Error(`CAPO's template not in the Go module cache: ${file}`);
  return file;
}

const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

export const bench: Bench = {
  name: 'testbed create-cluster (to Provisioned)',
  baseline: 'clusterctl generate cluster | kubectl apply --server-side + kubectl wait',
  skip: () => (process.env.KAAS_BENCH_TESTBED ? undefined : 'opt-in: KAAS_BENCH_TESTBED=1 (root, ~15 min) or KAAS_BENCH_TESTBED=DIR (a running testbed)'),
  async run() {
    const given = process.env.KAAS_BENCH_TESTBED !== '1' ? path.resolve(process.env.KAAS_BENCH_TESTBED!) : undefined;
    const dir = given ?? path.join(ROOT, '.kaas-test', 'bench-testbed');
    const notes: string[] = [];
    if (!given) {
      timed(['stop', dir]);
      fs.rmSync(dir, { recursive: true, force: true });
      const cold = timed(['start', dir]);
      const warm = timed(['start', dir]);
      notes.push(`testbed start: cold ${s(cold)} (fresh directory), warm ${s(warm)} (everything running)`);
    } else {
      notes.push(`testbed start: warm ${s(timed(['start', dir]))} (everything running; cold not measured on a given testbed)`);
    }
    try {
      const env = parseEnvFile(fs.readFileSync(path.join(dir, 'testbed.env'), 'utf8'));
      const r = spawnSync('ip', ['netns', 'exec', env.TESTBED_NETNS, process.execPath, path.join(ROOT, 'dist', 'test', 'bench', 'testbed-create.js'), dir, capoTemplate(env.TESTBED_BIN)], { encoding: 'utf8', timeout: 60 * 60_000 });
      if (r.status !== 0) throw new Error(`testbed-create: exit ${r.status}: ${r.stderr.slice(-1500)}`);
      const { kaas, plain, kaasTokenKept: kept } = JSON.parse(r.stdout.trim().split('\n').pop()!) as Record<'kaas' | 'plain' | 'kaasTokenKept', { totalMs: number; clientMs: number; invocations: number; apiRequests: number; byTool: Record<string, number>; runsMs: number[] }>;
      const tools = (x: typeof kaas) => Object.entries(x.byTool).map(([t, n]) => `${t} ${n}`).join(', ');
      notes.push(
        `runs in the order kaas, plain, plain, kaas (the means are compared): kaas ${kaas.runsMs.map(s).join(', ')}; plain ${plain.runsMs.map(s).join(', ')}`,
        `client part (until the objects are applied): kaas ${s(kaas.clientMs)}, plain ${s(plain.clientMs)} (ratio ${(kaas.clientMs / plain.clientMs).toFixed(2)})`,
        `tool invocations: kaas ${kaas.invocations} (${tools(kaas)}), plain ${plain.invocations} (${tools(plain)}) (ratio ${(kaas.invocations / plain.invocations).toFixed(2)})`,
        `Kubernetes API requests: kaas ${kaas.apiRequests}, plain ${plain.apiRequests} (ratio ${(kaas.apiRequests / plain.apiRequests).toFixed(2)}; the waits included)`,
        `kaas with the token kept (clouds.yaml cache.auth: true, after a dry run of the same create; one run, not in the ratio): ${s(kept.totalMs)} (${(kept.totalMs / plain.totalMs).toFixed(2)} of plain), client part ${s(kept.clientMs)}`,
      );
      return { candidateMs: kaas.totalMs, baselineMs: plain.totalMs, notes };
    } finally {
      if (!given) timed(['stop', dir]);
    }
  },
};
