import path from 'node:path';
import type { Settings } from '../settings/types.js';
import { clusterNamespace } from '../plan/cluster-model.js';

/**
 * Where kaas keeps a workload cluster's state on this machine: its kubeconfig (0600), the manifests
 * apply-ingress/apply-gateway applied (what delete-cluster removes), and the names of its entries
 * merged into the user's kubeconfig.
 *
 * The key is **environment, namespace, cluster**: `~/.kube/kaas/env.<env>/<namespace>/<cluster>.yaml`
 * and `…/<namespace>/<cluster>/applied/`. Why these three:
 * - they are known to every command from the settings alone, before (and without) any network call,
 *   so apply-ingress, doctor and check-lb find the same files create-cluster wrote, also while the
 *   management cluster is down; the namespace is `clusterNames`' (the `namespace` setting, else the
 *   cluster name), the one every edge command already uses;
 * - they are stable: a management identity taken from its kubeconfig (the server URL, hashed) changes
 *   when kind gives the cluster a new port, when a context is renamed or a file moved, and is not
 *   available at all where only the workload kubeconfig exists; the environment name changes only when
 *   the user renames the settings file;
 * - each environment file names its own management cluster (mgmt_kubeconfig / mgmt_context), so two
 *   management clusters are two environments. An environment pointed at another management cluster
 *   keeps its key, and the endpoint check (endpoint-check.ts) is what then refuses a kubeconfig that
 *   does not reach the Cluster being worked on.
 * `env.` marks the folder: a cluster name cannot contain a dot, so it never collides with the
 * `~/.kube/kaas/<cluster>.yaml` and `<cluster>/applied/` of kaas before this layout (legacy-state.ts).
 */
export interface LocalKey {
  home: string;
  env: string;
  /** The namespace of `clusterNames` (the setting, else the cluster name). */
  namespace: string;
  cluster: string;
}

/** The key of a cluster from its environment and settings (no lookup). */
export function localKey(home: string, env: string, namespaceSetting: string, cluster: string): LocalKey {
  return { home, env, namespace: clusterNamespace(namespaceSetting, cluster), cluster };
}

/** The folder of one environment and namespace: `~/.kube/kaas/env.<env>/<namespace>`. */
export function localStateDir(k: LocalKey): string {
  return path.join(k.home, '.kube', 'kaas', `env.${k.env}`, k.namespace);
}

/** The kubeconfig create-cluster writes (and get kubeconfig refreshes): `…/<namespace>/<cluster>.yaml`. */
export function recordedKubeconfigPath(k: LocalKey): string {
  return path.join(localStateDir(k), `${k.cluster}.yaml`);
}

/** The folder of the manifests apply-ingress/apply-gateway applied: `…/<namespace>/<cluster>/applied`. */
export function appliedDir(k: LocalKey): string {
  return path.join(localStateDir(k), k.cluster, 'applied');
}

/** A path as users write it: a leading `~` is their home, anything relative is from cwd. */
export function userPath(p: string, home: string, cwd: string): string {
  return path.resolve(cwd, p.replace(/^~(?=\/|$)/, home));
}

/**
 * The workload cluster's kubeconfig file: the `workload_kubeconfig` setting (`~` expanded, relative
 * to cwd), else the recorded file of the key. create-cluster writes to, and delete-cluster removes,
 * the same path.
 */
export function workloadKubeconfigPath(settings: Pick<Settings, 'workload_kubeconfig'>, k: LocalKey, cwd = process.cwd()): string {
  const setting = settings.workload_kubeconfig;
  return setting ? userPath(setting, k.home, cwd) : recordedKubeconfigPath(k);
}

/**
 * The prefix of the entries merged into the user's kubeconfig (`<env>/<namespace>/`): clusterctl
 * names them `<cluster>`, `<cluster>-admin` and `<cluster>-admin@<cluster>`, the same in every
 * environment, so unqualified they would replace each other. `/` is in neither an environment name
 * nor a namespace, so two keys never give the same prefix.
 */
export function contextPrefix(k: LocalKey): string {
  return `${k.env}/${k.namespace}/`;
}
