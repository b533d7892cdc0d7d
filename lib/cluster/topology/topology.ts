import { CAPI_CLUSTER, listAllNamespaces } from '../../kube/cluster-api.js';
import type { Kubectl } from '../../kube/kubectl.js';
import { decided, refused, type Decision, type Refusal } from '../../plan/decision.js';
import { kubeApiOnLiveCluster, type LiveApiLb } from '../../plan/kubeapi-live.js';
import type { KubeObject } from '../../render/documents.js';
import { changedFields, classifyVersion, show, type FieldChange } from '../live/changes.js';
import type { ConvergePlan, ObjectDiff } from '../live/reconcile.js';
import { topologyRoutes } from './class-routes.js';

/**
 * Clusters made from a ClusterClass (`Cluster.spec.topology`, as the SCS cluster-template and
 * Cluster Stacks make them). Cluster API's topology controller owns the KubeadmControlPlane, the
 * MachineDeployments, the OpenStackCluster and the machine templates it clones from the class, and
 * puts back whatever anybody else changes in them. So kaas converges such a cluster only through
 * what the topology owner expects to be changed:
 *
 *   - `spec.topology.version`, `.controlPlane.replicas`, `.workers.machineDeployments[].replicas` of
 *     the Cluster (kubernetes_version, controller_count, worker_count);
 *   - the class's templates where a setting lives in them (flavors and image in the
 *     OpenStackMachineTemplates, the kube-API allowed CIDRs in the OpenStackClusterTemplate): those
 *     templates are immutable, so a change is a new template (`…-genw01` → `…-genw01-kaas-gen02`,
 *     then `…-kaas-gen03`) and the class's reference repointed; the topology controller then
 *     rolls the machines or updates the OpenStackCluster as it would for the SCS scripts' change.
 *
 * A class several clusters use is changed by no run of kaas (it would roll the others too): that is
 * refused with the clusters named. Read in v1beta2 (CAPI v1.12's storage version).
 */

type Obj = Record<string, unknown>;
type Meta = { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
type Item = Obj & { apiVersion?: string; kind?: string; metadata: Meta };

/** The resources read here, versioned. */
export const TOPOLOGY_RESOURCES = {
  Cluster: 'clusters.v1beta2.cluster.x-k8s.io',
  ClusterClass: 'clusterclasses.v1beta2.cluster.x-k8s.io',
  MachineDeployment: 'machinedeployments.v1beta2.cluster.x-k8s.io',
  OpenStackClusterTemplate: 'openstackclustertemplates.v1beta1.infrastructure.cluster.x-k8s.io',
  OpenStackMachineTemplate: 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io',
} as const;

const CAPI_V1BETA2 = 'cluster.x-k8s.io/v1beta2';
/** The only version CAPO v0.14 serves its templates in. */
const INFRA_V1BETA1 = 'infrastructure.cluster.x-k8s.io/v1beta1';
/** On a template kaas made for a class: the template it replaced (delete-cluster follows the chain). */
export const PREVIOUS_GENERATION = 'kaas.scs.community/previous-generation';
const dig = (o: unknown, path: string[]): unknown => path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Obj)[k] : undefined), o);
const str = (o: unknown, path: string[]): string | undefined => {
  const v = dig(o, path);
  return typeof v === 'string' ? v : undefined;
};

/** One template the class refers to, where, and its live object. */
export interface ClassTemplate {
  /** What it is for, in messages: "control-plane machines", "workers (md-0)", "cluster". */
  role: string;
  /** Path of the templateRef inside ClusterClass.spec (for the repoint). */
  refPath: (string | { class: string })[];
  kind: 'OpenStackMachineTemplate' | 'OpenStackClusterTemplate';
  name: string;
  /** The reference's apiVersion as the class holds it. */
  apiVersion?: string;
  live?: Item;
}

/** What kaas reads of a topology cluster. */
export interface LiveTopology {
  namespace: string;
  cluster: Item;
  clusterClass?: Item;
  classNamespace: string;
  className: string;
  /** Other clusters (namespace/name) made from the same class. */
  otherUsers: string[];
  templates: ClassTemplate[];
  /** Names of the OpenStack*Templates in the class's namespace (a new generation must not collide). */
  existingTemplates: string[];
  /** Template (`kind/name`, lower-case kind) → the generation it replaced, for those kaas made. */
  previousGeneration: Record<string, string>;
  /** The MachineDeployments the topology made (by topology name). */
  machineDeployments: { topologyName: string; name: string }[];
}

