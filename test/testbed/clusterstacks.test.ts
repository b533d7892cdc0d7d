/**
 * Issue 32 §5: the current Cluster Stacks class for OpenStack (`openstack-scs2-1-34-v2`, verbatim under
 * ../shared/reference/cluster-stacks/), rendered by the real helm (built from its pinned Go module by
 * test/testbed/build-helm.sh) as the cluster-stack-operator renders it, applied to the testbed, and two
 * Clusters of it written as a Cluster Stacks user writes them (spec.topology.variables). The real topology
 * controller of Cluster API v1.14 and CAPO v0.14 build them; kaas then converges them through the class's
 * variables, never through new template generations where a patch sets the field (review 2026-11-27 N2):
 *
 *  - tbcs (`apiServerLoadBalancer: octavia-amphora`): the first kaas run sets its variables, a re-run changes
 *    nothing, controller_flavor and worker_count reach the KubeadmControlPlane and the MachineDeployment,
 *    restrict_kubeapi reaches the real Octavia listener through `apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs`
 *    and opening it again empties the listener's allowed_cidrs; the class and its templates are never written.
 *  - tbcso (the class default `octavia-ovn`): the class's CIDR patch applies only with octavia-amphora
 *    (enabledIf). kaas refuses restrict_kubeapi there (exit 2, nothing applied); the variable set by hand,
 *    as kaas did before it evaluated enabledIf, is shown to change nothing on the real OpenStackCluster.
 *
 * Opt-in (the CI budget): `KAAS_TESTBED_CLUSTERSTACKS=1 node dist/test/testbed/run.js`, or the pattern
 * `clusterstacks`. run.ts builds helm first.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import { routeFields } from '../../lib/cluster/topology/class-patches.js';
import { REFERENCE_DIR } from '../support/reference.js';
import { tempDir } from '../support/temp.js';
import { capoResources, ensureFlavor, listenersOf, openstack, type CloudCounts } from './openstack.js';
import { cloudsYamlB64 } from './scs-template.js';
import { getObject, kaas, kaasUser, kubectl, leakedSecrets, listObjects, RES, run, tail, testbed, until, type KaasUser } from './support.js';

type Obj = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
const CHART = path.join(REFERENCE_DIR, 'cluster-stacks', 'openstack-scs2-1-34-v2', 'scs2', 'cluster-class');
/** The release name the cluster-stack-operator gives the chart; the class is `<release>-<chart version>`. */
const RELEASE = 'openstack-scs2-1-34';
const AMP = 'tbcs';
const OVN = 'tbcso';
const FLAVOR2 = 'tb.medium';
const USER_CIDR = '10.99.0.0/16';
const CIDR_VAR = 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs';
/** The kinds as the scenario reads them (support.ts's RES, by the names used here). */
const R = { cluster: RES.cluster, cc: RES.clusterClass, kcp: RES.kcp, md: RES.md, osc: RES.openStackCluster, osct: RES.osct, osmt: RES.osmt };
const TEMPLATE_RES = [RES.osct, RES.osmt, RES.kcpt, RES.kct];

