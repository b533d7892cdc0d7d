import { existsSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import type { ProcessRunner } from '../exec/runner.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import type { Settings } from '../settings/types.js';
import { localKey, userPath, workloadKubeconfigPath, type LocalKey } from '../state/local-state.js';
import { workloadAccess } from '../state/workload-access.js';

/** What the edge commands (apply-ingress, apply-gateway, migrate-ingress, check-lb, doctor) know of where they run. */
export interface EdgeRunContext {
  cluster: string;
  env: string;
  home: string;
  cwd: string;
  environ: NodeJS.ProcessEnv;
  /** --kubeconfig / --context: the workload cluster. */
  kubeconfig?: string;
  context?: string;
}

/** The key of the cluster's local state (local-state.ts) for an edge command. */
export function edgeKey(o: Pick<EdgeRunContext, 'home' | 'env' | 'cluster'>, s: Pick<Settings, 'namespace'>): LocalKey {
  return localKey(o.home, o.env, s.namespace, o.cluster);
}

/**
 * Where a read-only edge command (doctor, migrate-ingress without --apply) talks to: `--kubeconfig`
 * beats the setting and the recorded file; `--context` is passed only when given.
 */
export function ingressKubeTarget(o: EdgeRunContext, s: Pick<Settings, 'workload_kubeconfig' | 'namespace'>): KubeTarget {
  const kubeconfig = o.kubeconfig ? userPath(o.kubeconfig, o.home, o.cwd) : workloadKubeconfigPath(s, edgeKey(o, s), o.cwd);
  return o.context ? { kubeconfig, context: o.context } : { kubeconfig };
}

/**
 * The management cluster an edge command asks for the kubeconfig and the Cluster's endpoint: the
 * mgmt_kubeconfig / mgmt_context settings, else kubectl's default when there is one (KUBECONFIG, or
 * ~/.kube/config exists); undefined when nothing is configured (then no call is made at all).
 */
export function edgeManagementTarget(s: Pick<Settings, 'mgmt_kubeconfig' | 'mgmt_context'>, environ: NodeJS.ProcessEnv, home: string): KubeTarget | undefined {
  if (s.mgmt_kubeconfig || s.mgmt_context) return { kubeconfig: s.mgmt_kubeconfig || undefined, context: s.mgmt_context || undefined };
  if (environ.KUBECONFIG || existsSync(path.join(home, '.kube', 'config'))) return {};
  return undefined;
}

/**
 * Where an edge command that writes to the workload cluster (apply-ingress, apply-gateway,
 * migrate-ingress --apply, check-lb) talks to, checked against the Cluster when the management
 * cluster answers (cluster/workload-access.ts): `--kubeconfig` (checked), else the management
 * cluster's Secret (refreshing the recorded file), else the recorded file (checked). Throws
 * UsageError (exit 2) for a kubeconfig of another cluster and when there is none.
 */
export async function edgeKubeTarget(
  o: EdgeRunContext, s: Pick<Settings, 'workload_kubeconfig' | 'namespace' | 'mgmt_kubeconfig' | 'mgmt_context'>,
  deps: { runner: ProcessRunner; logger: Logger; kubectlFor?: (t: KubeTarget) => Kubectl },
): Promise<KubeTarget> {
  const key = edgeKey(o, s);
  const recorded = workloadKubeconfigPath(s, key, o.cwd);
  const user = o.kubeconfig ? userPath(o.kubeconfig, o.home, o.cwd) : undefined;
  if (user && !existsSync(user)) throw new UsageError(`the workload kubeconfig ${user} does not exist`, { hint: 'pass --kubeconfig with an existing file, or leave it out to use the recorded one' });
  const mgmtTarget = edgeManagementTarget(s, o.environ, o.home);
  const mgmt = mgmtTarget && kubectlFactory(deps)(mgmtTarget);
  const envFlag = `--env ${o.env}`;
  const access = await workloadAccess(
    { key, recorded, userKubeconfig: user, context: o.context, mgmt, namespaceSetting: s.namespace, refuse: true, envFlag },
    deps,
  );
  if (!access.target) {
    throw new UsageError(`no kubeconfig for cluster ${o.cluster} of environment ${o.env}: ${recorded} does not exist`, {
      hint: `kaas create-cluster ${o.cluster} ${envFlag} writes it; kaas get kubeconfig ${o.cluster} ${envFlag} --output-file ${recorded} fetches it; or pass --kubeconfig FILE`,
    });
  }
  if (o.context && !access.target.context) return { ...access.target, context: o.context };
  return access.target;
}