/** True when a live Cluster (any version) is made from a ClusterClass. */
export function isTopologyCluster(c: unknown): boolean {
  return dig(c, ['spec', 'topology']) !== undefined;
}

/** The topology's worker pools (v1beta2 `spec.topology.workers.machineDeployments`). */
const topologyPools = (c: unknown) => (dig(c, ['spec', 'topology', 'workers', 'machineDeployments']) as { name: string; class: string; replicas?: number }[] | undefined) ?? [];

/** The templates a class refers to that hold settings kaas converges (v1beta2 templateRef). */
export function classTemplates(cc: unknown, pools: { class: string }[]): ClassTemplate[] {
  const out: ClassTemplate[] = [];
  const infra = str(cc, ['spec', 'infrastructure', 'templateRef', 'name']);
  if (infra) out.push({ role: 'cluster', refPath: ['infrastructure', 'templateRef'], kind: 'OpenStackClusterTemplate', name: infra, apiVersion: str(cc, ['spec', 'infrastructure', 'templateRef', 'apiVersion']) });
  const cp = str(cc, ['spec', 'controlPlane', 'machineInfrastructure', 'templateRef', 'name']);
  if (cp) out.push({ role: 'control-plane machines', refPath: ['controlPlane', 'machineInfrastructure', 'templateRef'], kind: 'OpenStackMachineTemplate', name: cp, apiVersion: str(cc, ['spec', 'controlPlane', 'machineInfrastructure', 'templateRef', 'apiVersion']) });
  const classes = (dig(cc, ['spec', 'workers', 'machineDeployments']) as { class: string }[] | undefined) ?? [];
  for (const p of pools) {
    const mdc = classes.find((c) => c.class === p.class);
    const name = str(mdc, ['infrastructure', 'templateRef', 'name']);
    if (name) out.push({ role: `workers (class ${p.class})`, refPath: ['workers', 'machineDeployments', { class: p.class }, 'infrastructure', 'templateRef'], kind: 'OpenStackMachineTemplate', name, apiVersion: str(mdc, ['infrastructure', 'templateRef', 'apiVersion']) });
  }
  return out;
}

/** Reads the Cluster, its class, the class's templates, the class's other users and the MachineDeployments. */
export async function readTopology(k: Kubectl, namespace: string, name: string): Promise<LiveTopology> {
  const cluster = await k.getJson<Item>(TOPOLOGY_RESOURCES.Cluster, name, { namespace });
  if (!cluster) throw new Error(`Cluster ${namespace}/${name} vanished while it was read`);
  const className = str(cluster, ['spec', 'topology', 'classRef', 'name']) ?? '';
  const classNamespace = str(cluster, ['spec', 'topology', 'classRef', 'namespace']) || namespace;
  const use = await readClassUse(k, classNamespace, className, { namespace, name });
  const templates = classTemplates(use.clusterClass, topologyPools(cluster));
  for (const t of templates) t.live = await k.getJson<Item>(TOPOLOGY_RESOURCES[t.kind], t.name, { namespace: classNamespace });
  const mds = await k.getJson<{ items?: Item[] }>(TOPOLOGY_RESOURCES.MachineDeployment, undefined, { namespace, selector: `cluster.x-k8s.io/cluster-name=${name}` });
  const machineDeployments = (mds?.items ?? [])
    .map((m) => ({ topologyName: m.metadata.labels?.['topology.cluster.x-k8s.io/deployment-name'] ?? '', name: m.metadata.name }))
    .filter((m) => m.topologyName);
  return { namespace, cluster, classNamespace, className, templates, machineDeployments, ...use };
}

/** What is known of a class apart from one cluster: the class, the clusters using it besides `self`, and its namespace's template generations. */
export type ClassUse = Pick<LiveTopology, 'clusterClass' | 'otherUsers' | 'existingTemplates' | 'previousGeneration'>;