let u: KaasUser;
let dir: string;
let settingsDir: string;
let baseline: CloudCounts;
let rendered: Obj[] = [];
let className = '';
const k = (args: string[], sets: string[] = [], timeoutMs?: number) => kaas(u, args, { sets, settingsDir, timeoutMs });
const clusterObj = (name: string) => getObject(R.cluster, name, name);
const variable = (c: Obj | undefined, name: string) => (c?.spec.topology.variables as { name: string; value: unknown }[] | undefined)?.find((v) => v.name === name)?.value;
const topologyOwned = async (res: string, ns: string) => (await listObjects(res, ns, `cluster.x-k8s.io/cluster-name=${ns}`)).filter((o) => o.metadata.labels?.['topology.cluster.x-k8s.io/owned'] !== undefined);
/** The class and every template in its namespace, by name and generation: kaas writes none of them. */
const classState = async (ns: string) => {
  const out: string[] = [];
  for (const res of [R.cc, ...TEMPLATE_RES]) {
    for (const o of await listObjects(res, ns)) {
      if (o.metadata.labels?.['topology.cluster.x-k8s.io/owned'] !== undefined) continue;
      out.push(`${o.kind}/${o.metadata.name} gen ${o.metadata.generation}`);
    }
  }
  return out.sort();
};
/** The Cluster as a Cluster Stacks user writes it (v1beta1, as the Cluster Stacks docs do). */
const clusterYaml = (name: string, extVars: { name: string; value: unknown }[]) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name, namespace: name },
  spec: {
    clusterNetwork: { pods: { cidrBlocks: ['192.168.0.0/16'] }, services: { cidrBlocks: ['10.96.0.0/12'] }, serviceDomain: 'cluster.local' },
    topology: {
      class: className, version: testbed().k8sVersion,
      controlPlane: { replicas: 1 },
      workers: { machineDeployments: [{ class: 'default-worker', name: 'md-0', replicas: 1 }] },
      variables: [
        { name: 'controlPlaneFlavor', value: testbed().flavor },
        { name: 'workerFlavor', value: testbed().flavor },
        // The peer has no Cinder: boot from the image (the class's patch is off at 0).
        { name: 'controlPlaneRootDisk', value: 0 },
        { name: 'workerRootDisk', value: 0 },
        { name: 'identityRef', value: { name: `${name}-cloud`, cloudName: 'peer-demo-appcred' } },
        // A subnet's DNS servers are data to Neutron here; never a real resolver.
        { name: 'dnsNameservers', value: ['172.24.4.1'] },
        ...extVars,
      ],
    },
  },
});

/** Waits until the topology controller has reconciled the Cluster's current generation (v1beta2 condition). */
const reconciled = (name: string) => until(`Cluster ${name}'s topology reconciled at its generation`, 180_000, async () => {
  const c = await clusterObj(name);
  const cond = (c?.status?.conditions as { type: string; status: string; observedGeneration?: number }[] | undefined)?.find((x) => x.type === 'TopologyReconciled');
  return cond && cond.observedGeneration === c?.metadata.generation ? c : undefined;
}, 3000);

beforeAll(async () => {
  u = kaasUser();
  const tb = testbed();
  dir = tempDir('kaas-tb-cs-');
  settingsDir = path.join(dir, 'settings');
  fs.mkdirSync(settingsDir);
  // kaas's settings for the two clusters: what the user had them built with.
  const base = fs.readFileSync(path.join(tb.settingsDir, 'testbed.yaml'), 'utf8');
  const doc = parseAllDocuments(base)[0].toJS() as Obj;
  doc.clusters = { ...(doc.clusters ?? {}), [AMP]: { namespace: AMP, worker_count: 1, controller_count: 1 }, [OVN]: { namespace: OVN, worker_count: 1, controller_count: 1 } };
  fs.writeFileSync(path.join(settingsDir, 'testbed.yaml'), stringify(doc));
  await ensureFlavor(FLAVOR2, 2, 8192, 40);

  const helm = process.env.KAAS_HELM ?? path.resolve('.kaas-test', 'helm-bin', 'helm');
  if (!fs.existsSync(helm)) throw new Error(`helm is not built (${helm}): bash test/testbed/build-helm.sh (run.ts does it when this scenario is selected)`);
  const h = await run(helm, ['template', RELEASE, CHART], { env: { ...process.env, HOME: dir, HELM_CACHE_HOME: path.join(dir, 'helm-cache'), HELM_CONFIG_HOME: path.join(dir, 'helm-config'), HELM_DATA_HOME: path.join(dir, 'helm-data') } });
  if (h.code !== 0) throw new Error(`helm template: ${tail(h)}`);
  rendered = parseAllDocuments(h.stdout).map((d) => d.toJS() as Obj).filter((o) => o?.kind);
  className = rendered.find((o) => o.kind === 'ClusterClass')!.metadata.name;

  const demo = await openstack();
  baseline = await demo.counts();
  const ext = ((await demo.get('network', '/networks?router:external=true')).networks as { id: string; name: string }[]).find((n) => n.name === 'public')!;
  for (const [name, lb] of [[AMP, 'octavia-amphora'], [OVN, undefined]] as const) {
    const ns = await kubectl(['create', 'namespace', name]);
    if (ns.code !== 0) throw new Error(ns.stderr);
    // The class and its templates in the cluster's namespace, as the cluster-stack-operator puts them there.
    const cls = await kubectl(['apply', '-n', name, '-f', '-'], { input: rendered.map((o) => `---\n${stringify(o)}`).join('') });
    if (cls.code !== 0) throw new Error(`kubectl apply of the rendered class: ${cls.stderr}`);
    const secret = { apiVersion: 'v1', kind: 'Secret', metadata: { name: `${name}-cloud`, namespace: name }, data: { 'clouds.yaml': cloudsYamlB64(tb.cloudsFile, 'peer-demo-appcred') } };
    const extVars = [{ name: 'networkExternalID', value: ext.id }, ...(lb ? [{ name: 'apiServerLoadBalancer', value: lb }] : [])];
    const c = await kubectl(['apply', '-f', '-'], { input: `---\n${stringify(secret)}---\n${stringify(clusterYaml(name, extVars))}` });
    if (c.code !== 0) throw new Error(`kubectl apply of Cluster ${name}: ${c.stderr}`);
  }
}, 900_000);

