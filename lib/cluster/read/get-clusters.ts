import type { ProcessRunner } from '../../exec/runner.js';
import { CAPI_CLUSTER, KCP_V1BETA2, listAllNamespaces, MD_V1BETA2 } from '../../kube/cluster-api.js';
import { createKubectl, type KubeTarget } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import { loadSettings, readEnvironmentFile } from '../../settings/load.js';
import { clusterRows, clusterTable, type ClusterRow, type ClusterSection, type LiveObject } from './cluster-list.js';
import { managementTarget } from '../setup.js';

/**
 * `kaas get clusters`: the clusters of an environment (the clusters: sections of <env>.yaml) with
 * their live state, read from each management cluster in one kubectl call: the Clusters,
 * KubeadmControlPlanes and MachineDeployments of every namespace (v1beta2, as kaas reads them).
 * Reads only.
 */

/** Flags of get clusters. */
export interface GetClustersOptions {
  env: string;
  settingsDir: string;
  sets: string[];
  /** --mgmt-kubeconfig / --context: beat each section's mgmt_kubeconfig / mgmt_context. */
  kubeconfig?: string;
  context?: string;
  /** -A: also the management cluster's Clusters the environment file has no section for. */
  all: boolean;
  environ: NodeJS.ProcessEnv;
  cwd: string;
}

/** The -o json|yaml shape. */
export interface GetClustersResult {
  env: string;
  file: string;
  clusters: ClusterRow[];
}

/** The resources read per management cluster (a List of all three kinds). */
const LIVE_KINDS = [CAPI_CLUSTER, KCP_V1BETA2, MD_V1BETA2].join(',');

/** Every Cluster, KubeadmControlPlane and MachineDeployment of a management cluster. */
function readLive(runner: ProcessRunner, target: KubeTarget): Promise<LiveObject[]> {
  return listAllNamespaces<LiveObject>(createKubectl(runner, target), LIVE_KINDS,
    'check the management cluster kubeconfig (--mgmt-kubeconfig, or mgmt_kubeconfig in the settings) and that it is reachable: kubectl cluster-info');
}

/** Lists the environment's clusters with their live phase and versions. */
export async function getClusters(o: GetClustersOptions, deps: { runner: ProcessRunner; logger: Logger }): Promise<{ data: GetClustersResult; text: string }> {
  const { file, parsed } = readEnvironmentFile({ settingsDir: o.settingsDir, env: o.env, environ: o.environ, cwd: o.cwd });
  // The sections by management cluster: each section may name its own (mgmt_kubeconfig / mgmt_context).
  const byTarget = new Map<string, { target: KubeTarget; sections: ClusterSection[] }>();
  const names = [...parsed.clusters.keys()];
  // Each section's load repeats the file's and the environment's warnings: said once.
  const warnings = new Set<string>();
  for (const cluster of names.length ? names : [undefined]) {
    const s = loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster, environ: o.environ, sets: o.sets, cwd: o.cwd });
    s.warnings.forEach((w) => warnings.add(w));
    const target = managementTarget(o, s.values);
    const key = JSON.stringify(target);
    const entry = byTarget.get(key) ?? { target, sections: [] };
    if (cluster) entry.sections.push({ cluster, namespaceSetting: s.values.namespace });
    byTarget.set(key, entry);
  }
  warnings.forEach((w) => deps.logger.warn(w));
  const rows: ClusterRow[] = [];
  for (const { target, sections } of byTarget.values()) {
    if (!sections.length && !o.all) continue;
    rows.push(...clusterRows(sections, await readLive(deps.runner, target), o.all));
  }
  const text = rows.length ? clusterTable(rows) : `no clusters: ${file} has no clusters: section${o.all ? ' and the management cluster has no Cluster' : ' (-A lists the management cluster\'s Clusters)'}`;
  return { data: { env: o.env, file, clusters: rows }, text };
}
