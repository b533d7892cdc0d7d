/**
 * Issue 32 §2: the management cluster upgraded under a live kaas cluster. The workload side's cluster `tb`
 * was created by kaas on the v1.12 release set (Cluster API v1.12.10, CAPO v0.14.7) and is Provisioned with
 * its Machines and Nodes. Then the real `clusterctl upgrade apply` (v1.14.2, `testbed.sh upgrade`: a local
 * repository built from the current set's modules, the v1.14.2 managers started where the new Deployments
 * would run Pods) moves core, kubeadm bootstrap and kubeadm control plane to Cluster API v1.14.2, and:
 *   - the new controllers take the cluster over without a rollout: no Machine replaced or added, also a minute
 *     later; what they change in place is only the control-plane Machines (logged);
 *   - kaas's unchanged re-run plans and changes nothing: no generation of the cluster's objects moves;
 *   - a change (one more worker) converges through the new controllers, to a Node;
 *   - delete-cluster finishes and leaves nothing of the cluster in the cloud.
 * Needs a testbed started with KAAS_TESTBED_RELEASES=v1.12 and the workload side; opt-in, outside CI's budget
 * (both release sets are built): node dist/test/testbed/run.js mgmt-upgrade (run.ts sets the rest).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/peer-paths.js';
import { parseEnvFile } from './env.js';
import { capoResources, openstack } from './openstack.js';
import { getObject, kaas, kaasUser, leakedSecrets, listObjects, RES, tail, testbed, until, type KaasUser } from './support.js';

/** A line in the scenario log beside the testbed (DIR/log/scenarios.log). */
const testbedNote = (text: string) => fs.appendFileSync(path.join(testbed().dir, 'log', 'scenarios.log'), `${new Date().toISOString()} mgmt-upgrade: ${text}\n`);

const env = () => parseEnvFile(fs.readFileSync(process.env.KAAS_TESTBED_ENV!, 'utf8'));
const CLUSTER = env().WORKLOAD_CLUSTER;
const NS = CLUSTER;
const PROVIDERS = ['cluster-api', 'bootstrap-kubeadm', 'control-plane-kubeadm'];
const DEPLOYMENTS = ['capi-system/capi-controller-manager', 'capi-kubeadm-bootstrap-system/capi-kubeadm-bootstrap-controller-manager', 'capi-kubeadm-control-plane-system/capi-kubeadm-control-plane-controller-manager'];
/** What a rollout or a re-apply would move: every object of the cluster that kaas or the controllers own, with its generation. */
const KINDS = [RES.cluster, RES.openStackCluster, RES.kcp, RES.md, 'machinesets.v1beta2.cluster.x-k8s.io', RES.machine, RES.osm, RES.osmt, RES.kct];

let u: KaasUser;
/** On v1.12, before the upgrade. */
let before: Map<string, string>;
/** After the v1.14.2 controllers took the cluster over. */
let settled: Map<string, string>;

/** What moved from `a` to `b` (maps of generations()): objects added, removed, replaced (new uid), and changed (generation). */
function moved(a: Map<string, string>, b: Map<string, string>) {
  const [gen, uid] = [(v: string) => v.split(':')[0], (v: string) => v.split(':')[1]];
  return {
    added: [...b.keys()].filter((k) => !a.has(k)).sort(),
    removed: [...a.keys()].filter((k) => !b.has(k)).sort(),
    replaced: [...b.keys()].filter((k) => a.has(k) && uid(a.get(k)!) !== uid(b.get(k)!)).sort(),
    changed: [...b.keys()].filter((k) => a.has(k) && gen(a.get(k)!) !== gen(b.get(k)!)).sort(),
  };
}

/** kind/name → generation:uid of every object of KINDS in the cluster's namespace. */
async function generations(): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const res of KINDS) {
    for (const o of await listObjects(res, NS)) out.set(`${res.split('.')[0]}/${o.metadata.name}`, `${o.metadata.generation}:${(o.metadata as { uid?: string }).uid}`);
  }
  return out;
}

async function inventory(): Promise<Record<string, string>> {
  const items = await listObjects('providers.clusterctl.cluster.x-k8s.io', undefined);
  return Object.fromEntries(items.map((p) => [p.metadata.name, p.version as string]));
}

/** The run of a kaas command that must succeed, with its output in the failure message. */
function ok(r: { code: number | null }, what: string, t: () => string): void {
  expect({ what, code: r.code, out: r.code === 0 ? '' : t() }).toEqual({ what, code: 0, out: '' });
}