/** Reads a ClusterClass, the Clusters other than `self` made from it, and the OpenStack*Templates of its namespace. */
export async function readClassUse(k: Kubectl, classNamespace: string, className: string, self: { namespace: string; name: string }): Promise<ClassUse> {
  const clusterClass = className ? await k.getJson<Item>(TOPOLOGY_RESOURCES.ClusterClass, className, { namespace: classNamespace }) : undefined;
  const all = await listAllNamespaces<Item>(k, CAPI_CLUSTER);
  const otherUsers = all
    .filter((c) => !(c.metadata.name === self.name && c.metadata.namespace === self.namespace))
    .filter((c) => {
      const ref = dig(c, ['spec', 'topology', 'classRef']) as { name?: string; namespace?: string } | undefined;
      const legacy = dig(c, ['spec', 'topology', 'class']); // a v1beta1 view, should the list come back in it
      return (ref?.name ?? legacy) === className && (ref?.namespace || c.metadata.namespace) === classNamespace;
    })
    .map((c) => `${c.metadata.namespace}/${c.metadata.name}`)
    .sort();
  const existing: string[] = [];
  const previousGeneration: Record<string, string> = {};
  for (const kind of ['OpenStackClusterTemplate', 'OpenStackMachineTemplate'] as const) {
    const list = await k.getJson<{ items?: Item[] }>(TOPOLOGY_RESOURCES[kind], undefined, { namespace: classNamespace });
    for (const i of list?.items ?? []) {
      existing.push(i.metadata.name);
      const prev = i.metadata.annotations?.[PREVIOUS_GENERATION];
      if (prev) previousGeneration[`${kind.toLowerCase()}/${i.metadata.name}`] = prev;
    }
  }
  return { clusterClass, otherUsers, existingTemplates: existing, previousGeneration };
}

/** What the settings want of a topology cluster, taken from kaas's own render (one mapping of settings to fields). */
export interface TopologyWanted {
  version: string;
  controlPlaneReplicas: number;
  workerReplicas: number;
  /** `spec.template.spec` of the rendered control-plane / worker OpenStackMachineTemplate. */
  controlPlaneMachine: Obj;
  workerMachine: Obj;
  /** `spec` of the rendered OpenStackCluster. */
  openStackCluster: Obj;
  /** The rendered workers' `files:` (registry_mirrors), which kaas does not carry into a class. */
  nodeFiles?: unknown[];
}

/** The wanted values out of kaas's rendered objects. */
export function wantedFromRender(objects: KubeObject[]): TopologyWanted {
  const of = (kind: string) => objects.find((o) => o.kind === kind);
  const kcp = of('KubeadmControlPlane');
  const md = of('MachineDeployment');
  const cpName = str(kcp, ['spec', 'machineTemplate', 'infrastructureRef', 'name']) ?? str(kcp, ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'name']);
  const mdName = str(md, ['spec', 'template', 'spec', 'infrastructureRef', 'name']);
  const osmt = (n: string | undefined) => (dig(objects.find((o) => o.kind === 'OpenStackMachineTemplate' && o.metadata.name === n), ['spec', 'template', 'spec']) as Obj | undefined) ?? {};
  return {
    version: str(kcp, ['spec', 'version']) ?? '',
    controlPlaneReplicas: Number(dig(kcp, ['spec', 'replicas'])),
    workerReplicas: Number(dig(md, ['spec', 'replicas'])),
    controlPlaneMachine: osmt(cpName),
    workerMachine: osmt(mdName),
    openStackCluster: (dig(of('OpenStackCluster'), ['spec']) as Obj | undefined) ?? {},
    nodeFiles: (dig(of('KubeadmConfigTemplate'), ['spec', 'template', 'spec', 'files']) as unknown[] | undefined) ?? [],
  };
}

/**
 * The machine-template fields kaas's settings decide (others belong to the class's author): flavor
 * (controller_flavor / worker_flavor), image (kubernetes_version / image), rootVolume (*_root_disk).
 */
const MACHINE_FIELDS = ['flavor', 'image', 'rootVolume'] as const;

/**
 * The next generation's name of a template: a kaas suffix appended (`…-genw01` → `…-genw01-kaas-gen02`)
 * or, on a name kaas made, its counter bumped (`…-kaas-gen02` → `…-kaas-gen03`); never a name that
 * exists. Never the class author's own counter: bumping the trailing digits of `…-v2` would make
 * `…-v3`, the name of a later Cluster Stacks release's template (review 2026-11-27 n11).
 */
export function nextGeneration(name: string, taken: string[]): string {
  const used = new Set(taken);
  const m = /^(.*)-kaas-gen(\d+)$/.exec(name);
  const base = m ? m[1] : name;
  const make = (n: number) => `${base}-kaas-gen${String(n).padStart(2, '0')}`;
  let n = m ? Number(m[2]) + 1 : 2;
  while (used.has(make(n))) n++;
  return make(n);
}

