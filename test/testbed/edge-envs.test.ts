/**
 * Issue 31 §1 on real apiservers: two environments with the same cluster name never touch each other's
 * workload. The testbed's environment `testbed` has cluster `tb` in namespace `tb` (its workload side:
 * the real kube-apiserver on its API floating IP, with the real OCCM). A second settings file beside
 * it, `staging.yaml`, names a cluster `tb` too, in namespace `staging-tb`, on the same management
 * cluster. Cluster API holds both (Clusters are namespaced); kaas's create-cluster refuses to build the
 * second one (cluster-namespace.ts: one Cluster of a name per management cluster), so staging's
 * Cluster is made as it would exist when it came from elsewhere (an older kaas, the SCS scripts):
 * kaas's own render, applied with its field manager, and its server groups; CAPI, CAPO and KCP then
 * make its network, API load balancer, floating IP, CA and kubeconfig Secret. Only one workload
 * apiserver runs on the testbed (workload.sh binds fixed ports), so staging's endpoint has no
 * apiserver behind it: what is proven is that nothing kaas does for staging reaches the testbed
 * cluster's workload — with the testbed cluster's kubeconfig given by flag, planted as staging's
 * recorded file and at kaas's old shared path `~/.kube/kaas/tb.yaml` — and that the testbed cluster's
 * own delete plan names nothing of staging's (its server groups share kaas's names `capi-tb-*`). The
 * testbed cluster carries a LoadBalancer Service (a real OCCM LB) and a PVC, as prod would; after
 * staging's delete they, and every object kaas applied there, are as they were.
 */
import fs from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import YAML from 'yaml';
import { dropMetricsApi, kaas, lbName, note, testbed, until, wk, wkJson, type Run, type Testbed } from './workload-support.js';
import { capoResources } from './openstack.js';
import { getObject, kubectl, listObjects, openstack, RES } from './support.js';

jest.setTimeout(40 * 60_000);

const ENV = 'staging';
const NS = 'staging-tb';
/** The testbed cluster's app namespace, fresh per run (the harness runs no PVC-protection controller: see afterAll). */
const APP = `kaas-envs-${Date.now().toString(36)}`;
let tb: Testbed;
let home: string;
let stagingYaml: string;
let stagingFip: string;
let tbFip: string;
let before: Untouched;
let groupsBefore: string[];
let groupsAfterRefusal: string[];
let refusedCreate: Run;
let namespaceBeforeRefusal: unknown;
let namespaceAfterRefusal: unknown;

/** The demo project's Nova server groups. */
const serverGroups = async () => ((await (await openstack()).get('compute', '/os-server-groups')).server_groups as { id: string; name: string }[]);

/** What kaas may change in a workload cluster: LoadBalancer Services and PVCs (delete-cluster), and every object kaas applied (its field managers' times). */
interface Untouched { servicesAndPvcs: string[]; kaasWrites: string[] }
const KINDS = 'namespaces,services,deployments,daemonsets,configmaps,secrets,serviceaccounts,roles,rolebindings,clusterroles,clusterrolebindings,ingressclasses,validatingwebhookconfigurations,persistentvolumeclaims,storageclasses,apiservices';

