/**
 * Issue 24: a cluster made from the verbatim SCS cluster-template (a ClusterClass) by the SCS way
 * (clusterctl.yaml → `clusterctl generate cluster --from` → `kubectl apply`), run by the real topology
 * controller of Cluster API (v1.14 in the current release set, v1.12 in the older one) and CAPO v0.14 on the testbed; then imported, converged after a
 * setting change and deleted by kaas. kaas may change only what the topology owner expects to be
 * changed (Cluster.spec.topology, the class's templates); the real controllers must carry the change
 * to the KubeadmControlPlane, the MachineDeployment, the OpenStackCluster and the real Octavia listener.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { capoResources, ensureFlavor, ensureImage, listenersOf, openstack, type CloudCounts } from './openstack.js';
import { asUpgraded, cloudsYamlB64, manifest, scsClusterctlYaml, SCS_TEMPLATE } from './scs-template.js';
import { getObject, kaas, kaasUser, kubectl, leakedSecrets, listObjects, nextPatch, run, tail, testbed, until, type KaasUser } from './support.js';
import { mixedStates, watchTopology } from './topology-watch.js';
import { tempDir } from '../support/temp.js';

const CLUSTER = 'tbscs';
const NS = CLUSTER;
const PREFIX = 'tbscs';
const FLAVOR2 = 'tb.medium';
const USER_CIDR = '10.99.0.0/16';
/** The settings the convergence steps leave the cluster at (each later run passes them again). */
const CONVERGED = ['worker_count=2', `controller_flavor=${FLAVOR2}`, `restrict_kubeapi=[${USER_CIDR}]`, 'anti_affinity=true'];
const R = {
  cluster: 'clusters.v1beta2.cluster.x-k8s.io',
  cc: 'clusterclasses.v1beta2.cluster.x-k8s.io',
  kcp: 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io',
  md: 'machinedeployments.v1beta2.cluster.x-k8s.io',
  osc: 'openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io',
  osct: 'openstackclustertemplates.v1beta1.infrastructure.cluster.x-k8s.io',
  osmt: 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io',
};

let u: KaasUser;
let dir: string;
let settingsDir: string;
let baseline: CloudCounts;
const prereqs: { sgs: string[]; keypair?: string } = { sgs: [] };
const k = (args: string[], sets: string[] = [], timeoutMs?: number) => kaas(u, args, { sets, settingsDir, timeoutMs });