/** CAPO's ImageParam selects an image by exactly one of these (v0.14.7 OpenStackMachineTemplate CRD: image has maxProperties 1). */
const IMAGE_SELECTORS = ['id', 'filter', 'imageRef'];
const plain = (x: unknown): x is Obj => typeof x === 'object' && x !== null && !Array.isArray(x);
const deepMerge = (live: unknown, wanted: unknown): unknown =>
  plain(live) && plain(wanted)
    ? { ...live, ...Object.fromEntries(Object.entries(wanted).map(([k, v]) => [k, deepMerge(live[k], v)])) }
    : structuredClone(wanted);

/**
 * A machine field of a new template generation: kaas's sub-fields merged into the live field, so that
 * what the class's author set beside them stays (rootVolume's type and availabilityZone, an image
 * filter's tags); an image selected another way than kaas selects it (by id where kaas filters by
 * name) is replaced, as CAPO takes one selector only (review 2026-11-27 n6). Pure.
 */
export function mergeMachineField(field: string, live: unknown, wanted: unknown): unknown {
  if (!plain(live) || !plain(wanted)) return structuredClone(wanted);
  const base = field === 'image' ? Object.fromEntries(Object.entries(live).filter(([k]) => !IMAGE_SELECTORS.includes(k) || k in wanted)) : live;
  return deepMerge(base, wanted);
}

/**
 * Whether an OpenStackCluster(Template) spec asks for a kube-API load balancer: CAPO's v1beta1 CRD defaults
 * `enabled` to true where `apiServerLoadBalancer` is given.
 */
export function hasApiLb(spec: unknown): boolean {
  const lb = dig(spec, ['apiServerLoadBalancer']) as Obj | undefined;
  return lb !== undefined && lb.enabled !== false;
}

/** The plan for a topology cluster: ConvergePlan plus the live names the waits follow. */
export interface TopologyPlan extends ConvergePlan {
  names: { controlPlane: string; machineDeployment: string };
  /** The live topology version (what the pin compares against). */
  liveVersion: string;
}

/** Inputs of planTopology (pure). */
export interface TopologyInput {
  live: LiveTopology;
  wanted: TopologyWanted;
  /** KubeadmControlPlane status.version, for the upgrade wait (undefined before the first machine). */
  controlPlaneVersion?: string;
  /**
   * The live kube-API load balancer of the topology's OpenStackCluster (its spec provider, its id and
   * the provider Octavia reports): allowedCIDRs are only enforced where that provider has VIP ACLs.
   */
  apiLb?: LiveApiLb;
  /**
   * Whether the topology's live OpenStackCluster has a kube-API load balancer (spec.apiServerLoadBalancer.enabled):
   * what the class's patches made of its template (the Cluster Stacks template says `enabled: false` and a patch
   * turns it on). Undefined before the topology controller made the OpenStackCluster: the template decides.
   */
  apiLbEnabled?: boolean;
}

const stripServer = (o: Item): Item => {
  const { name, namespace, labels, annotations } = o.metadata;
  const keep = Object.fromEntries(Object.entries(annotations ?? {}).filter(([k]) => k !== 'kubectl.kubernetes.io/last-applied-configuration'));
  return { apiVersion: o.apiVersion, kind: o.kind, metadata: { name, namespace, ...(labels ? { labels } : {}), ...(Object.keys(keep).length ? { annotations: keep } : {}) }, spec: o.spec };
};

