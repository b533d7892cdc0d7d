/**
 * Issue 32 §4: a minor Kubernetes upgrade of a live kaas cluster through the real Cluster API controllers
 * (v1.14.2 on the current set): the workload side's cluster `tb` is created on the minor below the set's
 * (KAAS_TESTBED_WORKLOAD_K8S_VERSION, v1.35.4), and one kaas run with kubernetes_version one minor up:
 *   - writes the KubeadmControlPlane's and the MachineDeployment's version in one apply (as Cluster API
 *     expects), and the real MachineSet preflight checks hold the new workers (ControlPlaneIsStable) until the
 *     real KCP has rolled the control plane: a new control-plane Machine joins (its etcd member added as
 *     kubeadm join adds it), the old one's member is removed and the Machine deleted; only then do the workers
 *     roll, one at a time;
 *   - applies the add-ons that follow the Kubernetes minor (OCCM) only once the control plane runs the new
 *     version, and returns only when the control plane and every worker run it (review 2026-11-27 n5);
 *   - refuses a skip (one minor at a time) with nothing applied; re-runs unchanged afterwards.
 * The workload harness stands in for the kubelets (node-sync: a Node per Machine, reporting the Machine's
 * version as its kubelet's) and for kubeadm's etcd (one real etcd member per control-plane node:
 * KAAS_TESTBED_ETCD_MEMBERS=2). Opt-in: node dist/test/testbed/run.js k8s-upgrade (run.ts sets the rest).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from './env.js';
import { getObject, kaas, kaasUser, leakedSecrets, listObjects, RES, tail, testbed, until, type KaasUser } from './support.js';

const env = () => parseEnvFile(fs.readFileSync(process.env.KAAS_TESTBED_ENV!, 'utf8'));
const CLUSTER = env().WORKLOAD_CLUSTER;
const NS = env().WORKLOAD_NAMESPACE || CLUSTER;
const KCP = `${CLUSTER}-control-plane`;
const MD = `${CLUSTER}-md-0`;
/** The edge is not what this scenario is about: no ingress (its LB and rollout only add time). */
const BASE = ['deploy_nginx_ingress=false'];

const minorOf = (v: string) => Number(/^v?\d+\.(\d+)\./.exec(v)?.[1]);
let u: KaasUser;
let from: string;
let to: string;
const testbedNote = (text: string) => fs.appendFileSync(path.join(testbed().dir, 'log', 'scenarios.log'), `${new Date().toISOString()} k8s-upgrade: ${text}\n`);

/** kubectl against the workload apiserver, as the harness's admin. */
function wk<T = any>(args: string[]): T {
  const r = spawnSync('kubectl', ['--kubeconfig', env().WORKLOAD_ADMIN_KUBECONFIG, ...args, '-o', 'json'], { encoding: 'utf8', env: { ...process.env, PATH: testbed().path }, timeout: 60_000, maxBuffer: 64 << 20 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')} (workload): ${r.stderr}`);
  return JSON.parse(r.stdout) as T;
}

/** The workload etcd's members (names), read from the first member that answers, as KCP reads them. */
function etcdMembers(): string[] {
  const pki = path.join(testbed().dir, 'workload', 'pki');
  for (const port of [12379, 12479]) {
    const r = spawnSync('curl', ['-sf', '--max-time', '5', '--cacert', `${pki}/etcd-ca.crt`, '--cert', `${pki}/apiserver-etcd-client.crt`, '--key', `${pki}/apiserver-etcd-client.key`,
      '-X', 'POST', `https://127.0.0.1:${port}/v3/cluster/member/list`, '-d', '{}'], { encoding: 'utf8' });
    if (r.status === 0) return ((JSON.parse(r.stdout) as { members: { name?: string }[] }).members.map((m) => m.name ?? '')).sort();
  }
  throw new Error('no workload etcd member answers on :12379 or :12479');
}

type Machine = { name: string; version: string; cp: boolean; created: number; phase?: string; node?: string };
async function machines(): Promise<Machine[]> {
  return (await listObjects(RES.machine, NS, `cluster.x-k8s.io/cluster-name=${CLUSTER}`)).map((m) => ({
    name: m.metadata.name, version: m.spec.version, cp: m.metadata.labels?.['cluster.x-k8s.io/control-plane'] !== undefined,
    created: Date.parse((m.metadata as { creationTimestamp?: string }).creationTimestamp ?? ""), phase: m.status?.phase, node: m.status?.nodeRef?.name,
  }));
}

/** The Nodes of the workload cluster: name → kubelet version. */
function nodes(): Record<string, string> {
  const l = wk<{ items: { metadata: { name: string }; status: { nodeInfo: { kubeletVersion: string } } }[] }>(['get', 'nodes']);
  return Object.fromEntries(l.items.map((n) => [n.metadata.name, n.status.nodeInfo.kubeletVersion]));
}

const occmImage = () => wk<{ spec: { template: { spec: { containers: { image: string }[] } } } }>(['-n', 'kube-system', 'get', 'daemonset', 'openstack-cloud-controller-manager']).spec.template.spec.containers[0].image;

/** kind/name → generation of the objects a kaas apply writes. */
async function generations(): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const res of [RES.cluster, RES.openStackCluster, RES.kcp, RES.md, RES.osmt, RES.kct]) {
    for (const o of await listObjects(res, NS)) out[`${res.split('.')[0]}/${o.metadata.name}`] = Number(o.metadata.generation);
  }
  return out;
}

