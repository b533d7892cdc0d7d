import path from 'node:path';
import { KaasError, UsageError } from '../errors.js';
import type { ProcessRunner } from '../exec/runner.js';
import type { KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { resolveCloudConfig, type CloudConfig } from '../openstack/cloud-config.js';
import { connect } from '../openstack/connection.js';
import { cloudNotReachable } from '../openstack/http-error.js';
import type { Refusal } from '../plan/decision.js';
import type { Capabilities } from '../openstack/types.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { MissingClusterMode } from '../settings/cluster-section.js';
import { loadSettings } from '../settings/load.js';
import type { ResolvedSettings, Settings } from '../settings/types.js';
import { openstackClusterCloud, type ClusterCloud } from './cloud.js';
import type { Clock } from './wait.js';

/**
 * What create-cluster and delete-cluster share: the options every run has, the injected adapters,
 * and the first steps (settings, cloud credentials, cloud connection).
 */

/** Options common to create-cluster and delete-cluster (from the command's flags). */
export interface ClusterRunOptions {
  cluster: string;
  env: string;
  settingsDir: string;
  sets: string[];
  /** --cloud */
  cloud?: string;
  /** --kubeconfig / --context: the management cluster (beat mgmt_kubeconfig / mgmt_context). */
  kubeconfig?: string;
  context?: string;
  dryRun: boolean;
  /** --new-cluster: the cluster need not have a clusters.<name> section (settings/cluster-section.ts). */
  newCluster?: boolean;
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
}

/** Adapters, injected so that tests replace the cloud, the tools and time. */
export interface ClusterDeps {
  logger: Logger;
  runner: ProcessRunner;
  clock: Clock;
  /** Connects to the cloud; default: Keystone + helper modules of lib/openstack. */
  connectCloud?: (cfg: CloudConfig, logger: Logger) => Promise<ClusterCloud>;
  /** The Service load-balancer plan from the capabilities (undefined = unknown); see lb-plan.ts. */
  resolveLbPlan: (settings: Settings, caps: Capabilities | undefined) => Promise<LoadBalancerPlan>;
  readFile: (p: string) => string;
}

export { checkClusterName } from '../settings/cluster-name.js';

/** The management cluster kaas talks to: the --kubeconfig/--context flags, else the settings. */
export function managementTarget(o: Pick<ClusterRunOptions, 'kubeconfig' | 'context' | 'cwd'>, s: Pick<Settings, 'mgmt_kubeconfig' | 'mgmt_context'>): KubeTarget {
  return {
    kubeconfig: o.kubeconfig ? path.resolve(o.cwd, o.kubeconfig) : s.mgmt_kubeconfig || undefined,
    context: o.context || s.mgmt_context || undefined,
  };
}

/** Loads the effective settings of the cluster; `missingCluster` says what a name without a section does (default: warn). */
export function clusterSettings(o: ClusterRunOptions, missingCluster: MissingClusterMode = 'warn'): ResolvedSettings {
  return loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster: o.cluster, missingCluster, environ: o.environ, sets: o.sets, flags: o.cloud ? { cloud: o.cloud } : undefined, cwd: o.cwd });
}

/**
 * The cloud's credentials, or (when `tolerant`) the reason they are unavailable. A real run never
 * takes the only clouds.yaml entry unasked; a dry run takes it and notes it on `logger`.
 */
export function cloudCredentials(o: ClusterRunOptions, s: Settings, tolerant: boolean, logger: Logger): { config?: CloudConfig; problem?: string } {
  try {
    return { config: resolveCloudConfig({ cloudFlag: o.cloud, cloudSetting: s.cloud, environ: o.environ, cwd: o.cwd, home: o.home, mutating: !o.dryRun, note: (m) => logger.info(m) }) };
  } catch (e) {
    if (!tolerant || !(e instanceof KaasError)) throw e;
    return { problem: e.message };
  }
}

/**
 * Connects to the cloud, or (when `tolerant`) returns why it could not: `unreachable` when the
 * cloud was configured but did not answer (a dry run lists it first among its blocking problems).
 */
export async function cloudConnection(deps: ClusterDeps, cfg: CloudConfig | undefined, problem: string | undefined, tolerant: boolean): Promise<{ cloud?: ClusterCloud; problem?: string; unreachable?: Refusal }> {
  if (!cfg) return { problem: problem ?? 'no cloud configured' };
  const open = deps.connectCloud ?? (async (c: CloudConfig, logger: Logger) => openstackClusterCloud(await connect(c, { logger })));
  try {
    return { cloud: await open(cfg, deps.logger) };
  } catch (e) {
    if (!tolerant) throw e;
    const unreachable = cloudNotReachable(cfg.name, e);
    return { problem: unreachable.message, unreachable };
  }
}

/** Looks a tool up on `environ.PATH` (no process started), as `which` does. */
export function whichOnPath(environ: NodeJS.ProcessEnv): (tool: string) => Promise<boolean> {
  return async (tool) => {
    const { accessSync, constants } = await import('node:fs');
    const path = await import('node:path');
    for (const dir of (environ.PATH ?? '').split(path.delimiter).filter(Boolean)) {
      try {
        accessSync(path.join(dir, tool), constants.X_OK);
        return true;
      } catch {
        // not in this directory
      }
    }
    return false;
  };
}

/** Install hints of the tools kaas runs. */
export const TOOL_HINTS: Record<string, string> = {
  kubectl: 'install kubectl: https://kubernetes.io/docs/tasks/tools/',
  clusterctl: 'install clusterctl: https://cluster-api.sigs.k8s.io/user/quick-start#install-clusterctl',
  cilium: 'install the cilium CLI: https://github.com/cilium/cilium-cli/releases',
  helm: 'install helm: https://helm.sh/docs/intro/install/',
};