/** Decides what to change on a topology cluster; refuses what would change more than this cluster, or what CAPI refuses. */
export function planTopology(i: TopologyInput): Decision<TopologyPlan> {
  const { live, wanted } = i;
  const name = live.cluster.metadata.name;
  const ns = live.namespace;
  const reasons: string[] = [`Cluster ${ns}/${name} is made from ClusterClass ${live.classNamespace}/${live.className}: kaas changes spec.topology and the class's templates, never the objects the topology controller owns`];
  const refusals: Refusal[] = [];
  if (!live.clusterClass) {
    return refused({ message: `Cluster ${ns}/${name} refers to ClusterClass ${live.classNamespace}/${live.className}, which does not exist`, hint: `kubectl get clusterclass -n ${live.classNamespace}; restore the class (the topology controller cannot reconcile the cluster without it)` });
  }
  const pools = topologyPools(live.cluster);
  if (pools.length !== 1) {
    refusals.push({
      message: `Cluster ${ns}/${name} has ${pools.length} worker pools (${pools.map((p) => p.name).join(', ') || 'none'}); kaas's settings describe exactly one (worker_count, worker_flavor)`,
      hint: `change the pools with kubectl edit cluster ${name} -n ${ns} (spec.topology.workers.machineDeployments)`,
    });
  }
  // The class's KubeadmConfigTemplate / KubeadmControlPlaneTemplate belong to its author (the SCS
  // template got its hosts.toml files from containerd_registry_files there): say so, never drop it silently.
  if (wanted.nodeFiles?.length) {
    reasons.push(`warning: registry_mirrors is not applied to Cluster ${ns}/${name}: it is made from ClusterClass ${live.className}, whose KubeadmConfigTemplate and KubeadmControlPlaneTemplate kaas does not change; the nodes keep the class's files (add /etc/containerd/certs.d/<registry>/hosts.toml to the class's templates' files: to change them)`);
  }
  if (wanted.controlPlaneMachine.serverGroup !== undefined || wanted.workerMachine.serverGroup !== undefined) {
    reasons.push(`warning: anti_affinity is not applied to Cluster ${ns}/${name}: it is made from ClusterClass ${live.className}, whose machine templates decide placement; kaas creates no server groups for it (give the class's OpenStackMachineTemplates a serverGroup to spread the machines)`);
  }
  const diffs: ObjectDiff[] = [];
  const objects: KubeObject[] = [];

  // The Cluster: version and replicas.
  const liveVersion = str(live.cluster, ['spec', 'topology', 'version']) ?? '';
  const clusterFields: FieldChange[] = [];
  let upgrade: ConvergePlan['upgrade'];
  if (liveVersion !== wanted.version) {
    const v = classifyVersion(`Cluster ${name} spec.topology.version`, liveVersion, wanted.version);
    if (!v.ok) refusals.push(...v.refusals);
    // An upgrade still rolling (topology v1.34, control plane on v1.33) finishes before the next minor.
    const running = i.controlPlaneVersion;
    const fromRunning = v.ok && running && running !== liveVersion ? classifyVersion(`Cluster ${name} (its control plane runs ${running})`, running, wanted.version) : undefined;
    if (fromRunning && !fromRunning.ok) {
      refusals.push(...fromRunning.refusals.map((r) => ({ ...r, hint: `the upgrade to ${liveVersion} is still rolling: run create-cluster with kubernetes_version=${liveVersion} until it finishes, then with kubernetes_version=${wanted.version}` })));
    }
    const allowed = dig(live.clusterClass, ['spec', 'kubernetesVersions']) as string[] | undefined;
    if (allowed?.length && !allowed.includes(wanted.version)) {
      refusals.push({ message: `ClusterClass ${live.className} allows Kubernetes ${allowed.join(', ')}, not ${wanted.version}`, hint: `set kubernetes_version to one of ${allowed.join(', ')}, or add ${wanted.version} to the class's spec.kubernetesVersions` });
    }
    clusterFields.push({ path: 'spec.topology.version', live: liveVersion, wanted: wanted.version });
    upgrade = { from: i.controlPlaneVersion ?? liveVersion, to: wanted.version };
  }
  const cpReplicas = dig(live.cluster, ['spec', 'topology', 'controlPlane', 'replicas']);
  if (cpReplicas !== wanted.controlPlaneReplicas) clusterFields.push({ path: 'spec.topology.controlPlane.replicas', live: cpReplicas, wanted: wanted.controlPlaneReplicas });
  const pool = pools[0];
  // A field the class patches from a variable goes through that variable, never a template
  // generation the patch would overwrite (class-routes.ts; review 2026-11-27 N2).
  const routes = topologyRoutes(live, wanted);
  refusals.push(...routes.refusals);
  reasons.push(...routes.notes);
  clusterFields.push(...routes.changes);
  if (pool && pool.replicas !== wanted.workerReplicas) clusterFields.push({ path: `spec.topology.workers.machineDeployments[${pool.name}].replicas`, live: pool.replicas, wanted: wanted.workerReplicas });

  // The class's templates: a new generation where a setting differs.
  const repoints: { t: ClassTemplate; to: string; fields: FieldChange[] }[] = [];
  // References in a version CAPO no longer serves (v1alpha7 of the SCS template): Cluster API cannot
  // reconcile the class until they name v1beta1 (the same objects; RefVersionsUpToDate).
  const restamps: { t: ClassTemplate; to: string; fields: FieldChange[] }[] = [];
  const taken = [...live.existingTemplates];
  for (const t of live.templates) {
    if (!t.live) {
      refusals.push({ message: `ClusterClass ${live.className} refers to ${t.kind} ${t.name} (${t.role}), which does not exist in namespace ${live.classNamespace}`, hint: `kubectl get ${t.kind.toLowerCase()} -n ${live.classNamespace}; restore it or repoint the class` });
      continue;
    }
    const spec = dig(t.live, ['spec', 'template', 'spec']) as Obj;
    let fields: FieldChange[] = [];
    if (t.kind === 'OpenStackMachineTemplate') {
      const want = t.role === 'control-plane machines' ? wanted.controlPlaneMachine : wanted.workerMachine;
      // A field reports once, whole, however many of its parts differ.
      for (const f of MACHINE_FIELDS) {
        if (routes.viaVariable.has(`${t.name} /spec/template/spec/${f}`)) continue;
        if (want[f] !== undefined && changedFields(spec[f], want[f]).length) fields.push({ path: `spec.template.spec.${f}`, live: spec[f], wanted: want[f] });
      }
    } else {
      // Only the allowed CIDRs (restrict_kubeapi / mgmt_host_cidrs), and only where the class has an API load balancer.
      const lb = dig(spec, ['apiServerLoadBalancer']) as Obj | undefined;
      const liveCidrs = (lb?.allowedCIDRs as string[] | undefined) ?? [];
      const wantCidrs = (dig(wanted.openStackCluster, ['apiServerLoadBalancer', 'allowedCIDRs']) as string[] | undefined) ?? [];
      const enabled = i.apiLbEnabled ?? hasApiLb(spec);
      if (enabled && wantCidrs.length) {
        // The check of the kaas-rendered path (plan/kubeapi-live.ts): CAPO skips allowedCIDRs without an
        // error where the live LB's provider has no VIP ACLs (ovn), and the kube-API would stay open.
        const api = kubeApiOnLiveCluster(name, i.apiLb ?? { specProvider: typeof lb?.provider === 'string' ? lb.provider : undefined }, wantCidrs);
        if (!api.ok) {
          refusals.push(...api.refusals);
          continue;
        }
        reasons.push(...api.reasons, ...api.warnings.map((w) => `warning: ${w}`));
      }
      if (routes.viaVariable.has(`${t.name} /spec/template/spec/apiServerLoadBalancer/allowedCIDRs`)) {
        // Through the class's variable: the template stays.
      } else if (enabled && JSON.stringify([...liveCidrs].sort()) !== JSON.stringify([...wantCidrs].sort())) {
        fields = [{ path: 'spec.template.spec.apiServerLoadBalancer.allowedCIDRs', live: liveCidrs.length ? liveCidrs : undefined, wanted: wantCidrs.length ? wantCidrs : undefined }];
      } else if (!enabled && wantCidrs.length) {
        reasons.push(`ClusterClass ${live.className} builds no kube-API load balancer: restrict_kubeapi has nothing to restrict there`);
      }
    }
    if (!fields.length) {
      diffs.push({ kind: t.kind, name: t.name, action: 'unchanged', fields: [], note: `${t.role} of ClusterClass ${live.className}` });
      // A template a patch reaches through a variable is never restamped: the change goes through the variable.
      if (t.apiVersion && t.apiVersion !== INFRA_V1BETA1 && !routes.patched.has(t)) {
        restamps.push({ t, to: t.name, fields: [{ path: `${t.refPath.filter((x) => typeof x === 'string').join('.')}.apiVersion`, live: t.apiVersion, wanted: INFRA_V1BETA1 }] });
      }
      continue;
    }
    const to = nextGeneration(t.name, taken);
    taken.push(to);
    repoints.push({ t, to, fields });
  }
  if (repoints.length && live.otherUsers.length) {
    refusals.push({
      message: `ClusterClass ${live.classNamespace}/${live.className} is used by ${live.otherUsers.join(', ')} too: a new ${repoints.map((r) => r.t.role).join(' and ')} template in the class would roll ${live.otherUsers.length === 1 ? 'that cluster' : 'those clusters'} as well`,
      hint: `give ${name} its own class (copy the class, then kubectl patch cluster ${name} -n ${ns} --type merge -p '{"spec":{"topology":{"classRef":{"name":"<copy>"}}}}'), or change the class for all of them yourself`,
    });
  }
  if (refusals.length) return refused(refusals, reasons);

  for (const r of repoints) {
    const base = stripServer(r.t.live!);
    const spec = structuredClone(dig(base, ['spec', 'template', 'spec']) as Obj);
    for (const f of r.fields) {
      const key = f.path.replace('spec.template.spec.', '').split('.');
      let at: Obj = spec;
      for (const k of key.slice(0, -1)) at = (at[k] ??= {}) as Obj;
      const last = key[key.length - 1];
      if (f.wanted === undefined) delete at[last];
      else at[last] = r.t.kind === 'OpenStackMachineTemplate' ? mergeMachineField(last, at[last], f.wanted) : structuredClone(f.wanted);
    }
    objects.push({
      ...base,
      metadata: {
        ...base.metadata,
        name: r.to,
        namespace: live.classNamespace,
        labels: { ...base.metadata.labels, 'cluster.x-k8s.io/cluster-name': name, 'app.kubernetes.io/managed-by': 'kaas' },
        annotations: { ...base.metadata.annotations, [PREVIOUS_GENERATION]: r.t.name },
      },
      spec: { ...(base.spec as Obj), template: { ...(dig(base, ['spec', 'template']) as Obj), spec } },
    } as KubeObject);
    diffs.push({ kind: r.t.kind, name: r.to, action: 'create', fields: r.fields, note: `new generation of ${r.t.name} (${r.t.role}; templates are immutable)` });
  }

  if (repoints.length || restamps.length) {
    // Server-side apply: kaas's whole intent every time, never a part. The class object carries every
    // template reference kaas manages (the unchanged ones as they are): a reference kaas applied once and
    // then left out would be removed by the apiserver as no longer wanted (found on the testbed: the
    // worker class went, and CAPI's webhook refused that).
    const spec: Obj = {};
    const fields: FieldChange[] = [];
    const changed = new Set([...repoints, ...restamps].map((r) => r.t));
    const same = live.templates.filter((t) => !changed.has(t)).map((t) => ({ t, to: t.name }));
    for (const r of [...repoints, ...restamps, ...same]) {
      let at: Obj = spec;
      const path = r.t.refPath;
      for (let idx = 0; idx < path.length; idx++) {
        const p = path[idx];
        if (typeof p === 'object') continue;
        const next = path[idx + 1];
        if (typeof next === 'object') {
          // A list entry keyed by class (listType map): the entry with its key, then the rest under it.
          const list = ((at[p] ??= []) as Obj[]);
          let entry = list.find((e) => e.class === next.class);
          if (!entry) list.push((entry = { class: next.class }));
          at = entry;
        } else if (idx === path.length - 1) {
          at[p] = { apiVersion: INFRA_V1BETA1, kind: r.t.kind, name: r.to };
        } else {
          at = (at[p] ??= {}) as Obj;
        }
      }
      if (!changed.has(r.t)) continue;
      const at2 = `spec.${path.map((p) => (typeof p === 'object' ? `[${p.class}]` : p)).join('.').replace('.[', '[')}`;
      if (r.to !== r.t.name) fields.push({ path: `${at2}.name`, live: r.t.name, wanted: r.to });
      if (r.t.apiVersion && r.t.apiVersion !== INFRA_V1BETA1) fields.push({ path: `${at2}.apiVersion`, live: r.t.apiVersion, wanted: INFRA_V1BETA1 });
    }
    objects.push({ apiVersion: CAPI_V1BETA2, kind: 'ClusterClass', metadata: { name: live.className, namespace: live.classNamespace }, spec } as KubeObject);
    diffs.push({ kind: 'ClusterClass', name: live.className, action: 'update', fields });
  } else {
    diffs.push({ kind: 'ClusterClass', name: live.className, action: 'unchanged', fields: [] });
  }

  if (clusterFields.length) {
    // The whole intent, as for the class: version, both replica counts, the pool by its key.
    const topology: Obj = { classRef: dig(live.cluster, ['spec', 'topology', 'classRef']), version: wanted.version, controlPlane: { replicas: wanted.controlPlaneReplicas } };
    if (pool) topology.workers = { machineDeployments: [{ class: pool.class, name: pool.name, replicas: wanted.workerReplicas }] };
    // The variables kaas sets, all of them each time (a listType=map keyed by name: server-side apply
    // keeps the ones other managers, the user, own).
    if (routes.variables.length) topology.variables = routes.variables;
    objects.push({ apiVersion: CAPI_V1BETA2, kind: 'Cluster', metadata: { name, namespace: ns }, spec: { topology } } as KubeObject);
    diffs.push({ kind: 'Cluster', name, action: 'update', fields: clusterFields });
    for (const f of clusterFields) reasons.push(`Cluster ${name}: ${f.path} ${show(f.live)} → ${show(f.wanted)} (the topology controller carries it to the control plane and the MachineDeployment)`);
  } else {
    diffs.push({ kind: 'Cluster', name, action: 'unchanged', fields: [], note: `topology ${liveVersion}, ${String(cpReplicas)} control-plane, ${String(pool?.replicas)} worker replicas` });
  }
  for (const r of restamps) reasons.push(`ClusterClass ${live.className} refers to ${r.t.kind} ${r.t.name} (${r.t.role}) as ${r.t.apiVersion}, which CAPO v0.14 does not serve: Cluster API cannot reconcile the class until the reference names ${INFRA_V1BETA1} (the same object); kaas repoints it`);
  for (const r of repoints) reasons.push(`${r.t.kind} ${r.t.name} (${r.t.role}): ${r.fields.map((f) => `${f.path.replace('spec.template.spec.', '')} ${show(f.live)} → ${show(f.wanted)}`).join('; ')}: new template ${r.to}, ClusterClass ${live.className} repointed`);

  const controlPlane = str(live.cluster, ['spec', 'controlPlaneRef', 'name']) ?? `${name}-control-plane`;
  const md = live.machineDeployments.find((m) => m.topologyName === pool?.name)?.name ?? pool?.name ?? '';
  return decided({ objects, diffs, replaced: [], upgrade, names: { controlPlane, machineDeployment: md }, liveVersion }, reasons);
}