/** Every Machine of the cluster Running and every worker with a Node (node-sync, the workload side). */
async function machinesRunning(workers: number): Promise<boolean> {
  const ms = await listObjects(RES.machine, NS);
  const w = ms.filter((m) => m.metadata.labels?.['cluster.x-k8s.io/deployment-name']);
  return w.length === workers && ms.every((m) => m.status?.phase === 'Running' && m.status?.nodeRef?.name);
}

beforeAll(() => {
  const e = env();
  if (e.TESTBED_RELEASES !== 'v1.12' || !e.WORKLOAD_CLUSTER) {
    throw new Error(`the management upgrade starts from a v1.12 testbed with the workload side; ${process.env.KAAS_TESTBED_ENV} says TESTBED_RELEASES=${e.TESTBED_RELEASES}, WORKLOAD_CLUSTER=${e.WORKLOAD_CLUSTER ?? ''}: run KAAS_TESTBED_RELEASES=v1.12 KAAS_TESTBED_WORKLOAD=1 node dist/test/testbed/run.js mgmt-upgrade`);
  }
  if (e.TESTBED_MGMT_UPGRADED) throw new Error(`${e.TESTBED_DIR} was upgraded already (${e.TESTBED_MGMT_UPGRADED}): start a fresh testbed`);
  u = kaasUser();
});

