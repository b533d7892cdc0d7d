import path from 'node:path';
import type { KubeTarget } from '../kube/kubectl.js';
import type { Settings } from '../settings/types.js';

/** A path as users write it: a leading `~` is their home, anything relative is from cwd. */
function userPath(p: string, home: string, cwd: string): string {
  return path.resolve(cwd, p.replace(/^~(?=\/|$)/, home));
}

/**
 * The workload cluster's kubeconfig file: the `workload_kubeconfig` setting (`~` expanded, relative
 * to cwd), else `~/.kube/kaas/<cluster>.yaml` — the file create-cluster writes (mode 0600).
 * create-cluster writes to, and delete-cluster removes, the same path.
 */
export function workloadKubeconfigPath(settings: Pick<Settings, 'workload_kubeconfig'>, cluster: string, home: string, cwd = process.cwd()): string {
  const setting = settings.workload_kubeconfig;
  if (setting) return userPath(setting, home, cwd);
  return path.join(home, '.kube', 'kaas', `${cluster}.yaml`);
}

/**
 * Where apply-ingress talks to: `--kubeconfig` beats the setting and the default file; `--context`
 * is passed only when given (otherwise the kubeconfig's current context).
 */
export function ingressKubeTarget(
  flags: { kubeconfig?: string; context?: string },
  settings: Pick<Settings, 'workload_kubeconfig'>,
  cluster: string,
  home: string,
  cwd = process.cwd(),
): KubeTarget {
  const kubeconfig = flags.kubeconfig ? userPath(flags.kubeconfig, home, cwd) : workloadKubeconfigPath(settings, cluster, home, cwd);
  return flags.context ? { kubeconfig, context: flags.context } : { kubeconfig };
}