afterAll(async () => {
  for (const name of [AMP, OVN]) {
    if ((await clusterObj(name)) !== undefined) {
      const r = await k(['delete-cluster', name, '--yes'], [], 900_000);
      if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${name}: ${tail(r)}\n`);
    }
    await kubectl(['delete', 'namespace', name, '--ignore-not-found', '--wait=false']);
  }
  fs.rmSync(dir, { recursive: true, force: true });
}, 2_000_000);

describe('the Cluster Stacks class rendered by the real helm, through kaas and the real topology controller', () => {
  test('the rendered class: variables and patches as the Cluster Stacks release ships them; kaas routes its settings through them', () => {
    const cc = rendered.find((o) => o.kind === 'ClusterClass')!;
    expect(className).toBe(`${RELEASE}-v1`);
    expect(rendered.map((o) => o.kind).sort()).toEqual(['ClusterClass', 'KubeadmConfigTemplate', 'KubeadmControlPlaneTemplate', 'OpenStackClusterTemplate', 'OpenStackMachineTemplate', 'OpenStackMachineTemplate']);
    const version = testbed().k8sVersion;
    const route = (vars: { name: string; value: unknown }[], fields: Parameters<typeof routeFields>[0]['fields']) =>
      routeFields({ clusterClass: cc, clusterVariables: vars, version, fields }).map((r) => (r.way === 'variable' ? `${r.setting}: variable ${r.variable.name}=${JSON.stringify(r.variable.value)}` : `${r.setting}: ${r.way}`));
    const cp = { role: 'controlPlane' } as const;
    const w = { role: 'worker', class: 'default-worker' } as const;
    const osmt = 'OpenStackMachineTemplate' as const;
    const cidrs = { setting: 'restrict_kubeapi', target: { role: 'infrastructureCluster' } as const, kind: 'OpenStackClusterTemplate' as const, path: '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs', wanted: [USER_CIDR] };
    expect(route([], [
      { setting: 'controller_flavor', target: cp, kind: osmt, path: '/spec/template/spec/flavor', wanted: FLAVOR2 },
      { setting: 'worker_flavor', target: w, kind: osmt, path: '/spec/template/spec/flavor', wanted: FLAVOR2 },
      { setting: 'image', target: cp, kind: osmt, path: '/spec/template/spec/image', wanted: { filter: { name: `ubuntu-capi-image-${version}` } } },
      { setting: 'worker_root_disk', target: w, kind: osmt, path: '/spec/template/spec/rootVolume', wanted: { sizeGiB: 30 } },
      cidrs,
    ])).toEqual([
      `controller_flavor: variable controlPlaneFlavor="${FLAVOR2}"`,
      `worker_flavor: variable workerFlavor="${FLAVOR2}"`,
      'image: variable imageName="ubuntu-capi-image"',
      'worker_root_disk: variable workerRootDisk=30',
      // The class default octavia-ovn switches the CIDR patch off.
      'restrict_kubeapi: template',
    ]);
    expect(route([{ name: 'apiServerLoadBalancer', value: 'octavia-amphora' }], [cidrs])).toEqual([`restrict_kubeapi: variable ${CIDR_VAR}=${JSON.stringify([USER_CIDR])}`]);
  });

  test('the real topology controller builds both clusters from the class (amphora and ovn kube-API load balancers)', async () => {
    for (const [name, provider] of [[AMP, 'amphora'], [OVN, 'ovn']] as const) {
      const osc = await until(`${name}: OpenStackCluster of the topology with its API load balancer`, 600_000, async () => {
        const [o] = await listObjects(R.osc, name, `cluster.x-k8s.io/cluster-name=${name}`);
        return o?.status?.ready === true && o.status.apiServerLoadBalancer?.id ? o : undefined;
      }, 5000);
      expect({ name, enabled: osc.spec.apiServerLoadBalancer.enabled, provider: osc.spec.apiServerLoadBalancer.provider }).toEqual({ name, enabled: true, provider });
      expect((await topologyOwned(R.kcp, name)).map((o) => o.spec.replicas)).toEqual([1]);
      await until(`${name}: Cluster.spec.controlPlaneEndpoint set by CAPI`, 120_000, async () => (await clusterObj(name))?.spec.controlPlaneEndpoint?.host || undefined, 2000);
    }
  });

  test('tbcs: the first kaas run sets its variables and nothing else; an unchanged re-run plans and changes nothing', async () => {
    const before = await classState(AMP);
    const r = await k(['create-cluster', AMP, '--no-wait']);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    expect(r.stdout + r.stderr).toMatch(/controller flavor: through variable controlPlaneFlavor/);
    const c = await reconciled(AMP);
    // The flavors were the user's already; the image name is now set explicitly (it was the class default).
    expect({ cp: variable(c, 'controlPlaneFlavor'), w: variable(c, 'workerFlavor'), image: variable(c, 'imageName') }).toEqual({ cp: testbed().flavor, w: testbed().flavor, image: 'ubuntu-capi-image' });
    expect(await classState(AMP)).toEqual(before);
    const gen = c.metadata.generation;
    const dry = await k(['create-cluster', AMP, '--dry-run', '-o', 'json']);
    expect({ code: dry.code, err: dry.code ? tail(dry) : '' }).toEqual({ code: 0, err: '' });
    const live = (JSON.parse(dry.stdout) as { live: { objects: { kind: string; action: string }[] } }).live.objects;
    expect(live.filter((o) => o.action !== 'unchanged')).toEqual([]);
    const again = await k(['create-cluster', AMP, '--no-wait']);
    expect({ code: again.code, err: again.code ? tail(again) : '' }).toEqual({ code: 0, err: '' });
    expect(again.stdout + again.stderr).toMatch(/no changes/);
    expect((await clusterObj(AMP))?.metadata.generation).toBe(gen);
  });

  test('tbcs: controller_flavor and worker_count go through spec.topology; the real controllers carry them; no template generation', async () => {
    const before = await classState(AMP);
    const r = await k(['create-cluster', AMP, '--no-wait'], [`controller_flavor=${FLAVOR2}`, 'worker_count=2']);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    const c = await clusterObj(AMP);
    expect(variable(c, 'controlPlaneFlavor')).toBe(FLAVOR2);
    expect(c?.spec.topology.workers.machineDeployments.map((m: { replicas: number }) => m.replicas)).toEqual([2]);
    await until('MachineDeployment replicas 2', 120_000, async () => ((await topologyOwned(R.md, AMP))[0]?.spec.replicas === 2 ? true : undefined));
    await until(`the KubeadmControlPlane on a ${FLAVOR2} machine template (the topology controller's clone, patched)`, 180_000, async () => {
      const kcp = (await topologyOwned(R.kcp, AMP))[0];
      const ref = kcp?.spec.machineTemplate.spec.infrastructureRef.name;
      return ref && (await getObject(R.osmt, ref, AMP))?.spec.template.spec.flavor === FLAVOR2 ? true : undefined;
    });
    expect(await classState(AMP)).toEqual(before);
  });

  test('tbcs: restrict_kubeapi reaches the real Octavia listener through the class variable; opening it empties allowed_cidrs', async () => {
    const demo = await openstack();
    const cidrsOnListener = async () => {
      const lb = (await capoResources(demo, AMP, AMP)).lbs[0];
      return lb ? ((await listenersOf(demo, lb.id))[0]?.allowed_cidrs as string[] | null | undefined) ?? [] : undefined;
    };
    expect(await cidrsOnListener()).toEqual([]);
    const sets = [`controller_flavor=${FLAVOR2}`, 'worker_count=2'];
    const r = await k(['create-cluster', AMP, '--no-wait'], [...sets, `restrict_kubeapi=[${USER_CIDR}]`]);
    expect({ code: r.code, err: r.code ? tail(r) : '' }).toEqual({ code: 0, err: '' });
    const wanted = variable(await clusterObj(AMP), CIDR_VAR) as string[];
    expect(wanted).toContain(USER_CIDR);
    await until(`${USER_CIDR} on the real API listener`, 300_000, async () => ((await cidrsOnListener())?.includes(USER_CIDR) ? true : undefined), 5000);
    const open = await k(['create-cluster', AMP, '--no-wait'], sets);
    expect({ code: open.code, err: open.code ? tail(open) : '' }).toEqual({ code: 0, err: '' });
    expect(variable(await clusterObj(AMP), CIDR_VAR)).toEqual([]);
    await until('the real API listener open again (no allowed_cidrs)', 300_000, async () => ((await cidrsOnListener())?.length === 0 ? true : undefined), 5000);
  });

  test('tbcso (class default octavia-ovn): restrict_kubeapi is refused with nothing applied; the variable set by hand changes nothing on the real OpenStackCluster', async () => {
    const c0 = await clusterObj(OVN);
    const r = await k(['create-cluster', OVN, '--no-wait'], [`restrict_kubeapi=[${USER_CIDR}]`]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/restrict_kubeapi cannot be enforced on cluster tbcso: its kube-API load balancer .*uses the Octavia provider ovn/);
    expect((await clusterObj(OVN))?.metadata.generation).toBe(c0?.metadata.generation);
    // What kaas did before it evaluated enabledIf: the variable set. The real topology controller leaves
    // the patch off, so the OpenStackCluster (and the listener) get no CIDRs: the kube-API stays open.
    const p = await kubectl(['patch', R.cluster, OVN, '-n', OVN, '--type', 'json', '-p', JSON.stringify([{ op: 'add', path: '/spec/topology/variables/-', value: { name: CIDR_VAR, value: [USER_CIDR] } }])]);
    expect({ code: p.code, err: p.stderr }).toEqual({ code: 0, err: '' });
    await reconciled(OVN);
    const [osc] = await listObjects(R.osc, OVN, `cluster.x-k8s.io/cluster-name=${OVN}`);
    expect({ provider: osc.spec.apiServerLoadBalancer.provider, allowedCIDRs: osc.spec.apiServerLoadBalancer.allowedCIDRs }).toEqual({ provider: 'ovn', allowedCIDRs: undefined });
  });

  test('delete-cluster removes both clusters, keeps the class (not a cluster\'s own) and leaves the project as it was; no secret printed', async () => {
    for (const name of [AMP, OVN]) {
      const r = await k(['delete-cluster', name, '--yes'], [], 900_000);
      expect({ name, code: r.code, err: r.code ? tail(r) : '' }).toEqual({ name, code: 0, err: '' });
      expect(r.stdout + r.stderr).toMatch(new RegExp(`ClusterClass ${className} stays`));
      expect((await getObject(R.cc, className, name))?.metadata.name).toBe(className);
    }
    const demo = await openstack();
    await until('the project as before the clusters', 300_000, async () => (JSON.stringify(await demo.counts()) === JSON.stringify(baseline) ? true : undefined), 5000);
    expect(leakedSecrets(u)).toEqual([]);
  });
});