/** The testbed cluster's workload, as far as kaas could touch it. */
function untouched(): Untouched {
  // kubectl ≥ 1.21 leaves managedFields out of -o json unless asked.
  const items = wkJson<{ items: any[] }>(tb, ['get', KINDS, '-A', '--show-managed-fields'])!.items;
  const key = (o: any) => `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
  return {
    servicesAndPvcs: items.filter((o) => (o.kind === 'Service' && o.spec.type === 'LoadBalancer') || o.kind === 'PersistentVolumeClaim')
      .map((o) => `${key(o)} uid=${o.metadata.uid}${o.metadata.deletionTimestamp ? ' deleting' : ''}`).sort(),
    kaasWrites: items.flatMap((o) => (o.metadata.managedFields ?? []).filter((m: any) => /^kaas/.test(m.manager)).map((m: any) => `${key(o)} ${m.manager} ${m.operation} ${m.time}`)).sort(),
  };
}

const staging = (args: string[], timeoutMs = 900_000): Run => {
  const r = kaas(tb, args, { env: ENV, home, timeoutMs });
  note(tb, `two envs: kaas ${args.join(' ')} --env ${ENV}: exit ${r.code} in ${r.ms} ms\n${r.stderr.slice(-3000)}`);
  return r;
};
/** The server of a kubeconfig file's first cluster. */
const serverOf = (file: string) => (YAML.parse(fs.readFileSync(file, 'utf8')) as { clusters: { cluster: { server: string } }[] }).clusters[0].cluster.server;

beforeAll(async () => {
  tb = testbed();
  home = path.join(tb.dir, 'workload', 'home');
  // staging.yaml: the testbed's environment with cluster tb in namespace staging-tb, its own kubeconfig
  // path (no workload_kubeconfig), and server groups (anti_affinity), as a second environment would have.
  const env = YAML.parse(fs.readFileSync(path.join(tb.dir, 'settings', 'testbed.yaml'), 'utf8')) as Record<string, unknown>;
  delete env.workload_kubeconfig;
  stagingYaml = path.join(tb.dir, 'settings', `${ENV}.yaml`);
  fs.writeFileSync(stagingYaml, YAML.stringify({ ...env, anti_affinity: true, clusters: { tb: { namespace: NS, worker_count: 1 } } }));
  tbFip = (await getObject(RES.cluster, tb.cluster, tb.env.WORKLOAD_NAMESPACE ?? tb.cluster))!.spec.controlPlaneEndpoint.host;

  // The testbed cluster runs what prod would: a LoadBalancer Service (OCCM builds its LB) and a volume claim.
  wk(tb, ['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: APP } },
    { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: APP }, spec: { type: 'LoadBalancer', selector: { app: 'web' }, ports: [{ port: 80, targetPort: 8080 }] } },
    { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-0', namespace: APP }, spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } } },
  ] }));
  await until('the Service web\'s load balancer ACTIVE', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, APP, 'web')))[0]?.provisioning_status === 'ACTIVE');

  groupsBefore = (await serverGroups()).map((g) => g.id);
  // kaas refuses to build a second Cluster tb on this management cluster (asserted below).
  // The namespace may be there already: delete-cluster leaves it (an earlier run on a kept testbed); kaas must not make it.
  namespaceBeforeRefusal = (await kubectl(['get', 'namespace', NS, '-o', 'name', '--ignore-not-found'])).stdout.trim() || undefined;
  refusedCreate = staging(['create-cluster', tb.cluster, '--no-wait']);
  namespaceAfterRefusal = (await kubectl(['get', 'namespace', NS, '-o', 'name', '--ignore-not-found'])).stdout.trim() || undefined;
  groupsAfterRefusal = (await serverGroups()).map((g) => g.id);
  // The state two environments are in when staging's cluster came from elsewhere (an older kaas, the SCS scripts, a
  // colleague's clusterctl): kaas's own render for staging (offline: no management cluster asked), its server groups as
  // kaas's create makes them (Nova, policies of plan/server-groups.ts), applied with kaas's field manager.
  const dir = path.join(tb.dir, 'workload', 'staging-render');
  fs.rmSync(dir, { recursive: true, force: true });
  const render = staging(['create-cluster', tb.cluster, '--dry-run', '--output-dir', dir, '--kubeconfig', path.join(dir, 'no-management-cluster.kubeconfig')]);
  expect({ code: render.code, err: render.code ? render.stderr.slice(-2000) : '' }).toEqual({ code: 0, err: '' });
  const demo = await openstack();
  for (const [name, policy] of [['capi-tb-controller', 'anti-affinity'], ['capi-tb-worker', 'soft-anti-affinity']]) {
    const made = await demo.send('compute', 'POST', '/os-server-groups', { server_group: { name, policy } });
    expect({ name, status: made.status }).toEqual({ name, status: 200 });
  }
  // The namespace stays after a delete-cluster (an earlier run's): made idempotently.
  for (const args of [['apply', '--server-side', '-f', '-'], ['apply', '--server-side', '--field-manager', 'kaas', '-f', path.join(dir, 'cluster.yaml')]]) {
    const r = await kubectl(args, args.includes('-') ? { input: JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } }) } : {});
    expect({ args: args.join(' '), code: r.code, err: r.stderr }).toEqual({ args: args.join(' '), code: 0, err: '' });
  }
  stagingFip = await until(`Cluster ${NS}/tb's controlPlaneEndpoint`, 900_000, async () => (await getObject(RES.cluster, tb.cluster, NS))?.spec.controlPlaneEndpoint?.host as string | undefined);
  await until(`the Secret ${NS}/tb-kubeconfig (KCP)`, 600_000, async () => ((await getObject('secret', `${tb.cluster}-kubeconfig`, NS)) ? true : undefined));
  before = untouched();
  note(tb, `two envs: testbed tb at ${tbFip}, staging tb at ${stagingFip}; ${before.servicesAndPvcs.length} LB Services/PVCs, ${before.kaasWrites.length} kaas writes`);
});