/** The class and templates delete-cluster removes after a topology cluster: only a class no other cluster uses. */
export function classCleanup(live: LiveTopology, cluster: string): { delete: string[]; keep?: string } {
  if (!live.clusterClass) return { delete: [] };
  const managed = live.clusterClass.metadata.labels?.['app.kubernetes.io/managed-by'] === 'kaas';
  if (live.otherUsers.length) return { delete: [], keep: `ClusterClass ${live.className} stays: ${live.otherUsers.join(', ')} use it too` };
  if (live.className !== cluster && !managed) return { delete: [], keep: `ClusterClass ${live.className} stays: it is not this cluster's own class (named after the cluster, as the SCS template makes it); delete it yourself when no cluster needs it` };
  const refs = classRefs(live.clusterClass);
  // The generations kaas replaced (their chain back to the one the SCS scripts made) go too.
  const all = new Set(refs);
  for (const r of refs) {
    for (let at = r, prev = live.previousGeneration[at]; prev && !all.has(`${at.split('/')[0]}/${prev}`); at = `${at.split('/')[0]}/${prev}`, prev = live.previousGeneration[at]) {
      all.add(`${at.split('/')[0]}/${prev}`);
    }
  }
  return { delete: [`clusterclass.v1beta2.cluster.x-k8s.io/${live.className}`, ...all] };
}

/** Every template a ClusterClass refers to, as `kind/name` (lower-case kind; in the class's namespace). */
export function classRefs(cc: unknown): string[] {
  return [
    ['openstackclustertemplate', str(cc, ['spec', 'infrastructure', 'templateRef', 'name'])],
    ['kubeadmcontrolplanetemplate', str(cc, ['spec', 'controlPlane', 'templateRef', 'name'])],
    ['openstackmachinetemplate', str(cc, ['spec', 'controlPlane', 'machineInfrastructure', 'templateRef', 'name'])],
    ...(((dig(cc, ['spec', 'workers', 'machineDeployments']) as Obj[] | undefined) ?? []).flatMap((m) => [
      ['kubeadmconfigtemplate', str(m, ['bootstrap', 'templateRef', 'name'])],
      ['openstackmachinetemplate', str(m, ['infrastructure', 'templateRef', 'name'])],
    ])),
  ].filter((r): r is [string, string] => !!r[1]).map(([k, n]) => `${k}/${n}`);
}
