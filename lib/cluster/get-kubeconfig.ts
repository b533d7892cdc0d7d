import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ExecError, type ProcessRunner } from '../exec/runner.js';
import { workloadKubeconfigPath } from '../ingress/kubeconfig.js';
import { workloadKubeconfig } from '../kube/cluster-api.js';
import type { Logger } from '../log.js';
import { registerSecret } from '../redact.js';
import { writeSecretFile } from './kubeconfig.js';
import { clusterNamespace } from './model.js';
import { findClusterNamespace } from './live-plan.js';
import { createKubectl } from '../kube/kubectl.js';
import { checkClusterName, clusterSettings, managementTarget, type ClusterRunOptions } from './setup.js';

/**
 * `kaas get kubeconfig <cluster>`: the workload cluster's admin kubeconfig, from the file kaas (or
 * the SCS scripts, via workload_kubeconfig) recorded, else from the management cluster through
 * `clusterctl get kubeconfig` — the same call create-cluster makes. Printed, or written 0600.
 */

/** Flags of get kubeconfig. */
export interface GetKubeconfigOptions extends Omit<ClusterRunOptions, 'dryRun'> {
  /** Write here (mode 0600) instead of printing. */
  outputFile?: string;
}

/** The -o json|yaml shape (the kubeconfig itself is never part of it). */
export interface GetKubeconfigResult {
  cluster: string;
  /** Where the kubeconfig came from. */
  source: 'file' | 'management cluster';
  /** The recorded file that was read (source "file"). */
  from?: string;
  /** The file written with --output-file. */
  file?: string;
}

/** Fetches the kubeconfig; returns it with where it came from. Writes only --output-file. */
export async function getKubeconfig(o: GetKubeconfigOptions, deps: { runner: ProcessRunner; logger: Logger }): Promise<{ result: GetKubeconfigResult; kubeconfig: string }> {
  const cluster = checkClusterName(o.cluster);
  const resolved = clusterSettings({ ...o, dryRun: false });
  for (const w of resolved.warnings) deps.logger.warn(w);
  const s = resolved.values;
  const recorded = workloadKubeconfigPath(s, cluster, o.home, o.cwd);
  let kubeconfig: string;
  let result: GetKubeconfigResult;
  if (existsSync(recorded)) {
    kubeconfig = readFileSync(recorded, 'utf8');
    registerSecret(kubeconfig);
    result = { cluster, source: 'file', from: recorded };
    deps.logger.info(`kubeconfig of ${cluster} from ${recorded}`);
  } else {
    deps.logger.info(`${recorded} does not exist: asking the management cluster (clusterctl get kubeconfig ${cluster})`);
    const target = managementTarget(o, s);
    // Where the Cluster is (namespace per cluster, or default for clusters made before that); when
    // kubectl cannot list Clusters, clusterctl still gets its chance in the cluster's own namespace.
    // Two Clusters of that name in different namespaces stay an error: fetching either would be a guess.
    const found = s.namespace ? undefined : await findClusterNamespace(createKubectl(deps.runner, target), cluster).catch((e: unknown) => {
      if (e instanceof ExecError) return undefined;
      throw e;
    });
    const ns = clusterNamespace(s.namespace, cluster, found);
    kubeconfig = await workloadKubeconfig(deps.runner, target, cluster, ns);
    result = { cluster, source: 'management cluster' };
  }
  if (o.outputFile) {
    const file = path.resolve(o.cwd, o.outputFile);
    writeSecretFile(file, kubeconfig, { stream: true });
    result.file = file;
  }
  return { result, kubeconfig };
}