test('kaas refuses a second Cluster tb on one management cluster (exit 2, nothing made), without advising staging onto the testbed cluster', () => {
  expect(refusedCreate.code).toBe(2);
  expect(refusedCreate.stderr).toContain(`Cluster ${tb.cluster} exists in namespace ${tb.env.WORKLOAD_NAMESPACE ?? tb.cluster}, not in namespace ${NS} (setting namespace)`);
  // Before, the only hint was "set namespace: tb to converge on it": staging's settings onto the testbed cluster.
  expect(refusedCreate.stderr).toContain('if it is another environment\'s cluster of the same name, give this one another name or another management cluster');
  expect({ namespace: namespaceAfterRefusal, newServerGroups: groupsAfterRefusal.filter((g) => !groupsBefore.includes(g)) }).toEqual({ namespace: namespaceBeforeRefusal, newServerGroups: [] });
});

test('Cluster API itself holds both Clusters tb (namespaces tb and staging-tb), each on its own endpoint', async () => {
  const clusters = (await listObjects(RES.cluster, undefined)).filter((c) => c.metadata.name === tb.cluster).map((c) => c.metadata.namespace).sort();
  expect(clusters).toEqual([NS, tb.env.WORKLOAD_NAMESPACE ?? tb.cluster].sort());
  expect(stagingFip).not.toBe(tbFip);
  // The snapshot sees what kaas applied there (its add-ons), so "unchanged" below compares something.
  expect(before.kaasWrites.length).toBeGreaterThan(10);
  expect(before.servicesAndPvcs).toEqual(expect.arrayContaining([expect.stringMatching(`^Service/${APP}/web `), expect.stringMatching(`^PersistentVolumeClaim/${APP}/data-0 `)]));
});

test('apply-ingress tb --env staging with the testbed cluster\'s kubeconfig is refused (exit 2), naming both endpoints; nothing is written there', () => {
  const r = staging(['apply-ingress', tb.cluster, '--kubeconfig', tb.workloadKubeconfig, '--verify-timeout', '10']);
  expect(r.code).toBe(2);
  expect(r.stderr).toContain(`is not Cluster ${NS}/${tb.cluster}'s: it reaches https://${tbFip}:6443, but Cluster ${NS}/${tb.cluster} is at ${stagingFip}:6443`);
  expect(untouched()).toEqual(before);
});

test('apply-ingress tb --env staging, with the testbed cluster\'s kubeconfig at kaas\'s old shared path ~/.kube/kaas/tb.yaml, goes to staging\'s endpoint only', () => {
  const recorded = path.join(home, '.kube', 'kaas', `env.${ENV}`, NS, `${tb.cluster}.yaml`);
  const legacy = path.join(home, '.kube', 'kaas', `${tb.cluster}.yaml`);
  fs.rmSync(recorded, { force: true });
  fs.mkdirSync(path.dirname(legacy), { recursive: true });
  fs.copyFileSync(tb.workloadKubeconfig, legacy);
  try {
    const r = staging(['apply-ingress', tb.cluster, '--verify-timeout', '10'], 600_000);
    // Staging's endpoint has no apiserver here: the run fails; what matters is where it went.
    expect(r.code).not.toBe(0);
    // The old shared file reaches the testbed cluster: named, left alone, not used.
    expect(r.stderr).toContain(`was left alone and is not used: it reaches https://${tbFip}:6443, but Cluster ${NS}/${tb.cluster} is at`);
    expect(fs.readFileSync(legacy, 'utf8')).toBe(fs.readFileSync(tb.workloadKubeconfig, 'utf8'));
    // Staging's own file came from the management cluster's Secret: staging's endpoint.
    expect(serverOf(recorded)).toBe(`https://${stagingFip}:6443`);
    expect(untouched()).toEqual(before);
  } finally {
    fs.rmSync(legacy, { force: true });
  }
});