describe(`the management cluster from Cluster API v1.12 to v1.14 under the live cluster ${CLUSTER}`, () => {
  test('on v1.12: the cluster is Provisioned, kaas plans nothing for it and names v1.12\'s end of life', async () => {
    before = await generations();
    expect(await inventory()).toMatchObject({ 'cluster-api': 'v1.12.10', 'bootstrap-kubeadm': 'v1.12.10', 'control-plane-kubeadm': 'v1.12.10', 'infrastructure-openstack': 'v0.14.7' });
    expect((await getObject(RES.cluster, CLUSTER, NS))?.status?.phase).toBe('Provisioned');
    const dry = await kaas(u, ['create-cluster', CLUSTER, '--dry-run', '-o', 'json']);
    ok(dry, 'dry-run on v1.12', () => tail(dry));
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    expect(dry.stderr + dry.stdout).toMatch(/Cluster API v1\.12 reaches end of life on 2026-12-08[^:]*: upgrade to v1\.14\.2 with clusterctl upgrade apply --core cluster-api:v1\.14\.2 --bootstrap kubeadm:v1\.14\.2 --control-plane kubeadm:v1\.14\.2/);
    expect([...before.keys()].filter((k) => k.startsWith('machines/')).length).toBeGreaterThanOrEqual(2);
  });

  test('clusterctl upgrade apply (the real v1.14.2 clusterctl, a local repository): the inventory and the Deployments say v1.14.2, the v1.14.2 managers run', async () => {
    const tb = testbed();
    const r = spawnSync('bash', [path.join(ROOT, 'test', 'testbed', 'testbed.sh'), 'upgrade', tb.dir], { encoding: 'utf8', timeout: 20 * 60_000, env: { ...process.env, KAAS_TESTBED_RELEASES: 'v1.12' } });
    expect({ code: r.status, out: r.status === 0 ? '' : `${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}` }).toEqual({ code: 0, out: '' });
    const log = fs.readFileSync(path.join(tb.dir, 'log', 'clusterctl-upgrade.log'), 'utf8');
    // clusterctl's own steps, in its order: every provider scaled down, then each deleted and installed.
    for (const p of PROVIDERS) expect(log).toMatch(new RegExp(`Scaling down Provider=\\{"name":"${p}"`));
    expect(log).toMatch(/Installing provider="control-plane-kubeadm" version="v1\.14\.2"/);
    expect(await inventory()).toMatchObject({ 'cluster-api': 'v1.14.2', 'bootstrap-kubeadm': 'v1.14.2', 'control-plane-kubeadm': 'v1.14.2', 'infrastructure-openstack': 'v0.14.7' });
    for (const d of DEPLOYMENTS) {
      const [ns, name] = d.split('/');
      const dep = await getObject('deployments.apps', name, ns);
      expect(dep?.spec.template.spec.containers[0].image).toMatch(/:v1\.14\.2$/);
      expect(dep?.status?.conditions?.find((c: { type: string }) => c.type === 'Available')?.status).toBe('True');
    }
    // The processes are the current set's binaries (their pids in DIR/pids).
    const pids = Object.fromEntries(fs.readFileSync(path.join(tb.dir, 'pids'), 'utf8').trim().split('\n').map((l) => l.split(' ')));
    for (const name of ['capi-manager', 'capi-kubeadm-bootstrap', 'capi-kubeadm-control-plane']) {
      expect(fs.readlinkSync(`/proc/${pids[name]}/exe`)).toBe(path.join(ROOT, '.kaas-test', 'testbed-bin-current', name));
    }
    expect(env().TESTBED_MGMT_UPGRADED).toBe('v1.14.2');
  }, 25 * 60_000);

  test('the v1.14.2 controllers take the cluster over: Available, its Machines Running, no rollout', async () => {
    // The new KCP controller has reconciled the control plane once it reports its status under v1.14.2.
    await until('the Cluster Available and the KubeadmControlPlane reconciled by the v1.14.2 controller', 600_000, async () => {
      const c = await getObject(RES.cluster, CLUSTER, NS);
      const kcp = await getObject(RES.kcp, `${CLUSTER}-control-plane`, NS);
      const avail = c?.status?.conditions?.find((x: { type: string }) => x.type === 'Available')?.status === 'True';
      return avail && kcp?.status?.observedGeneration === kcp?.metadata.generation && (await machinesRunning([...before.keys()].filter((k) => k.startsWith('machines/')).length - 1)) ? true : undefined;
    }, 5000);
    // A rollout would show as a new or replaced Machine; give the controllers a minute more to start one.
    await new Promise((r) => setTimeout(r, 60_000));
    settled = await generations();
    const m = moved(before, settled);
    expect({ added: m.added, removed: m.removed, replaced: m.replaced }).toEqual({ added: [], removed: [], replaced: [] });
    // What the new controllers change in place (seen 2026-11-28: KCP v1.14.2 applies the control-plane
    // Machine's new readiness gate NodeKubeadmLabelsAndTaintsSet): only control-plane Machines, never the
    // objects kaas writes.
    const cp = new Set((await listObjects(RES.machine, NS, 'cluster.x-k8s.io/control-plane')).map((x) => `machines/${x.metadata.name}`));
    expect(m.changed.filter((k) => !cp.has(k))).toEqual([]);
    testbedNote(`after the upgrade, changed in place by the v1.14.2 controllers: ${m.changed.join(', ') || 'nothing'}`);
  }, 15 * 60_000);

  test('kaas on v1.14.2: the unchanged re-run plans and changes nothing (no generation moves, no Machine replaced)', async () => {
    const dry = await kaas(u, ['create-cluster', CLUSTER, '--dry-run', '-o', 'json']);
    ok(dry, 'dry-run on v1.14', () => tail(dry));
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    expect(dry.stderr + dry.stdout).not.toMatch(/end of life/);
    // --no-wait: the cluster's objects only (the add-ons and the edge, which workload.sh's --no-wait create never applied, would be a first apply).
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait'], { timeoutMs: 20 * 60_000 });
    ok(r, 'create-cluster re-run on v1.14', () => tail(r));
    expect(r.stdout + r.stderr).toMatch(/no changes/);
    expect(moved(settled, await generations())).toEqual({ added: [], removed: [], replaced: [], changed: [] });
  }, 25 * 60_000);

  test('a change converges through the v1.14.2 controllers: one more worker, to a Running Machine with a Node', async () => {
    const md = await getObject(RES.md, `${CLUSTER}-md-0`, NS);
    const workers = Number(md?.spec.replicas) + 1;
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait'], { sets: [`worker_count=${workers}`], timeoutMs: 25 * 60_000 });
    ok(r, `create-cluster worker_count=${workers}`, () => tail(r));
    expect((await getObject(RES.md, `${CLUSTER}-md-0`, NS))?.spec.replicas).toBe(workers);
    await until(`${workers} worker Machines Running with Nodes`, 900_000, async () => ((await machinesRunning(workers)) ? true : undefined), 5000);
    // Only the MachineDeployment and its MachineSet changed; the new worker's objects were added; the control plane was not touched.
    const m = moved(settled, await generations());
    expect({ removed: m.removed, replaced: m.replaced, changed: m.changed.map((k) => k.split('/')[0]) }).toEqual({ removed: [], replaced: [], changed: ['machinedeployments', 'machinesets'] });
    expect(m.added.map((k) => k.split('/')[0]).sort()).toEqual(['machines', 'openstackmachines']);
  }, 30 * 60_000);

  test('delete-cluster finishes and leaves nothing of the cluster in the cloud', async () => {
    const r = await kaas(u, ['delete-cluster', CLUSTER, '--yes'], { timeoutMs: 35 * 60_000 });
    ok(r, 'delete-cluster', () => tail(r));
    expect(await getObject(RES.cluster, CLUSTER, NS)).toBeUndefined();
    const left = await capoResources(await openstack(), NS, CLUSTER);
    expect(Object.fromEntries(Object.entries(left).map(([k, v]) => [k, (v as unknown[]).length]))).toEqual(Object.fromEntries(Object.keys(left).map((k) => [k, 0])));
  }, 40 * 60_000);

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});
