import { PlanError } from '../errors.js';
import { CAPI_CLUSTER, listAllNamespaces } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { orThrow } from '../plan/decision.js';
import { readLive } from './live.js';
import { clusterNamespace, clusterObjectNames } from './model.js';
import type { ClusterPlan } from './plan.js';
import { diffLines, planConvergence, type ConvergePlan } from './reconcile.js';
import { renderClusterObjects } from './render.js';

/**
 * The live half of planning a (re-)run: which namespace the cluster is in, what exists there,
 * and what applying the plan would change per object. Reads only; a change CAPO refuses is a
 * PlanError (exit 2) here, before anything is applied.
 */

/** The namespace holding a Cluster of this name, when exactly one does; refused when several do. */
export async function findClusterNamespace(mgmt: Kubectl, cluster: string): Promise<string | undefined> {
  const found = (await listAllNamespaces(mgmt, CAPI_CLUSTER)).filter((c) => c.metadata.name === cluster).map((c) => c.metadata.namespace).sort();
  if (found.length > 1) {
    throw new PlanError(`Cluster ${cluster} exists in several namespaces (${found.join(', ')})`, { hint: 'set the namespace setting to the one kaas manages' });
  }
  return found[0];
}

/** Creates the namespace when it is missing (as the SCS scripts' `kubectl create namespace`). */
export async function ensureNamespace(mgmt: Kubectl, namespace: string): Promise<boolean> {
  if ((await mgmt.getJson('namespace', namespace)) !== undefined) return false;
  await mgmt.run(['create', 'namespace', namespace], { timeoutMs: 60_000 });
  return true;
}

/** What the live cluster means for this run. */
export interface LiveConvergence {
  namespace: string;
  converge: ConvergePlan;
  lines: string[];
}

/**
 * Resolves the namespace, reads the live objects and plans the change per object. The plan's
 * objects are re-rendered when the namespace differs from the one planned offline.
 */
export async function liveConvergence(mgmt: Kubectl, plan: ClusterPlan, logger: Logger): Promise<LiveConvergence> {
  const d = plan.decisions;
  const found = await findClusterNamespace(mgmt, d.cluster);
  if (d.settings.namespace && found && found !== d.settings.namespace) {
    // Never build a second cluster of the same name beside the existing one.
    throw new PlanError(`Cluster ${d.cluster} exists in namespace ${found}, not in namespace ${d.settings.namespace} (setting namespace)`, { hint: `set namespace: ${found} to converge on it (kaas settings show shows where the setting comes from)` });
  }
  const namespace = clusterNamespace(d.settings.namespace, d.cluster, found);
  const objects = namespace === d.namespace ? plan.objects : renderClusterObjects({ ...d, namespace });
  const names = clusterObjectNames(d.cluster);
  const live = await readLive(mgmt, namespace, objects, d.cluster, names.controlPlane, names.machineDeployment);
  const ids = Object.fromEntries(plan.serverGroups.filter((g) => g.id).map((g) => [g.name, g.id!]));
  const decision = planConvergence(objects, live, d.cluster, names, ids);
  for (const r of decision.reasons) logger.info(`  ${r}`);
  const converge = orThrow(decision);
  const lines = diffLines(converge.diffs);
  logger.info(`cluster objects in namespace ${namespace}:`);
  for (const l of lines) logger.info(`  ${l}`);
  return { namespace, converge, lines };
}
