import type { Kubectl } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import { orThrow, type Decision } from '../../plan/decision.js';
import type { KubeObject } from '../../render/documents.js';
import type { LiveApiLb } from '../../plan/kubeapi-live.js';
import { defaultImageName } from '../../plan/machines.js';
import { pinKubernetesVersion } from '../../plan/version-pin.js';
import { liveClusterNamespace, namespacesHolding } from '../../state/cluster-namespace.js';
import { liveObject, liveRefs, readLive } from './live.js';
import { clusterNamespace, clusterObjectNames } from '../../plan/cluster-model.js';
import type { ClusterPlan } from '../plan.js';
import { diffLines, planConvergence, type ConvergePlan } from './reconcile.js';
import { renderClusterObjects } from '../render.js';
import { hasApiLb, planTopology, readTopology, wantedFromRender } from '../topology/topology.js';

/**
 * The live half of planning a (re-)run: which namespace the cluster is in, what exists there,
 * and what applying the plan would change per object. Reads only; a namespace conflict or a change
 * CAPO refuses is refused here (PlanError, exit 2), before anything is applied.
 */

/**
 * Creates the namespace when it is missing (as the SCS scripts' `kubectl create namespace`); `exists`:
 * what the live read already found (LiveConvergence.namespaceExists), else it is asked here.
 */
export async function ensureNamespace(mgmt: Kubectl, namespace: string, exists?: boolean): Promise<boolean> {
  if (exists ?? (await mgmt.getJson('namespace', namespace)) !== undefined) return false;
  await mgmt.run(['create', 'namespace', namespace], { timeoutMs: 60_000 });
  return true;
}

/** What the live cluster means for this run. */
export interface LiveConvergence {
  namespace: string;
  converge: ConvergePlan;
  lines: string[];
  /** The Kubernetes version rendered: the resolved one, or the live one a floating setting keeps. */
  kubernetesVersion: string;
  /** The live control plane and MachineDeployment the waits follow (a ClusterClass cluster's differ from kaas's names). */
  names?: { controlPlane: string; machineDeployment: string };
  /** The cluster is made from a ClusterClass (lib/cluster/topology/topology.ts). */
  topology?: boolean;
  /** Whether the namespace exists (with LiveOptions.readNamespace; a live Cluster's does). */
  namespaceExists?: boolean;
}

/** Options of a live convergence. */
export interface LiveOptions {
  /** `--upgrade`: a floating kubernetes_version (vX.Y.x) moves a live cluster to its newest patch. */
  upgrade?: boolean;
  /** The provider Octavia reports for a load balancer id (undefined: not found); absent = cloud not asked. */
  loadBalancerProvider?: (id: string) => Promise<string | undefined>;
  /** Also tell whether the namespace exists (read with the Secrets, in the same kubectl run, when no Cluster shows it). */
  readNamespace?: boolean;
  /** The namespaces holding a Cluster of this name, already asked (namespacesHolding) beside the preflight. */
  holding?: Promise<string[]>;
}

type Obj = Record<string, unknown>;
const dig = (o: unknown, path: string[]): unknown => path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Obj)[k] : undefined), o);

/** What is known of the live kube-API load balancer, asked of Octavia only when it matters. */
async function liveApiLb(osc: Obj | undefined, wanted: KubeObject | undefined, o: LiveOptions): Promise<Omit<LiveApiLb, 'specProvider'>> {
  if (!osc) return {};
  const restricted = ((dig(wanted, ['spec', 'apiServerLoadBalancer', 'allowedCIDRs']) as string[] | undefined) ?? []).length > 0;
  if (!restricted || dig(osc, ['spec', 'apiServerLoadBalancer', 'provider']) === 'amphora') return {};
  const id = dig(osc, ['status', 'apiServerLoadBalancer', 'id']);
  if (typeof id !== 'string' || !id) return { unknown: 'CAPO has not created it yet (no status.apiServerLoadBalancer.id)' };
  if (!o.loadBalancerProvider) return { id, unknown: 'the cloud is not asked' };
  const provider = await o.loadBalancerProvider(id);
  return provider ? { id, octaviaProvider: provider } : { id, unknown: `Octavia has no load balancer ${id}` };
}

/**
 * Resolves the namespace, reads the live objects and plans the change per object. The plan's
 * objects are re-rendered when the namespace differs from the one planned offline, and when a
 * floating kubernetes_version keeps the live cluster's version (lib/plan/version-pin.ts).
 */
