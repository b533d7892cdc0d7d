/**
 * Issue 32 §4 (review 2026-11-27 N5): a live cluster's cilium moves one minor per kaas run, through the real
 * helm and the real cilium charts. The charts come from the github.com/cilium/cilium Go modules (each
 * release's module holds its chart; test/testbed/build-cilium-charts.sh packages and indexes them) and are
 * served on loopback inside the testbed's namespace: kaas's cilium_chart_repo points there, as an
 * air-gapped site points it at its mirror. The workload side's cluster `tb` (Kubernetes 1.36, for which kaas
 * picks cilium v1.20.2) first gets cilium v1.18.10 by an explicit use_cilium; then `use_cilium: true` takes
 * it to v1.19.3 in one run, naming v1.20.2 for the next, and the next run to v1.20.2; a move down two minors
 * is refused with the DaemonSet left as it was. KWOK runs cilium's pods (no eBPF here): what is shown is
 * kaas's reading of the running version and the helm releases it makes, not cilium's datapath.
 * Opt-in: node dist/test/testbed/run.js cilium-step (run.ts builds helm and the charts, starts the workload side).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/peer-paths.js';
import { parseEnvFile } from './env.js';
import { kaas, kaasUser, leakedSecrets, tail, testbed, type KaasUser } from './support.js';

const env = () => parseEnvFile(fs.readFileSync(process.env.KAAS_TESTBED_ENV!, 'utf8'));
const CLUSTER = env().WORKLOAD_CLUSTER;
const CHARTS = process.env.KAAS_CILIUM_CHARTS ?? path.join(ROOT, '.kaas-test', 'cilium-charts');
const HELM_BIN = path.dirname(process.env.KAAS_HELM ?? path.join(ROOT, '.kaas-test', 'helm-bin', 'helm'));
const PORT = 18080;
const REPO = `http://127.0.0.1:${PORT}`;
/** The edge is not what this scenario is about. */
const BASE = ['deploy_nginx_ingress=false', `cilium_chart_repo=${REPO}`];

let u: KaasUser;
let server: ChildProcess | undefined;

