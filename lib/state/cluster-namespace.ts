import { CAPI_CLUSTER, listAllNamespaces } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import { decided, orThrow, refused, type Decision } from '../plan/decision.js';

/*
 * Where a cluster's live Cluster object is. A module of its own, apart from live-plan.ts: get-kubeconfig,
 * delete-cluster and every command reaching a workload cluster (workload-access.ts) ask it, and
 * live-plan.ts statically imports the cluster renderer with its 1.8 MB of compiled CRD validators,
 * which those commands would otherwise load at start (apply-ingress --dry-run took 1.5x its baseline).
 */

/**
 * Which namespace the live Cluster of this name is in, from the namespaces holding one (`found`):
 * undefined when none does. Refused when several do, and, with the namespace setting given, when
 * the one found is another: kaas never builds a second cluster of the same name beside it.
 */
export function liveClusterNamespace(cluster: string, found: string[], setting = ''): Decision<string | undefined> {
  const sorted = [...found].sort();
  if (sorted.length > 1) {
    return refused({ message: `Cluster ${cluster} exists in several namespaces (${sorted.join(', ')})`, hint: 'set the namespace setting to the one kaas manages' });
  }
  if (setting && sorted.length && sorted[0] !== setting) {
    return refused({
      message: `Cluster ${cluster} exists in namespace ${sorted[0]}, not in namespace ${setting} (setting namespace)`,
      // Not only "converge on it": when another environment's cluster of the same name is there (two settings files,
      // one management cluster), that advice would make this environment change the other's cluster.
      hint: `if it is this environment's cluster, set namespace: ${sorted[0]} to converge on it (kaas settings show shows where the setting comes from); `
        + `if it is another environment's cluster of the same name, give this one another name or another management cluster: kaas keeps one Cluster of a name per management cluster`,
    });
  }
  return decided(sorted[0]);
}

/** The namespaces holding a Cluster of this name (one list of Clusters in all namespaces). */
export const namespacesHolding = async (mgmt: Kubectl, cluster: string) =>
  (await listAllNamespaces(mgmt, CAPI_CLUSTER)).filter((c) => c.metadata.name === cluster).map((c) => c.metadata.namespace);

/** The namespace holding a Cluster of this name, when exactly one does; refused when several do. */
export async function findClusterNamespace(mgmt: Kubectl, cluster: string): Promise<string | undefined> {
  return orThrow(liveClusterNamespace(cluster, await namespacesHolding(mgmt, cluster)));
}