test('the other way: apply-ingress and apply-gateway tb --env testbed with staging\'s kubeconfig (from its Secret) are refused (exit 2), naming both endpoints; nothing is touched', async () => {
  // Staging's endpoint has no apiserver here, so what this shows is that the testbed environment never goes there:
  // the check compares the kubeconfig's server with its own Cluster's controlPlaneEndpoint before any request.
  const secret = (await getObject('secret', `${tb.cluster}-kubeconfig`, NS))!;
  const file = path.join(tb.dir, 'workload', 'staging-tb.kubeconfig');
  fs.writeFileSync(file, Buffer.from((secret as unknown as { data: { value: string } }).data.value, 'base64'), { mode: 0o600 });
  const ns = tb.env.WORKLOAD_NAMESPACE ?? tb.cluster;
  const refusal = `is not Cluster ${ns}/${tb.cluster}'s: it reaches https://${stagingFip}:6443, but Cluster ${ns}/${tb.cluster} is at ${tbFip}:6443`;
  try {
    expect(serverOf(file)).toBe(`https://${stagingFip}:6443`);
    const apply = kaas(tb, ['apply-ingress', tb.cluster, '--kubeconfig', file, '--verify-timeout', '10'], { home, sets: { namespace: ns } });
    note(tb, `two envs: apply-ingress tb --env testbed --kubeconfig <staging's>: exit ${apply.code}\n${apply.stderr.slice(-2000)}`);
    expect({ code: apply.code, refused: apply.stderr.includes(refusal) }).toEqual({ code: 2, refused: true });
    // deploy_gateway on: with it off apply-gateway has nothing to apply and asks no cluster (exit 0, seen on the first run).
    const gateway = kaas(tb, ['apply-gateway', tb.cluster, '--workload-kubeconfig', file, '--verify-timeout', '10'], { home, sets: { namespace: ns, deploy_gateway: 'true' } });
    note(tb, `two envs: apply-gateway tb --env testbed --workload-kubeconfig <staging's>: exit ${gateway.code}\n${gateway.stderr.slice(-2000)}`);
    expect({ code: gateway.code, refused: gateway.stderr.includes(refusal) }).toEqual({ code: 2, refused: true });
    // Both Clusters as they were.
    for (const n of [ns, NS]) expect({ n, deleting: ((await getObject(RES.cluster, tb.cluster, n))?.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp }).toEqual({ n, deleting: undefined });
    expect(untouched()).toEqual(before);
  } finally {
    fs.rmSync(file, { force: true });
  }
});

test('the testbed cluster\'s delete plan (delete-cluster tb --env testbed --dry-run) names nothing of staging\'s', async () => {
  // Without a namespace setting the testbed environment cannot tell which Cluster tb is its own: refused, nothing listed.
  const unset = kaas(tb, ['delete-cluster', tb.cluster, '--dry-run', '--yes'], { home });
  expect({ code: unset.code, said: /Cluster tb exists in several namespaces \(staging-tb, tb\)/.test(unset.stderr) }).toEqual({ code: 2, said: true });
  const r = kaas(tb, ['delete-cluster', tb.cluster, '--dry-run', '--yes', '-o', 'json'], { home, sets: { namespace: tb.env.WORKLOAD_NAMESPACE ?? tb.cluster } });
  note(tb, `two envs: delete-cluster tb --env testbed --dry-run: exit ${r.code}\n${r.stdout.slice(0, 4000)}\n${r.stderr.slice(-2000)}`);
  expect({ code: r.code, err: r.code ? r.stderr.slice(-2000) : '' }).toEqual({ code: 0, err: '' });
  // Staging's cloud resources (CAPO's, found by its names, and the server groups its create made), by id.
  const own = await capoResources(await openstack(), NS, tb.cluster);
  const groups = (await serverGroups()).filter((g) => !groupsBefore.includes(g.id));
  expect(groups.length).toBeGreaterThan(0);
  const theirs = ([...own.networks, ...own.sgs, ...own.lbs, ...own.apiFips, ...groups] as { id: string; name?: string; floating_ip_address?: string }[])
    .map((x) => `${x.name ?? x.floating_ip_address} ${x.id}`);
  const actions = (JSON.parse(r.stdout) as { actions: string[] }).actions.join('\n');
  expect(theirs.filter((t) => actions.includes(t.split(' ')[1]))).toEqual([]);
  // Staging's groups carry kaas's names for cluster tb (capi-tb-*): the plan says why it keeps them.
  for (const grp of groups) expect(r.stderr).toContain(`server group ${grp.name} (${grp.id}) is kept: no machine template of Cluster ${tb.env.WORKLOAD_NAMESPACE ?? tb.cluster}/${tb.cluster} uses it`);
});

test('delete-cluster tb --env staging (the testbed cluster\'s kubeconfig planted as its recorded file) deletes staging\'s cluster and nothing of the testbed cluster\'s', async () => {
  const recorded = path.join(home, '.kube', 'kaas', `env.${ENV}`, NS, `${tb.cluster}.yaml`);
  fs.copyFileSync(tb.workloadKubeconfig, recorded);
  const r = staging(['delete-cluster', tb.cluster, '--yes'], 1_800_000);
  expect({ code: r.code, err: r.code ? r.stderr.slice(-3000) : '' }).toEqual({ code: 0, err: '' });
  expect(await getObject(RES.cluster, tb.cluster, NS)).toBeUndefined();
  const live = await getObject(RES.cluster, tb.cluster, tb.env.WORKLOAD_NAMESPACE ?? tb.cluster);
  expect({ exists: !!live, deleting: (live?.metadata as { deletionTimestamp?: string } | undefined)?.deletionTimestamp }).toEqual({ exists: true, deleting: undefined });
  // The testbed cluster's Service, volume claim and everything kaas applied there, as before; its LBs in Octavia.
  expect(untouched()).toEqual(before);
  expect((await tb.os.loadBalancers(lbName(tb, APP, 'web'))).map((l) => l.provisioning_status)).toEqual(['ACTIVE']);
  const kept = await capoResources(await openstack(), tb.env.WORKLOAD_NAMESPACE ?? tb.cluster, tb.cluster);
  expect({ networks: kept.networks.length, lbs: kept.lbs.length, apiFips: kept.apiFips.length }).toEqual({ networks: 1, lbs: 1, apiFips: 1 });
  expect(fs.existsSync(recorded)).toBe(false);
  expect(fs.existsSync(tb.workloadKubeconfig)).toBe(true);
  // Staging's server groups went with it (its templates named them).
  expect((await serverGroups()).filter((g) => !groupsBefore.includes(g.id))).toEqual([]);
});

afterAll(async () => {
  // A staging cluster the delete above did not remove goes here (the next files count the project's LBs).
  if (await getObject(RES.cluster, tb.cluster, NS).catch(() => undefined)) {
    kaas(tb, ['delete-cluster', tb.cluster, '--yes'], { env: ENV, home, timeoutMs: 1_800_000 });
  }
  fs.rmSync(stagingYaml, { force: true });
  const demo = await openstack();
  for (const g of (await serverGroups().catch(() => [])).filter((x) => groupsBefore && !groupsBefore.includes(x.id))) await demo.send('compute', 'DELETE', `/os-server-groups/${g.id}`);
  dropMetricsApi(tb);
  // The workload harness runs no PVC-protection controller, so the claim's kubernetes.io/pvc-protection finalizer is
  // lifted here, as that controller would for an unused claim, or the namespace never finishes deleting.
  try { wk(tb, ['-n', APP, 'patch', 'pvc', 'data-0', '--type', 'merge', '-p', '{"metadata":{"finalizers":null}}']); } catch { /* absent */ }
  try { wk(tb, ['delete', 'namespace', APP, '--wait=false']); } catch { /* absent */ }
  await until('the Service web\'s LB gone', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, APP, 'web'))).length === 0).catch(() => undefined);
});
