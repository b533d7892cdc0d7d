import type { ClusterNames } from '../plan/cluster-model.js';
import type { LoadBalancer } from '../openstack/octavia.js';

/**
 * Which cloud resources belong to a cluster, by the names OCCM and CAPO give them:
 * - OCCM: Octavia LB `kube_service_<cluster>_<namespace>_<service>`; floating IP description
 *   "Floating IP for Kubernetes external service <namespace>/<service> from cluster <cluster>"
 *   (cloud-provider-openstack pkg/openstack/loadbalancer.go);
 * - CAPO: the kube-API LB `k8s-clusterapi-cluster-<namespace>-<cluster>-kubeapi`.
 * Cluster names, namespaces and Service names contain no "_", so the OCCM name splits cleanly.
 */

/** What an OCCM load-balancer name says. */
export interface OccmLbName {
  cluster: string;
  namespace: string;
  service: string;
}

/** Parses `kube_service_<cluster>_<namespace>_<service>`; undefined for other names. */
export function parseOccmLbName(name: string): OccmLbName | undefined {
  const m = /^kube_service_([^_]+)_([^_]+)_([^_]+)$/.exec(name);
  return m ? { cluster: m[1], namespace: m[2], service: m[3] } : undefined;
}

/** CAPO's kube-API LB name of a cluster. */
export function capoApiLbName(cluster: string, namespace = cluster): string {
  return `k8s-clusterapi-cluster-${namespace}-${cluster}-kubeapi`;
}

/**
 * True when the LB was made for the cluster by OCCM or CAPO (any cluster when `names` is
 * undefined). Exact names only: OCCM's LBs carry the cluster's OCCM cluster-name (namespace-prefixed
 * with a `namespace` setting), so another cluster whose name merely ends in `-<cluster>` is never
 * taken for it. CAPO's kube-API LB carries the cluster's namespace; with no `namespace` setting a
 * cluster may also sit in `default` (kaas before namespaces), so that name is accepted too.
 */
export function ownedBy(lb: Pick<LoadBalancer, 'name'>, names?: ClusterNames): boolean {
  const occm = parseOccmLbName(lb.name);
  if (occm) return names === undefined || occm.cluster === names.occmCluster;
  if (names === undefined) return /^k8s-clusterapi-cluster-.+-kubeapi$/.test(lb.name);
  const candidates = names.namespace === names.cluster ? [names.namespace, 'default'] : [names.namespace];
  return candidates.some((ns) => lb.name === capoApiLbName(names.cluster, ns));
}

/** The cluster named in an OCCM floating-IP description, with the Service; undefined for others. */
export function parseOccmFipDescription(description: string | undefined): { service: string; cluster: string } | undefined {
  const m = /^Floating IP for Kubernetes external service (\S+) from cluster (\S+)$/.exec(description ?? '');
  return m ? { service: m[1], cluster: m[2] } : undefined;
}

/** Octavia's timestamps are UTC without a zone ("2024-05-01T10:00:00"); undefined when absent or invalid. */
export function octaviaTime(t: unknown): number | undefined {
  if (typeof t !== 'string' || !t) return undefined;
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(t) ? t : `${t}Z`);
  return Number.isNaN(ms) ? undefined : ms;
}

/** The OCCM container of its DaemonSet, as kubectl shows it. */
export interface OccmContainer {
  name: string;
  args?: string[];
  command?: string[];
  env?: { name: string; value?: string; valueFrom?: unknown }[];
}

/** cloud-provider's default `--cluster-name` (k8s.io/cloud-provider options). */
export const OCCM_DEFAULT_CLUSTER_NAME = 'kubernetes';

/**
 * The `--cluster-name` OCCM runs with, from its DaemonSet's container: the flag in args (or command),
 * `$(VAR)` expanded from the container's literal env values as the kubelet does (`$$` escapes), or
 * cloud-provider's default when the flag is absent. Undefined when it cannot be known here: no OCCM
 * container, or a variable set from a Secret/ConfigMap (valueFrom).
 */
export function occmClusterNameOf(containers: OccmContainer[] | undefined): string | undefined {
  const c = containers?.find((x) => x.name === 'openstack-cloud-controller-manager') ?? containers?.find((x) => [...(x.command ?? []), ...(x.args ?? [])].some((a) => a.includes('cloud-controller-manager')));
  if (!c) return undefined;
  const argv = [...(c.command ?? []), ...(c.args ?? [])];
  let raw: string | undefined;
  argv.forEach((a, n) => {
    if (a.startsWith('--cluster-name=')) raw = a.slice('--cluster-name='.length);
    else if (a === '--cluster-name') raw = argv[n + 1];
  });
  if (raw === undefined) return OCCM_DEFAULT_CLUSTER_NAME;
  let unknown = false;
  const value = raw.replace(/\$\$|\$\(([A-Za-z_][A-Za-z0-9_.-]*)\)/g, (m, name: string | undefined) => {
    if (m === '$$') return '$';
    const e = c.env?.find((x) => x.name === name);
    if (e?.value !== undefined) return e.value;
    if (e) unknown = true; // valueFrom: resolved only inside the cluster
    return m; // an undefined variable stays as written (kubelet behaviour)
  });
  return unknown ? undefined : value;
}