export async function liveConvergence(mgmt: Kubectl, plan: ClusterPlan, logger: Logger, o: LiveOptions = {}): Promise<LiveConvergence> {
  const d = plan.decisions;
  const found = orThrow(liveClusterNamespace(d.cluster, await (o.holding ?? namespacesHolding(mgmt, d.cluster)), d.settings.namespace));
  const namespace = clusterNamespace(d.settings.namespace, d.cluster, found);
  let objects = namespace === d.namespace ? plan.objects : renderClusterObjects({ ...d, namespace });
  const names = clusterObjectNames(d.cluster);
  // A namespace holding the Cluster exists; otherwise it is read with the Secrets (one kubectl run).
  const askNamespace = (o.readNamespace ?? false) && found === undefined;
  let live = await readLive(mgmt, namespace, objects, d.cluster, names.controlPlane, names.machineDeployment, askNamespace);
  const namespaceExists = o.readNamespace ? found !== undefined || live.namespaceExists : undefined;
  const refs = liveRefs(live, d.cluster, names.controlPlane, names.machineDeployment);
  if (refs.topology) return { ...await topologyConvergence(mgmt, plan, namespace, logger, o), namespaceExists };
  const liveVersion = dig(liveObject(live, 'KubeadmControlPlane', refs.controlPlane), ['spec', 'version']);
  const pin = orThrow(andReport(pinKubernetesVersion({ setting: d.settings.kubernetes_version, resolved: d.image.kubernetesVersion, live: typeof liveVersion === 'string' ? liveVersion : undefined, upgrade: o.upgrade ?? false }), logger));
  if (pin !== d.image.kubernetesVersion) {
    objects = renderClusterObjects({ ...d, namespace, image: { kubernetesVersion: pin, image: defaultImageName(pin) } });
    live = await readLive(mgmt, namespace, objects, d.cluster, names.controlPlane, names.machineDeployment);
  }
  const ids = Object.fromEntries(plan.serverGroups.filter((g) => g.id).map((g) => [g.name, g.id!]));
  const apiLb = await liveApiLb(liveObject(live, 'OpenStackCluster', refs.openStackCluster), objects.find((x) => x.kind === 'OpenStackCluster'), o);
  const decision = planConvergence(objects, live, d.cluster, names, ids, apiLb);
  for (const r of decision.reasons) logger.info(`  ${r}`);
  const converge = orThrow(decision);
  const lines = diffLines(converge.diffs);
  logger.info(`cluster objects in namespace ${namespace}:`);
  for (const l of lines) logger.info(`  ${l}`);
  return { namespace, converge, lines, kubernetesVersion: pin, namespaceExists };
}

/** liveConvergence for a cluster made from a ClusterClass: spec.topology and the class's templates only. */
async function topologyConvergence(mgmt: Kubectl, plan: ClusterPlan, namespace: string, logger: Logger, o: LiveOptions): Promise<LiveConvergence> {
  const d = plan.decisions;
  const t = await readTopology(mgmt, namespace, d.cluster);
  const liveVersion = dig(t.cluster, ['spec', 'topology', 'version']);
  const pin = orThrow(andReport(pinKubernetesVersion({ setting: d.settings.kubernetes_version, resolved: d.image.kubernetesVersion, live: typeof liveVersion === 'string' ? liveVersion : undefined, upgrade: o.upgrade ?? false }), logger));
  const image = pin === d.image.kubernetesVersion ? d.image : { kubernetesVersion: pin, image: defaultImageName(pin) };
  const objects = renderClusterObjects({ ...d, namespace, image });
  const kcpName = dig(t.cluster, ['spec', 'controlPlaneRef', 'name']);
  const kcp = typeof kcpName === 'string' ? await mgmt.getJson(KCP_V1BETA2, kcpName, { namespace }) : undefined;
  const cpVersion = dig(kcp, ['status', 'version']);
  // The topology's OpenStackCluster: which provider its kube-API load balancer really has (restrict_kubeapi).
  const oscName = dig(t.cluster, ['spec', 'infrastructureRef', 'name']);
  const osc = typeof oscName === 'string' ? await mgmt.getJson<Obj>(OSC_RESOURCE, oscName, { namespace }) : undefined;
  const specProvider = dig(osc, ['spec', 'apiServerLoadBalancer', 'provider']);
  const apiLb = { ...await liveApiLb(osc, objects.find((x) => x.kind === 'OpenStackCluster'), o), specProvider: typeof specProvider === 'string' ? specProvider : undefined };
  const apiLbEnabled = osc ? hasApiLb(osc.spec) : undefined;
  const decision = planTopology({ live: t, wanted: wantedFromRender(objects), controlPlaneVersion: typeof cpVersion === 'string' ? cpVersion : undefined, apiLb, apiLbEnabled });
  for (const r of decision.reasons) logger.info(`  ${r}`);
  const converge = orThrow(decision);
  const lines = diffLines(converge.diffs);
  logger.info(`cluster objects in namespace ${namespace} (ClusterClass ${t.className}):`);
  for (const l of lines) logger.info(`  ${l}`);
  return { namespace, converge, lines, kubernetesVersion: pin, names: converge.names, topology: true };
}

const KCP_V1BETA2 = 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io';
const OSC_RESOURCE = 'openstackclusters.infrastructure.cluster.x-k8s.io';

function andReport<T>(d: Decision<T>, logger: Logger): Decision<T> {
  for (const r of d.reasons) logger.info(`  ${r}`);
  return d;
}