function ok(r: { code: number | null }, what: string, t: () => string): void {
  expect({ what, code: r.code, out: r.code === 0 ? '' : t() }).toEqual({ what, code: 0, out: '' });
}

beforeAll(async () => {
  const e = env();
  if (!e.WORKLOAD_CLUSTER) throw new Error(`${process.env.KAAS_TESTBED_ENV} has no workload side: run node dist/test/testbed/run.js k8s-upgrade`);
  u = kaasUser();
  from = String((await getObject(RES.kcp, KCP, NS))?.spec.version);
  to = e.TESTBED_K8S_VERSION;
  if (minorOf(to) !== minorOf(from) + 1) {
    throw new Error(`the minor upgrade needs the cluster one minor below the set's ${to}; ${CLUSTER} runs ${from}: run node dist/test/testbed/run.js k8s-upgrade (it sets KAAS_TESTBED_WORKLOAD_K8S_VERSION)`);
  }
});

describe(`a minor Kubernetes upgrade of the live cluster ${CLUSTER} through the real Cluster API controllers`, () => {
  test('before: kaas brings the cluster up on the old minor (add-ons included); Machines, Nodes, OCCM and etcd say so', async () => {
    const r = await kaas(u, ['create-cluster', CLUSTER], { sets: BASE, timeoutMs: 25 * 60_000 });
    ok(r, 'create-cluster on the old minor', () => tail(r));
    const ms = await machines();
    expect(ms.length).toBeGreaterThanOrEqual(3);
    expect(ms.map((m) => [m.version, m.phase])).toEqual(ms.map(() => [from, 'Running']));
    expect(Object.values(nodes()).sort()).toEqual(ms.map(() => from));
    expect(occmImage()).toMatch(new RegExp(`:v1\\.${minorOf(from)}\\.\\d+$`));
    expect(etcdMembers()).toEqual(ms.filter((m) => m.cp).map((m) => m.node).sort());
  }, 30 * 60_000);

  test('a skip of a minor is refused with nothing applied', async () => {
    const before = await generations();
    const skip = `v1.${minorOf(to) + 1}.0`;
    const r = await kaas(u, ['create-cluster', CLUSTER], { sets: [...BASE, `kubernetes_version=${skip}`, `image=ubuntu-capi-image-${to}`], timeoutMs: 10 * 60_000 });
    expect({ code: r.code, out: r.stdout + r.stderr }).toMatchObject({ code: 2, out: expect.stringMatching(new RegExp(`${from.replace(/\./g, '\\.')} → ${skip.replace(/\./g, '\\.')} skips a minor version \\(v1\\.${minorOf(to)}\\.x\\)`)) });
    expect(r.stdout + r.stderr).toMatch(new RegExp(`kubernetes_version=v1\\.${minorOf(to)}\\.x, then kubernetes_version=${skip.replace(/\./g, '\\.')}`));
    expect(await generations()).toEqual(before);
  }, 15 * 60_000);

  test('one kaas run: the control plane rolls first, the MachineSet preflight holds the workers until it runs the new minor, then they roll; kaas returns only when all run it', async () => {
    const tb = testbed();
    const old = await machines();
    const oldCp = old.filter((m) => m.cp);
    const capiLog = path.join(tb.dir, 'log', 'capi-manager.log');
    const logStart = fs.existsSync(capiLog) ? fs.statSync(capiLog).size : 0;
    // What the real controllers do while kaas runs: every 2 s, the KCP's status.version and the Machines.
    const seen: { at: number; cpVersion?: string; machines: Machine[] }[] = [];
    let watching = true;
    const watch = (async () => {
      while (watching) {
        try {
          const kcp = await getObject(RES.kcp, KCP, NS);
          seen.push({ at: Date.now(), cpVersion: kcp?.status?.version, machines: await machines() });
        } catch { /* the next sample */ }
        await new Promise((res) => setTimeout(res, 2000));
      }
    })();
    const r = await kaas(u, ['create-cluster', CLUSTER], { sets: [...BASE, `kubernetes_version=${to}`, `image=ubuntu-capi-image-${to}`], timeoutMs: 40 * 60_000 });
    const done = { at: Date.now(), machines: await machines(), nodes: nodes(), kcp: await getObject(RES.kcp, KCP, NS), md: await getObject(RES.md, MD, NS) };
    watching = false;
    await watch;
    ok(r, `create-cluster kubernetes_version=${to}`, () => tail(r, 6000));
    const out = r.stdout + r.stderr;
    // kaas's own account: the upgrade planned, the control plane waited for, then the early add-ons, then the machines.
    expect(out).toMatch(new RegExp(`Kubernetes ${from.replace(/\./g, '\\.')} → ${to.replace(/\./g, '\\.')}`));
    const step = (s: string) => out.indexOf(s);
    expect(step(`control plane ${to}`)).toBeGreaterThan(-1);
    expect(step('add-on occm')).toBeGreaterThan(step(`control plane ${to}`));
    expect(step('machines ready')).toBeGreaterThan(step('add-on occm'));

    // When kaas returned: every Machine and Node on the new version, the old ones gone (review n5).
    expect(done.machines.filter((m) => old.some((o) => o.name === m.name))).toEqual([]);
    expect(done.machines.map((m) => [m.version, m.phase, !!m.node])).toEqual(done.machines.map(() => [to, 'Running', true]));
    expect(done.machines.filter((m) => m.cp).length).toBe(oldCp.length);
    expect(done.machines.filter((m) => !m.cp).length).toBe(old.filter((m) => !m.cp).length);
    expect(done.nodes).toEqual(Object.fromEntries(done.machines.map((m) => [m.node, to])));
    expect(done.kcp?.status?.version).toBe(to);
    expect(done.md?.spec.template.spec.version).toBe(to);

    // The order the real controllers kept: the new control-plane Machine first; no new worker before the
    // control plane ran the new version (created after the last sample that still showed the old one).
    const created = (cp: boolean) => done.machines.filter((m) => m.cp === cp).map((m) => m.created);
    const lastOld = Math.max(...seen.filter((s) => s.cpVersion !== to).map((s) => s.at));
    expect(Math.min(...created(false))).toBeGreaterThanOrEqual(Math.max(...created(true)));
    expect(Math.min(...created(false))).toBeGreaterThanOrEqual(lastOld - 1000);
    // Workers one at a time (maxSurge 1): never more workers than wanted + 1 in any sample.
    const wanted = old.filter((m) => !m.cp).length;
    expect(Math.max(...seen.map((s) => s.machines.filter((m) => !m.cp).length))).toBeLessThanOrEqual(wanted + 1);
    // The real MachineSet preflight held them: Cluster API's own log says so.
    const log = fs.readFileSync(capiLog, 'utf8').slice(logStart);
    expect(log).toMatch(/Scale up on hold because[^\n]*(is upgrading|has a pending version upgrade|is provisioning)[^\n]*ControlPlaneIsStable/);

    // etcd: the new control-plane node's member only (the old one was added, led, then removed by KCP).
    expect(etcdMembers()).toEqual(done.machines.filter((m) => m.cp).map((m) => m.node).sort());
    // KCP wrote the new version into kubeadm's ClusterConfiguration; kaas moved OCCM to the new minor.
    const cm = wk<{ data: { ClusterConfiguration: string } }>(['-n', 'kube-system', 'get', 'configmap', 'kubeadm-config']);
    expect(cm.data.ClusterConfiguration).toMatch(new RegExp(`kubernetesVersion: ${to.replace(/\./g, '\\.')}`));
    expect(occmImage()).toMatch(new RegExp(`:v1\\.${minorOf(to)}\\.\\d+$`));
    testbedNote(`${from} → ${to} in ${Math.round(r.ms / 1000)} s; machines ${old.map((m) => m.name).join(', ')} → ${done.machines.map((m) => m.name).join(', ')}`);
  }, 45 * 60_000);

  test('after the upgrade an unchanged re-run plans nothing and applies nothing', async () => {
    const sets = [...BASE, `kubernetes_version=${to}`, `image=ubuntu-capi-image-${to}`];
    const before = await generations();
    const dry = await kaas(u, ['create-cluster', CLUSTER, '--dry-run', '-o', 'json'], { sets });
    ok(dry, 'dry-run after the upgrade', () => tail(dry));
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait'], { sets, timeoutMs: 10 * 60_000 });
    ok(r, 'create-cluster re-run', () => tail(r));
    expect(r.stdout + r.stderr).toMatch(/no changes/);
    await until('no generation moved', 30_000, async () => JSON.stringify(await generations()) === JSON.stringify(before) || undefined, 3000).catch(() => undefined);
    expect(await generations()).toEqual(before);
  }, 15 * 60_000);

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});
