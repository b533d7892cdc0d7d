import type { Kubectl } from '../../kube/kubectl.js';
import type { KubeObject } from '../../render/documents.js';

/**
 * The live Cluster API objects of one cluster on the management cluster, read in the versions kaas
 * renders (Cluster API kinds v1beta2, CAPO kinds v1beta1), so live and wanted compare field by field;
 * a cluster created from an older v1beta1 render reads back converted to v1beta2. Names come from
 * the live references where they exist, so clusters created by the SCS scripts (other template
 * names) are found as they are.
 */

type Obj = Record<string, unknown> & { metadata?: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: Record<string, unknown> };

/** The versioned resource names kaas reads. */
export const RESOURCES = {
  Cluster: 'clusters.v1beta2.cluster.x-k8s.io',
  OpenStackCluster: 'openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io',
  KubeadmControlPlane: 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io',
  MachineDeployment: 'machinedeployments.v1beta2.cluster.x-k8s.io',
  OpenStackMachineTemplate: 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io',
  KubeadmConfigTemplate: 'kubeadmconfigtemplates.v1beta2.bootstrap.cluster.x-k8s.io',
  Secret: 'secret',
  Machine: 'machines.v1beta2.cluster.x-k8s.io',
  OpenStackMachine: 'openstackmachines.v1beta1.infrastructure.cluster.x-k8s.io',
} as const;

/** The annotation Cluster API puts on every object it clones from a template, naming the template. */
export const CLONED_FROM_NAME = 'cluster.x-k8s.io/cloned-from-name';

/** What exists of the cluster: each object by kind and name. */
export interface LiveCluster {
  namespace: string;
  /** `Kind/name` → object. */
  objects: Map<string, Obj>;
  /** Whether the namespace exists (read only when asked: readLive's `withNamespace`). */
  namespaceExists?: boolean;
}

/** Key of an object in LiveCluster.objects. */
export const liveKey = (kind: string, name: string) => `${kind}/${name}`;

/** The live object of a kind and name, if any. */
export function liveObject(l: LiveCluster, kind: string, name: string): Obj | undefined {
  return l.objects.get(liveKey(kind, name));
}

const refName = (o: unknown, path: string[]): string | undefined => {
  const v = path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), o);
  return typeof v === 'string' ? v : undefined;
};

/** The template and object names a live Cluster / KCP / MachineDeployment refers to. */
export function liveRefs(l: LiveCluster, cluster: string, kcpName: string, mdName: string) {
  const c = liveObject(l, 'Cluster', cluster);
  const kcp = refName(c, ['spec', 'controlPlaneRef', 'name']) ?? kcpName;
  const k = liveObject(l, 'KubeadmControlPlane', kcp);
  const md = liveObject(l, 'MachineDeployment', mdName);
  return {
    openStackCluster: refName(c, ['spec', 'infrastructureRef', 'name']) ?? cluster,
    controlPlane: kcp,
    controlPlaneTemplate: refName(k, ['spec', 'machineTemplate', 'spec', 'infrastructureRef', 'name']),
    workerTemplate: refName(md, ['spec', 'template', 'spec', 'infrastructureRef', 'name']),
    workerConfig: refName(md, ['spec', 'template', 'spec', 'bootstrap', 'configRef', 'name']),
    topology: c?.spec?.topology !== undefined,
  };
}

/** The kinds readLive lists in one kubectl run (all but Secret, read by name). */
const LISTED = ['Cluster', 'OpenStackCluster', 'KubeadmControlPlane', 'MachineDeployment', 'OpenStackMachineTemplate', 'KubeadmConfigTemplate'] as const;

/**
 * Reads the cluster's objects in two kubectl runs: every object of the Cluster API / CAPO kinds kaas
 * renders in the namespace (one `get a,b,c… -o json`), and the rendered Secrets by name (with
 * `withNamespace`, the Namespace itself in the same run: `get secret/a … namespace/ns`). Of those it
 * keeps what the cluster's objects are: the Cluster, then the objects by the names kaas renders or the
 * live references give (the Cluster's first: they name the OpenStackCluster and the control plane),
 * then the templates those reference. One kubectl per object before: 8 processes for a first create.
 */
export async function readLive(k: Kubectl, namespace: string, rendered: KubeObject[], cluster: string, kcpName: string, mdName: string, withNamespace = false): Promise<LiveCluster> {
  const l: LiveCluster = { namespace, objects: new Map() };
  const secretRefs = [...new Set(rendered.filter((o) => o.kind === 'Secret').map((o) => `${RESOURCES.Secret}/${o.metadata.name}`))];
  const [list, named] = await Promise.all([
    k.getJson<{ items: Obj[] }>(LISTED.map((kind) => RESOURCES[kind]).join(','), undefined, { namespace }),
    k.getObjects<Obj>([...secretRefs, ...(withNamespace ? [`namespace/${namespace}`] : [])], { namespace }),
  ]);
  if (withNamespace) l.namespaceExists = named.some((o) => o.kind === 'Namespace');
  const secrets = named.filter((o) => o.kind === 'Secret');
  const there = new Map([...(list?.items ?? []), ...secrets].map((o) => [liveKey(String(o.kind), o.metadata?.name ?? ''), o]));
  const read = (kind: keyof typeof RESOURCES, name: string | undefined) => {
    const o = name ? there.get(liveKey(kind, name)) : undefined;
    if (o) l.objects.set(liveKey(kind, name!), o);
  };
  read('Cluster', cluster);
  const first = liveRefs(l, cluster, kcpName, mdName);
  if (first.topology) return l;
  read('OpenStackCluster', first.openStackCluster);
  read('KubeadmControlPlane', first.controlPlane);
  read('MachineDeployment', mdName);
  const refs = liveRefs(l, cluster, kcpName, mdName);
  read('OpenStackMachineTemplate', refs.controlPlaneTemplate);
  read('OpenStackMachineTemplate', refs.workerTemplate);
  read('KubeadmConfigTemplate', refs.workerConfig);
  for (const o of rendered) {
    if (o.kind === 'Secret' || o.kind === 'OpenStackMachineTemplate' || o.kind === 'KubeadmConfigTemplate') read(o.kind, o.metadata.name);
  }
  return l;
}

/**
 * Machine templates still in use: a Machine refers to the OpenStackMachine cloned for it (never to
 * the template), and Cluster API marks each clone with the template it came from
 * (`cluster.x-k8s.io/cloned-from-name`). An old template stays until its last OpenStackMachine is gone.
 */
export async function referencedTemplates(k: Kubectl, namespace: string, cluster: string): Promise<Set<string>> {
  const list = await k.getJson<{ items?: Obj[] }>(RESOURCES.OpenStackMachine, undefined, { namespace, selector: `cluster.x-k8s.io/cluster-name=${cluster}` });
  return templatesInUse(list?.items ?? []);
}

/** The template names the cloned objects were made from (pure). */
export function templatesInUse(clones: { metadata?: { annotations?: Record<string, string> } }[]): Set<string> {
  return new Set(clones.map((o) => o.metadata?.annotations?.[CLONED_FROM_NAME]).filter((n): n is string => !!n));
}