/** kubectl against the workload apiserver, as the harness's admin. */
function wk<T = any>(args: string[]): T | undefined {
  const r = spawnSync('kubectl', ['--kubeconfig', env().WORKLOAD_ADMIN_KUBECONFIG, ...args, '-o', 'json'], { encoding: 'utf8', env: { ...process.env, PATH: testbed().path }, timeout: 60_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return undefined;
    throw new Error(`kubectl ${args.join(' ')} (workload): ${r.stderr}`);
  }
  return JSON.parse(r.stdout) as T;
}

/** The cilium agent's image tag (what kaas reads as the running version) and the helm release's revision. */
function running(): { image?: string; revision: number; chart?: string } {
  const ds = wk<{ spec: { template: { spec: { containers: { name: string; image: string }[] } } } }>(['-n', 'kube-system', 'get', 'daemonset', 'cilium']);
  const image = ds?.spec.template.spec.containers.find((c) => c.name === 'cilium-agent')?.image;
  const secrets = wk<{ items: { metadata: { name: string; labels: Record<string, string> } }[] }>(['-n', 'kube-system', 'get', 'secrets', '-l', 'owner=helm,name=cilium'])?.items ?? [];
  const revision = Math.max(0, ...secrets.map((s) => Number(s.metadata.labels.version)));
  const h = spawnSync(path.join(HELM_BIN, 'helm'), ['--kubeconfig', env().WORKLOAD_ADMIN_KUBECONFIG, '-n', 'kube-system', 'list', '-o', 'json'], { encoding: 'utf8' });
  const chart = h.status === 0 ? (JSON.parse(h.stdout) as { name: string; chart: string }[]).find((r) => r.name === 'cilium')?.chart : undefined;
  return { image, revision, chart };
}

const run = (sets: string[]) => kaas(u, ['create-cluster', CLUSTER], { sets: [...BASE, ...sets], timeoutMs: 25 * 60_000, extraEnv: { PATH: `${HELM_BIN}:${testbed().path}` } });

beforeAll(async () => {
  if (!env().WORKLOAD_CLUSTER) throw new Error(`${process.env.KAAS_TESTBED_ENV} has no workload side: run node dist/test/testbed/run.js cilium-step`);
  for (const f of ['index.yaml', 'cilium-1.18.10.tgz', 'cilium-1.19.3.tgz', 'cilium-1.20.2.tgz']) {
    if (!fs.existsSync(path.join(CHARTS, f))) throw new Error(`${CHARTS}/${f} is missing: run test/testbed/build-cilium-charts.sh (run.ts does for the pattern cilium-step)`);
  }
  if (!fs.existsSync(path.join(HELM_BIN, 'helm'))) throw new Error(`no helm in ${HELM_BIN}: run test/testbed/build-helm.sh`);
  u = kaasUser();
  server = spawn('python3', ['-m', 'http.server', String(PORT), '--bind', '127.0.0.1', '--directory', CHARTS], { stdio: 'ignore' });
  for (let i = 0; i < 50; i++) {
    if (spawnSync('curl', ['-sf', `${REPO}/index.yaml`, '-o', '/dev/null']).status === 0) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the chart repository did not answer on ${REPO}`);
});

afterAll(() => {
  server?.kill();
});

describe(`cilium on the live cluster ${CLUSTER} moves one minor per kaas run (real helm, real charts)`, () => {
  test('an explicit use_cilium v1.18.10 installs that release', async () => {
    expect(running().image).toBeUndefined();
    const r = await run(['use_cilium=v1.18.10']);
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    expect(r.stdout + r.stderr).toMatch(/cilium v1\.18\.10 installed \(helm\)/);
    expect(running()).toEqual({ image: 'quay.io/cilium/cilium:v1.18.10', revision: 1, chart: 'cilium-1.18.10' });
  }, 30 * 60_000);

  test('use_cilium: true on Kubernetes 1.36 (v1.20.2) moves it to v1.19.3 only, and names v1.20.2 for the next run', async () => {
    const r = await run(['use_cilium=true']);
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    const out = r.stdout + r.stderr;
    expect(out).toMatch(/cilium stops at v1\.19\.3 this run \(one minor at a time\); run create-cluster again to move on to v1\.20\.2/);
    expect(out).toMatch(/cilium v1\.19\.3 installed \(helm\); later runs: v1\.20\.2/);
    expect(running()).toEqual({ image: 'quay.io/cilium/cilium:v1.19.3', revision: 2, chart: 'cilium-1.19.3' });
  }, 30 * 60_000);

  test('the next run takes it to v1.20.2 and names nothing further; a run after that keeps it', async () => {
    const r = await run(['use_cilium=true']);
    expect({ code: r.code, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, out: '' });
    expect(r.stdout + r.stderr).toMatch(/cilium v1\.20\.2 installed \(helm\)(?!; later)/);
    expect(r.stdout + r.stderr).not.toMatch(/cilium stops at/);
    expect(running()).toMatchObject({ image: 'quay.io/cilium/cilium:v1.20.2', chart: 'cilium-1.20.2' });
    const again = await run(['use_cilium=true']);
    expect({ code: again.code, out: again.code === 0 ? '' : tail(again) }).toEqual({ code: 0, out: '' });
    expect(running()).toMatchObject({ image: 'quay.io/cilium/cilium:v1.20.2', chart: 'cilium-1.20.2' });
  }, 40 * 60_000);

  test('a move down two minors is refused, naming the way, and the running cilium is left as it was', async () => {
    const before = running();
    const r = await run(['use_cilium=v1.18.10']);
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toMatch(/cilium v1\.20\.2 runs; use_cilium v1\.18\.10 would move down 2 minor versions/);
    expect(running()).toEqual(before);
  }, 30 * 60_000);

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});