beforeAll(async () => {
  u = kaasUser();
  const tb = testbed();
  dir = tempDir('kaas-tb-scs-');
  settingsDir = path.join(dir, 'settings');
  fs.mkdirSync(settingsDir);
  fs.copyFileSync(path.join(tb.settingsDir, 'testbed.yaml'), path.join(settingsDir, 'testbed.yaml'));
  await ensureFlavor(FLAVOR2, 2, 8192, 40);
  // The image of the next patch release (the topology upgrade step): in Glance as the testbed's own is.
  await ensureImage(`ubuntu-capi-image-${nextPatch(tb.k8sVersion)}`);
  const demo = await openstack();
  // What SCS's terraform made before create_cluster.sh: the keypair and the security groups the template names.
  const kp = await demo.send('compute', 'POST', '/os-keypairs', { keypair: { name: `${PREFIX}-keypair` } });
  if (kp.status >= 300) throw new Error(`keypair: HTTP ${kp.status}`);
  prereqs.keypair = `${PREFIX}-keypair`;
  for (const name of [`${PREFIX}-allow-ssh`, `${PREFIX}-allow-icmp`, `${PREFIX}-${CLUSTER}-cilium`]) {
    const r = await demo.send('network', 'POST', '/security-groups', { security_group: { name } });
    if (r.status >= 300) throw new Error(`security group ${name}: HTTP ${r.status}`);
    prereqs.sgs.push(r.body.security_group.id);
  }
  baseline = await demo.counts();
  const ext = ((await demo.get('network', '/networks?router:external=true')).networks as { id: string; name: string }[]).find((n) => n.name === 'public')!;
  fs.writeFileSync(path.join(dir, 'clusterctl.yaml'), scsClusterctlYaml({
    cluster: CLUSTER, prefix: PREFIX, externalNetworkId: ext.id, cloud: 'peer-demo-appcred', flavor: tb.flavor, image: tb.image, k8s: tb.k8sVersion,
    cloudsYamlB64: cloudsYamlB64(tb.cloudsFile, 'peer-demo-appcred'),
  }), { mode: 0o600 });
  const gen = await run('clusterctl', ['generate', 'cluster', CLUSTER, '--target-namespace', NS, '--from', SCS_TEMPLATE, '--config', path.join(dir, 'clusterctl.yaml'), '--kubeconfig', tb.mgmtKubeconfig],
    { env: { ...process.env, PATH: tb.path, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true', HOME: u.home } });
  if (gen.code !== 0) throw new Error(`clusterctl generate cluster: ${tail(gen)}`);
  const ns = await kubectl(['create', 'namespace', NS]);
  if (ns.code !== 0) throw new Error(ns.stderr);
  // The class keeps the template's v1alpha7 references: Cluster API cannot reconcile it on CAPO v0.14
  // until something repoints them (the first kaas run below does).
  const applied = await kubectl(['apply', '-f', '-'], { input: manifest(asUpgraded(gen.stdout, { classRefs: 'as generated' })) });
  if (applied.code !== 0) throw new Error(`kubectl apply of the generated SCS cluster: ${applied.stderr}`);
}, 900_000);

afterAll(async () => {
  if ((await getObject(R.cluster, CLUSTER, NS)) !== undefined) {
    const r = await k(['delete-cluster', CLUSTER, '--yes'], [], 900_000);
    if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${CLUSTER}: ${tail(r)}\n`);
  }
  await kubectl(['delete', 'namespace', NS, '--ignore-not-found', '--wait=false']);
  const demo = await openstack();
  for (const id of prereqs.sgs) await demo.send('network', 'DELETE', `/security-groups/${id}`);
  if (prereqs.keypair) await demo.send('compute', 'DELETE', `/os-keypairs/${prereqs.keypair}`);
  fs.rmSync(dir, { recursive: true, force: true });
}, 1_000_000);

const clusterObj = () => getObject(R.cluster, CLUSTER, NS);
/** The patch upgrade: the testbed's version and image, the next patch's, and the settings that ask for it. */
const upgrade = () => {
  const tb = testbed();
  const next = nextPatch(tb.k8sVersion);
  return { old: { version: tb.k8sVersion, image: tb.image }, next: { version: next, image: `ubuntu-capi-image-${next}` }, sets: [...CONVERGED, `kubernetes_version=${next}`, 'image='] };
};
const topologyOwned = async (res: string) => (await listObjects(res, NS, `cluster.x-k8s.io/cluster-name=${CLUSTER}`)).filter((o) => o.metadata.labels?.['topology.cluster.x-k8s.io/owned'] !== undefined);

describe('a cluster from the verbatim SCS ClusterClass template, through kaas', () => {
  test('settings import reads the SCS clusterctl.yaml into clusters.tbscs', async () => {
    const r = await run(process.execPath, [path.resolve('dist/bundle/kaas.js'), 'settings', 'import', path.join(dir, 'clusterctl.yaml'), '--cluster', CLUSTER, '--settings-dir', settingsDir, '--env', 'testbed'], { env: u.env });
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    const file = parse(fs.readFileSync(path.join(settingsDir, 'testbed.yaml'), 'utf8')) as { clusters: Record<string, Record<string, unknown>> };
    expect(file.clusters[CLUSTER]).toMatchObject({ namespace: NS, worker_count: 1, controller_count: 1, worker_flavor: testbed().flavor, prefix: PREFIX });
    expect(JSON.stringify(file)).not.toContain(cloudsYamlB64(testbed().cloudsFile, 'peer-demo-appcred'));
  });

  test('the class\'s v1alpha7 references (CAPO v0.14 serves v1beta1 only) stop the real topology controller; kaas repoints them to v1beta1 and nothing else', async () => {
    const [osc0] = await listObjects(R.osc, NS, `cluster.x-k8s.io/cluster-name=${CLUSTER}`);
    expect(osc0).toBeUndefined();
    const dry = await k(['create-cluster', CLUSTER, '--dry-run', '-o', 'json']);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const planned = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; action: string; fields: { path: string }[] }[] } }).live.objects.filter((o) => o.action !== 'unchanged');
    expect(planned.map((o) => `${o.action} ${o.kind} ${o.fields.map((f) => f.path).join(',')}`)).toEqual([
      'update ClusterClass spec.infrastructure.templateRef.apiVersion,spec.controlPlane.machineInfrastructure.templateRef.apiVersion,spec.workers.machineDeployments[tbscs-tbscs-md-0-no1].infrastructure.templateRef.apiVersion',
    ]);
    const r = await k(['create-cluster', CLUSTER, '--no-wait']);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    await until('OpenStackCluster of the topology ready with its API load balancer', 600_000, async () => {
      const [osc] = await listObjects(R.osc, NS, `cluster.x-k8s.io/cluster-name=${CLUSTER}`);
      return osc?.status?.ready === true && osc.status.apiServerLoadBalancer?.id ? osc : undefined;
    }, 5000);
    // CAPI's Cluster controller copies the OpenStackCluster's endpoint into Cluster.spec on its next
    // reconcile, which bumps the Cluster's generation: wait for it, so the re-run below compares a settled Cluster.
    await until('Cluster.spec.controlPlaneEndpoint set by CAPI from the OpenStackCluster', 120_000, async () => (await clusterObj())?.spec.controlPlaneEndpoint?.host || undefined, 2000);
  });

  test('the real topology controller built it: KCP, MachineDeployment and OpenStackCluster owned by the topology', async () => {
    expect((await topologyOwned(R.kcp)).map((o) => o.spec.replicas)).toEqual([1]);
    expect((await topologyOwned(R.md)).map((o) => o.spec.replicas)).toEqual([1]);
    expect(await topologyOwned(R.osc)).toHaveLength(1);
    const c = await clusterObj();
    expect(c?.spec.topology.classRef.name).toBe(CLUSTER);
  });

  test('an unchanged re-run plans nothing and changes nothing (generation of Cluster and ClusterClass kept)', async () => {
    const before = [await clusterObj(), await getObject(R.cc, CLUSTER, NS)].map((o) => o?.metadata.generation);
    const dry = await k(['create-cluster', CLUSTER, '--dry-run', '-o', 'json']);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    expect(live.map((o) => o.kind).sort()).toEqual(['Cluster', 'ClusterClass', 'OpenStackClusterTemplate', 'OpenStackMachineTemplate', 'OpenStackMachineTemplate']);
    const r = await k(['create-cluster', CLUSTER, '--no-wait']);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    expect(r.stdout + r.stderr).toMatch(/no changes/);
    expect([await clusterObj(), await getObject(R.cc, CLUSTER, NS)].map((o) => o?.metadata.generation)).toEqual(before);
  });

  test('worker_count, controller_flavor and restrict_kubeapi converge through spec.topology and new class templates; the real controllers carry them', async () => {
    const sets = CONVERGED;
    const r = await k(['create-cluster', CLUSTER, '--no-wait'], sets);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    // Review 2026-11-27 n10: no server groups for a class cluster (no class template would use them); the run says so.
    expect(r.stdout + r.stderr).toMatch(/anti_affinity is not applied to Cluster/);
    const groups = ((await (await openstack()).get('compute', '/os-server-groups')).server_groups as { name: string }[]).map((g) => g.name);
    expect(groups.filter((g) => g.includes(CLUSTER))).toEqual([]);
    // kaas wrote spec.topology and the class, nothing the topology owns.
    const c = await clusterObj();
    expect(c?.spec.topology.workers.machineDeployments.map((m: { replicas: number }) => m.replicas)).toEqual([2]);
    const cc = await getObject(R.cc, CLUSTER, NS);
    expect(cc?.spec.controlPlane.machineInfrastructure.templateRef.name).toBe(`${PREFIX}-${CLUSTER}-control-plane-genc01-kaas-gen02`);
    expect(cc?.spec.infrastructure.templateRef.name).toBe(`${CLUSTER}-geno01-kaas-gen02`);
    expect(cc?.spec.workers.machineDeployments[0].infrastructure.templateRef.name).toBe(`${PREFIX}-${CLUSTER}-md-0-genw01`);
    expect((await getObject(R.osmt, `${PREFIX}-${CLUSTER}-control-plane-genc01-kaas-gen02`, NS))?.spec.template.spec.flavor).toBe(FLAVOR2);
    for (const res of [R.kcp, R.md, R.osc]) {
      for (const o of await topologyOwned(res)) {
        const managers = ((await getObject(res, o.metadata.name, NS))?.metadata as { managedFields?: { manager: string }[] }).managedFields ?? [];
        expect({ res, managers: managers.map((m) => m.manager).filter((m) => m === 'kaas') }).toEqual({ res, managers: [] });
      }
    }
    // The topology controller: MachineDeployment replicas, the control plane's new machine template, the OpenStackCluster's CIDRs.
    await until('MachineDeployment replicas 2', 120_000, async () => ((await topologyOwned(R.md))[0]?.spec.replicas === 2 ? true : undefined));
    await until(`the KubeadmControlPlane on a ${FLAVOR2} template`, 180_000, async () => {
      const kcp = (await topologyOwned(R.kcp))[0];
      const ref = kcp?.spec.machineTemplate.spec.infrastructureRef.name;
      return ref && (await getObject(R.osmt, ref, NS))?.spec.template.spec.flavor === FLAVOR2 ? true : undefined;
    });
    const demo = await openstack();
    await until(`${USER_CIDR} on the real API listener`, 300_000, async () => {
      const lb = (await capoResources(demo, NS, CLUSTER)).lbs[0];
      const l = lb ? (await listenersOf(demo, lb.id))[0] : undefined;
      return ((l?.allowed_cidrs ?? []) as string[]).includes(USER_CIDR) ? true : undefined;
    }, 5000);
  });

  test('a re-run with the new settings is unchanged again (the new generations are found, not made twice)', async () => {
    const sets = CONVERGED;
    const dry = await k(['create-cluster', CLUSTER, '--dry-run', '-o', 'json'], sets);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
  });

  test('a minor-version skip is refused with exit 2 and nothing applied', async () => {
    // The spec and its generation (the controllers keep writing the status, so resourceVersion moves anyway).
    const spec = async () => { const c = await clusterObj(); return { generation: c?.metadata.generation, spec: c?.spec }; };
    const before = await spec();
    // Two minors past the testbed's (v1.34 → v1.36 on the v1.12 release set, v1.36 → v1.38 on current).
    const [major, minor] = testbed().k8sVersion.replace(/^v/, '').split('.').map(Number);
    const r = await k(['create-cluster', CLUSTER, '--no-wait'], [`kubernetes_version=v${major}.${minor + 2}.1`, 'image=' + testbed().image]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/skips/);
    expect(await spec()).toEqual(before);
  });

  test('doctor (cloud side) and get kubeconfig work on the topology cluster', async () => {
    const d = await k(['doctor', CLUSTER, '--cloud-only', '-o', 'json']);
    expect({ code: d.code, out: d.code === 0 ? '' : tail(d) }).toEqual({ code: 0, out: '' });
    expect(JSON.parse(d.stdout).findings).toEqual([]);
    // KubeadmControlPlane writes <cluster>-kubeconfig once the API endpoint (the LB's floating IP) is known.
    const endpoint = await until('Cluster.spec.controlPlaneEndpoint', 300_000, async () => (await clusterObj())?.spec.controlPlaneEndpoint?.host as string | undefined);
    await until('the kubeconfig Secret', 300_000, async () => ((await getObject('secret', `${CLUSTER}-kubeconfig`, NS)) ? true : undefined));
    const g = await k(['get', 'kubeconfig', CLUSTER]);
    expect({ code: g.code, out: g.code === 0 ? '' : tail(g) }).toEqual({ code: 0, out: '' });
    expect((parse(g.stdout) as { clusters: { cluster: { server: string } }[] }).clusters[0].cluster.server).toBe(`https://${endpoint}:6443`);
  });

  test('Kubernetes patch upgrade (review 2026-11-27 n4): kaas pauses the Cluster, applies the new class templates and the class, then the version, and resumes; the real topology controller never writes the new image at the old version or the reverse', async () => {
    const { old, next, sets } = upgrade();
    const dry = await k(['create-cluster', CLUSTER, '--dry-run', '-o', 'json'], sets);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const planned = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; action: string }[] } }).live.objects.filter((o) => o.action !== 'unchanged');
    expect(planned.map((o) => `${o.action} ${o.kind}`).sort()).toEqual(['create OpenStackMachineTemplate', 'create OpenStackMachineTemplate', 'update Cluster', 'update ClusterClass']);
    // Every version of the KCP, the MachineDeployment, the Cluster and the machine templates the apiserver stores, from now on.
    const w = watchTopology(NS, { kcp: R.kcp, md: R.md, cluster: R.cluster, osmt: R.osmt });
    try {
      await until('the watches listed the current objects', 60_000, async () => (['kcp', 'md', 'cluster', 'osmt'].every((x) => w.seen[x].length > 0) ? true : undefined), 500);
      const r = await k(['create-cluster', CLUSTER, '--no-wait'], sets);
      expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
      // The real topology controller rolls the KubeadmControlPlane to the new version on the new image ...
      await until(`the KubeadmControlPlane at ${next.version} on a template with ${next.image}`, 300_000, async () => {
        const kcp = w.seen.kcp.at(-1);
        return kcp?.version === next.version && w.images().get(kcp.ref) === next.image ? true : undefined;
      }, 1000);
      // ... in one write: no stored version of it ever had the new image at the old version or the reverse.
      expect(mixedStates(w.seen.kcp, w.images(), old, next)).toEqual([]);
      // kaas's log: pause, the class's templates and the class, then the version with the resume.
      const out = r.stdout + r.stderr;
      const at = [/Cluster tbscs paused/, /the class's new templates and ClusterClass tbscs/, new RegExp(`Cluster tbscs at ${next.version} \\(from ${old.version}\\) and resumed`)].map((re) => out.search(re));
      expect(at.includes(-1) ? tail(r) : '').toBe('');
      expect(at).toEqual([...at].sort((a, b) => a - b));
      // The Cluster is not left paused, and the apiserver stored it paused at the old version before the new version.
      const c = await clusterObj();
      expect({ version: c?.spec.topology.version, paused: c?.spec.paused ?? false, annotation: c?.metadata.annotations?.['cluster.x-k8s.io/paused'] })
        .toEqual({ version: next.version, paused: false, annotation: undefined });
      const clusterStates = w.seen.cluster.map((x) => `${x.version} paused=${x.paused || 'absent'}`).filter((x, i, a) => a[i - 1] !== x);
      expect(clusterStates.slice(-2)).toEqual([`${old.version} paused=true`, `${next.version} paused=absent`]);
      // The MachineDeployment follows once the control plane runs the new version (CAPI defers it while the
      // control plane upgrades: reconcile_state.go IsPendingUpgrade, v1.14.2); without kubelets the testbed's
      // control plane may never finish, and then the MachineDeployment must stay on its old version AND old image.
      const mdAt = () => { const m = w.seen.md.at(-1); return { version: m?.version, image: m ? w.images().get(m.ref) : undefined }; };
      await new Promise((res) => setTimeout(res, 30_000));
      const running = ((await topologyOwned(R.kcp))[0]?.status?.versions ?? []) as { version: string }[];
      if (running.length > 0 && running.every((v) => v.version === next.version)) {
        await until(`the MachineDeployment at ${next.version} on ${next.image}`, 300_000, async () => (mdAt().version === next.version && mdAt().image === next.image ? true : undefined), 1000);
      } else {
        expect({ running, md: mdAt() }).toEqual({ running, md: { version: old.version, image: old.image } });
        const cond = ((await clusterObj())?.status?.conditions as { type: string; reason: string; message: string }[]).find((x) => x.type === 'TopologyReconciled');
        expect({ reason: cond?.reason, message: cond?.message }).toEqual({ reason: 'ClusterUpgrading', message: expect.stringContaining('MachineDeployment') });
      }
    } finally {
      w.stop();
      // What the watches saw (consecutive repeats folded), for the log of the run.
      const images = w.images();
      const fold = (xs: string[]) => xs.filter((x, i, a) => a[i - 1] !== x).join(' → ');
      for (const key of ['cluster', 'kcp', 'md']) {
        process.stderr.write(`[n4] ${key}: ${fold(w.seen[key].map((x) => (key === 'cluster' ? `${x.version} paused=${x.paused || 'absent'}` : `${x.version} on ${images.get(x.ref) ?? x.ref}`)))}\n`);
      }
    }
    expect(mixedStates(w.seen.kcp, w.images(), old, next)).toEqual([]);
    expect(mixedStates(w.seen.md, w.images(), old, next)).toEqual([]);
  });

  test('after the upgrade a re-run with the same settings plans nothing and applies nothing', async () => {
    const { sets } = upgrade();
    const before = [await clusterObj(), await getObject(R.cc, CLUSTER, NS)].map((o) => o?.metadata.generation);
    const dry = await k(['create-cluster', CLUSTER, '--dry-run', '-o', 'json'], sets);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; name: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    const r = await k(['create-cluster', CLUSTER, '--no-wait'], sets);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    expect(r.stdout + r.stderr).toMatch(/no changes/);
    expect(r.stdout + r.stderr).not.toMatch(/paused/);
    expect([await clusterObj(), await getObject(R.cc, CLUSTER, NS)].map((o) => o?.metadata.generation)).toEqual(before);
  });

  test('delete-cluster removes the cluster, its own ClusterClass and templates, and leaves the project as it was', async () => {
    // Review 2026-11-27 N1 (written 2026-11-27, not yet run): a copy of the class (as kaas's hint for a
    // shared class suggests) refers to the same templates, among them the generations kaas made for this
    // cluster (labelled with its name). Cluster API guards only the class, so kaas must keep them.
    const cc = (await getObject(R.cc, CLUSTER, NS))!;
    const copy = { apiVersion: cc.apiVersion, kind: cc.kind, metadata: { name: `${CLUSTER}-copy`, namespace: NS }, spec: cc.spec };
    const made = await kubectl(['apply', '-f', '-'], { input: JSON.stringify(copy) });
    expect({ code: made.code, err: made.stderr }).toEqual({ code: 0, err: '' });
    const refs = (o: { spec: Record<string, any> }) => [ // eslint-disable-line @typescript-eslint/no-explicit-any
      o.spec.infrastructure?.templateRef?.name, o.spec.controlPlane?.machineInfrastructure?.templateRef?.name,
      ...((o.spec.workers?.machineDeployments ?? []) as { infrastructure?: { templateRef?: { name?: string } } }[]).map((m) => m.infrastructure?.templateRef?.name),
    ].filter(Boolean).sort();
    const kept = refs(copy as never);
    const r = await k(['delete-cluster', CLUSTER, '--yes'], [], 900_000);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    expect(await clusterObj()).toBeUndefined();
    expect(await getObject(R.cc, CLUSTER, NS)).toBeUndefined();
    // The templates the surviving copy refers to stay (before the fix the labelled-leftovers sweep took
    // kaas's generations); every other generation goes, the replaced ones too.
    expect([...await listObjects(R.osct, NS), ...await listObjects(R.osmt, NS)].map((o) => o.metadata.name).sort()).toEqual(kept);
    await kubectl(['delete', R.cc, `${CLUSTER}-copy`, '-n', NS]);
    // The copy's kubeadm templates (the class's own, which kaas now keeps for the copy) go with it here.
    await kubectl(['delete', 'kubeadmcontrolplanetemplates.v1beta2.controlplane.cluster.x-k8s.io,kubeadmconfigtemplates.v1beta2.bootstrap.cluster.x-k8s.io', '--all', '-n', NS]);
    for (const name of kept) await kubectl(['delete', R.osct, name, '-n', NS, '--ignore-not-found']).then(() => kubectl(['delete', R.osmt, name, '-n', NS, '--ignore-not-found']));
    expect([...await listObjects(R.osct, NS), ...await listObjects(R.osmt, NS)].map((o) => o.metadata.name)).toEqual([]);
    const demo = await openstack();
    expect(await capoResources(demo, NS, CLUSTER)).toEqual({ networks: [], subnets: [], routers: [], sgs: [], lbs: [], apiFips: [], servers: [] });
    expect(await demo.counts()).toEqual(baseline);
    expect(leakedSecrets(u)).toEqual([]);
  });
});
