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

/** True when the LB was made for `cluster` by OCCM or CAPO (any cluster when `cluster` is undefined). */
export function ownedBy(lb: Pick<LoadBalancer, 'name'>, cluster?: string): boolean {
  const occm = parseOccmLbName(lb.name);
  // OCCM's cluster-name is `<namespace>-<cluster>` when the namespace is neither the cluster nor `default` (lib/cluster/model.ts occmClusterName).
  if (occm) return cluster === undefined || occm.cluster === cluster || occm.cluster.endsWith(`-${cluster}`);
  // CAPO names by namespace: the cluster's own (kaas and SCS) or `default` (kaas before namespaces).
  return cluster === undefined ? /^k8s-clusterapi-cluster-.+-kubeapi$/.test(lb.name) : lb.name === capoApiLbName(cluster) || lb.name === capoApiLbName(cluster, 'default');
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
