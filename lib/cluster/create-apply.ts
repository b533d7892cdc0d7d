import { controlPlaneStatus, exists, machineDeploymentStatus, rolledOut, workloadKubeconfig, type ReplicaStatus } from '../kube/cluster-api.js';
import { createKubectl, type KubeTarget, type Kubectl } from '../kube/kubectl.js';
import { installAddon, type AddonContext } from './addons.js';
import type { ClusterCloud } from './cloud.js';
import { mergeContexts, userKubeconfigFile, writeSecretFile } from './kubeconfig.js';
import { workloadKubeconfigPath } from '../ingress/kubeconfig.js';
import { checkManagementCluster, converge } from './mgmt.js';
import { CLUSTER_NAMESPACE, clusterObjectNames } from './model.js';
import type { ClusterPlan } from './plan.js';
import type { ClusterDeps, ClusterRunOptions } from './setup.js';
import { waitFor } from './wait.js';

/**
 * The apply half of create-cluster: management-cluster checks, server groups, converge the Cluster
 * API objects, wait (control plane initialized → kubeconfig secret → kubeconfig written), cloud
 * provider and CNI, wait for the machines to be ready (nodes need the CNI for that), the other
 * add-ons, the ingress. Every step first looks at what exists, so an interrupted run resumes.
 */

/** Per-step timeouts in seconds, and the poll interval. */
export interface CreateTimeouts {
  controlPlaneSec: number;
  kubeconfigSec: number;
  machinesSec: number;
  pollMs: number;
}

/** Defaults: a cloud needs minutes per server; the SCS scripts waited up to ~30 minutes. */
export const DEFAULT_TIMEOUTS: CreateTimeouts = { controlPlaneSec: 1800, kubeconfigSec: 300, machinesSec: 2400, pollMs: 10_000 };

/** Time one step took, for the summary. */
export interface StepTime {
  step: string;
  seconds: number;
  detail: string;
}

/** Adapters of the apply half (on top of the common ones). */
export interface ApplyDeps extends ClusterDeps {
  which(tool: string): Promise<boolean>;
  /** kubectl for a cluster; default: the kubectl adapter over deps.runner. */
  kubectlFor?: (t: KubeTarget) => Kubectl;
  /** The ingress use case (apply-ingress); undefined = not available, reported as skipped. */
  applyIngress?: (o: { cluster: string; kubeconfig: string }) => Promise<string>;
}

/** What the plan stage hands over. */
export interface ApplyInput {
  plan: ClusterPlan;
  cloud: ClusterCloud;
  addonCtx: AddonContext;
  ingressDeploy: boolean;
  tools: Record<string, boolean>;
}

