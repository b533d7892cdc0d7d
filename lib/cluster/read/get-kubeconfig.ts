import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ExecError, type ProcessRunner } from '../../exec/runner.js';
import { localKey, workloadKubeconfigPath } from '../../state/local-state.js';
import { workloadKubeconfig } from '../../kube/cluster-api.js';
import type { Logger } from '../../log.js';
import { registerSecret } from '../../redact.js';
import { writeSecretFile } from '../../state/kubeconfig.js';
import { clusterNamespace } from '../../plan/cluster-model.js';
import { findClusterNamespace } from '../../state/cluster-namespace.js';
import { createKubectl } from '../../kube/kubectl.js';
import { checkClusterName, clusterSettings, managementTarget, type ClusterRunOptions } from '../setup.js';
import type { Settings } from '../../settings/types.js';

/**
 * `kaas get kubeconfig <cluster>`: the workload cluster's admin kubeconfig from the management
 * cluster (`clusterctl get kubeconfig`, the call create-cluster makes), which holds the current one:
 * Cluster API rotates the `<cluster>-kubeconfig` Secret's client certificate before it expires
 * (CAPI v1.12 controlplane/kubeadm/internal/controllers/helpers.go), so a file written earlier goes
 * stale. The recorded file (`~/.kube/kaas/env.<env>/<namespace>/<cluster>.yaml`, local-state.ts, or workload_kubeconfig) is refreshed when
 * it differs, and is the fallback, with a warning, when the management cluster cannot be reached.
 * Printed, or written 0600.
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
  /** The recorded file, rewritten because the management cluster's kubeconfig differed from it. */
  refreshed?: string;
  /** The file written with --output-file. */
  file?: string;
}

/** Fetches the kubeconfig; returns it with where it came from. Writes --output-file, and the recorded file when it is stale. */
export async function getKubeconfig(o: GetKubeconfigOptions, deps: { runner: ProcessRunner; logger: Logger }): Promise<{ result: GetKubeconfigResult; kubeconfig: string }> {
  const cluster = checkClusterName(o.cluster);
  const resolved = clusterSettings({ ...o, dryRun: false });
  for (const w of resolved.warnings) deps.logger.warn(w);
  const s = resolved.values;
  const recorded = workloadKubeconfigPath(s, localKey(o.home, o.env, s.namespace, cluster), o.cwd);
  let kubeconfig: string;
  let result: GetKubeconfigResult;
  const fromMgmt = await fromManagementCluster(o, s, cluster, deps).catch((e: unknown) => {
    // Unreachable, no clusterctl, no Secret: the recorded file is the fallback, if there is one.
    if (!(e instanceof ExecError) || !existsSync(recorded)) throw e;
    const why = e.message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
    deps.logger.warn(`the management cluster did not give the kubeconfig (${why}): using ${recorded}, which may be stale (Cluster API rotates the certificate in it)`);
    return undefined;
  });
  if (fromMgmt !== undefined) {
    kubeconfig = fromMgmt;
    result = { cluster, source: 'management cluster' };
    if (existsSync(recorded) && readFileSync(recorded, 'utf8') !== kubeconfig) {
      writeSecretFile(recorded, kubeconfig);
      result.refreshed = recorded;
      deps.logger.info(`refreshed ${recorded} from the management cluster`);
    }
  } else {
    kubeconfig = readFileSync(recorded, 'utf8');
    registerSecret(kubeconfig);
    result = { cluster, source: 'file', from: recorded };
    deps.logger.info(`kubeconfig of ${cluster} from ${recorded}`);
  }
  if (o.outputFile) {
    const file = path.resolve(o.cwd, o.outputFile);
    writeSecretFile(file, kubeconfig, { stream: true });
    result.file = file;
  }
  return { result, kubeconfig };
}

/** `clusterctl get kubeconfig` in the namespace where the Cluster is (kubectl finds it; clusterctl alone when kubectl cannot list). */
async function fromManagementCluster(o: GetKubeconfigOptions, s: Settings, cluster: string, deps: { runner: ProcessRunner; logger: Logger }): Promise<string> {
  deps.logger.info(`asking the management cluster (clusterctl get kubeconfig ${cluster})`);
  const target = managementTarget(o, s);
  // Two Clusters of that name in different namespaces stay an error: fetching either would be a guess.
  const found = s.namespace ? undefined : await findClusterNamespace(createKubectl(deps.runner, target), cluster).catch((e: unknown) => {
    if (e instanceof ExecError) return undefined;
    throw e;
  });
  return workloadKubeconfig(deps.runner, target, cluster, clusterNamespace(s.namespace, cluster, found));
}