/** Runs the apply half; returns the step times, the kubeconfig path and merged contexts. */
export async function applyCluster(o: ClusterRunOptions & { timeouts?: Partial<CreateTimeouts> }, deps: ApplyDeps, p: ApplyInput) {
  const t = { ...DEFAULT_TIMEOUTS, ...o.timeouts };
  const s = p.plan.decisions.settings;
  const cluster = p.plan.decisions.cluster;
  const names = clusterObjectNames(cluster);
  const ns = CLUSTER_NAMESPACE;
  const kubectlFor = deps.kubectlFor ?? ((target: KubeTarget) => createKubectl(deps.runner, target));
  const mgmtTarget: KubeTarget = { kubeconfig: s.mgmt_kubeconfig || undefined, context: s.mgmt_context || undefined };
  const mgmt = kubectlFor(mgmtTarget);
  const steps: StepTime[] = [];
  const timed = async (step: string, fn: () => Promise<string>) => {
    const t0 = deps.clock.now();
    const detail = await fn();
    steps.push({ step, seconds: Math.round((deps.clock.now() - t0) / 100) / 10, detail });
    deps.logger.info(`✓ ${step}: ${detail}`);
  };
  const wait = (title: string, timeoutSec: number, hint: string, probe: () => Promise<{ done: boolean; progress: string }>) =>
    waitFor({ title, timeoutSec, intervalMs: t.pollMs, logger: deps.logger, clock: deps.clock, hint, probe });

  await timed('management cluster', async () => `CAPO serves ${(await checkManagementCluster(mgmt, p.plan.checks)).join(', ')}`);

  await timed('server groups', async () => {
    const done: string[] = [];
    for (const g of p.plan.serverGroups) {
      if (g.action === 'create') await p.cloud.createServerGroup(g.name, g.policy);
      done.push(`${g.name} (${g.policy}, ${g.action === 'create' ? 'created' : 'exists'})`);
    }
    return done.join(', ') || 'none (anti_affinity is false)';
  });

  await timed('cluster objects', async () => {
    const r = await converge(mgmt, p.plan.objects, deps.logger, `cluster ${cluster}`);
    return r.changed ? `${r.applied.length} objects applied` : 'unchanged';
  });

  await timed('control plane initialized', async () => {
    await wait('control plane initialized', t.controlPlaneSec, `kubectl describe kubeadmcontrolplane ${names.controlPlane} -n ${ns}; clusterctl describe cluster ${cluster}`, async () => {
      const st = await controlPlaneStatus(mgmt, names.controlPlane, ns);
      return { done: st.initialized, progress: st.initialized ? 'initialized' : st.notes[0] ?? 'waiting for the first control-plane machine' };
    });
    return 'first control-plane node up';
  });

  await timed('kubeconfig secret', async () => {
    await wait('kubeconfig secret', t.kubeconfigSec, `kubectl get secret ${names.kubeconfigSecret} -n ${ns}`, async () => {
      const ok = await exists(mgmt, 'secret', names.kubeconfigSecret, ns);
      return { done: ok, progress: ok ? 'present' : 'not yet created' };
    });
    return `${names.kubeconfigSecret} present`;
  });

  const kubeconfig = workloadKubeconfigPath(s, cluster, o.home, o.cwd);
  let contexts: string[] = [];
  await timed('workload kubeconfig', async () => {
    const text = await workloadKubeconfig(deps.runner, mgmtTarget, cluster, ns);
    writeSecretFile(kubeconfig, text);
    contexts = await mergeContexts(userKubeconfigFile(o.environ, o.home), text);
    return `${kubeconfig} (mode 0600), context ${contexts.join(', ')} merged`;
  });

  const workload = kubectlFor({ kubeconfig });
  const target = { kubectl: workload, runner: deps.runner, kubeconfig, logger: deps.logger };
  const early = p.plan.addons.steps.filter((a) => a.name === 'occm' || a.name === 'cilium' || a.name === 'calico');
  const late = p.plan.addons.steps.filter((a) => !early.includes(a));
  for (const a of early) await timed(`add-on ${a.name}`, () => installAddon(a, p.addonCtx, target));

  await timed('machines ready', async () => {
    await wait('machines ready', t.machinesSec, `kubectl get machines -n ${ns} -l cluster.x-k8s.io/cluster-name=${cluster}; kubectl --kubeconfig ${kubeconfig} get nodes`, async () => {
      const cp = await controlPlaneStatus(mgmt, names.controlPlane, ns);
      const md = await machineDeploymentStatus(mgmt, names.machineDeployment, ns);
      const done = rolledOut(cp) && rolledOut(md);
      const old = (r: ReplicaStatus) => (r.currentReplicas > r.replicas || r.updatedReplicas < r.replicas ? ` (rolling out: ${r.updatedReplicas} updated)` : '');
      return { done, progress: `control plane ${cp.readyReplicas}/${cp.replicas}${old(cp)}, workers ${md.readyReplicas}/${md.replicas}${old(md)}` };
    });
    return `${s.controller_count} control-plane and ${s.worker_count} worker nodes ready`;
  });

  for (const a of late) await timed(`add-on ${a.name}`, () => installAddon(a, p.addonCtx, target));

  if (p.ingressDeploy) {
    if (deps.applyIngress) await timed('ingress', () => deps.applyIngress!({ cluster, kubeconfig }));
    else {
      p.plan.checks.skipped('ingress', 'the apply-ingress use case is not available in this build; run kaas apply-ingress');
      deps.logger.warn(`ingress not applied: run kaas apply-ingress ${cluster} --kubeconfig ${kubeconfig}`);
    }
  }
  return { steps, kubeconfig, contexts };
}
