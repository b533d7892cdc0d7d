import { controlPlaneStatus, exists, machinesStatus, workloadKubeconfig } from '../../kube/cluster-api.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../../kube/kubectl.js';
import { installAddon, type AddonContext } from './addons.js';
import type { ClusterCloud } from '../cloud.js';
import { cloudConfigConsumers, cloudConfigHash, cloudConfigSecretData, waitForCloudConfigRollout } from '../../state/cloud-config-rollout.js';
import { mergeContexts, userKubeconfigFile, writeSecretFile } from '../../state/kubeconfig.js';
import { contextPrefix, localKey, workloadKubeconfigPath } from '../../state/local-state.js';
import { referencedTemplates } from '../live/live.js';
import { namespacesHolding } from '../../state/cluster-namespace.js';
import { ensureNamespace, liveConvergence } from '../live/plan.js';
import { applyInOrder, topologyApplyOrder } from '../topology/apply-order.js';
import { createNew, serverDryRun } from '../mgmt.js';
import { controlPlaneAt, machinesProgress } from './progress.js';
import { checkManagementCluster, gatherManagementFacts, type ManagementFacts } from '../preflight.js';
import { clusterObjectNames, occmClusterName } from '../../plan/cluster-model.js';
import { orThrow } from '../../plan/decision.js';
import { sharedServerGroups } from '../../plan/server-groups.js';
import type { ClusterPlan } from '../plan.js';
import type { KubeObject } from '../../render/documents.js';
import type { ObjectDiff } from '../live/reconcile.js';
import { managementTarget, type ClusterDeps, type ClusterRunOptions } from '../setup.js';
import { machineWaits } from '../timeouts.js';
import { waitFor } from '../wait.js';

/**
 * The apply half of create-cluster: management-cluster preflight, the server's dry-run of every
 * object (nothing is created when the apiserver or a webhook refuses one), server groups, converge
 * the Cluster API objects, wait (control plane initialized → kubeconfig secret → kubeconfig written;
 * during a Kubernetes upgrade, the control plane on the new version), cloud provider and CNI, wait
 * for the machines to be ready (nodes need the CNI for that), the other add-ons, the rollout of the
 * cloud.conf consumers, the ingress. Every step first looks at what exists, so an interrupted run resumes.
 */

/** Per-step timeouts in seconds, and the poll interval. */
export interface CreateTimeouts {
  controlPlaneSec: number;
  kubeconfigSec: number;
  machinesSec: number;
  /** A machine wait fails when its counts have not moved for this long. */
  stallSec: number;
  /** Rollout of each cloud-config consumer (OCCM, Cinder CSI). */
  rolloutSec: number;
  pollMs: number;
}

/** Defaults of the waits not derived from instance_create_timeout (see timeouts.ts). */
export const DEFAULT_TIMEOUTS: Omit<CreateTimeouts, 'controlPlaneSec' | 'machinesSec' | 'stallSec'> = { kubeconfigSec: 300, rolloutSec: 300, pollMs: 10_000 };

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
  /** The ingress use case (apply-ingress); undefined = not available, reported as skipped. `sets`: extra --set values. */
  applyIngress?: (o: { cluster: string; kubeconfig: string; sets?: string[] }) => Promise<string>;
  /** The gateway use case (apply-gateway); runs after the ingress (both may serve during a migration). */
  applyGateway?: (o: { cluster: string; kubeconfig: string; sets?: string[] }) => Promise<string>;
}

/** What the plan stage hands over. */
export interface ApplyInput {
  plan: ClusterPlan;
  cloud: ClusterCloud;
  addonCtx: AddonContext;
  ingressDeploy: boolean;
  gatewayDeploy?: boolean;
  tools: Record<string, boolean>;
  /** The provider pin (plan/provider-pin.ts): --set values for the edge steps, and edge Services to re-create first. */
  edge?: { sets: string[]; recreate?: (workload: Kubectl) => Promise<string> };
  /** Renders the bundled add-ons once, before anything is applied (throws when a template fails). */
  renderAddons?: () => unknown;
  /** The management preflight's reads, already started (createCluster starts them once the cloud answered). */
  managementReads?: ManagementReads;
}

/** The management cluster's preflight reads under way, and the live read's list of Clusters once it went out. */
export interface ManagementReads {
  facts: Promise<ManagementFacts>;
  /** The namespaces holding a Cluster of the name; undefined when not asked (no Cluster API v1beta2 served). */
  holding(): Promise<string[]> | undefined;
}

/**
 * Starts the preflight's reads (read-only; nothing is looked at until the preflight step). Once the
 * management cluster answered and serves Cluster API v1beta2, the live read's list of Clusters goes
 * out beside the preflight's other reads. A failure surfaces where the promise is awaited, not before.
 */
export function readManagementCluster(mgmt: Kubectl, cluster: string): ManagementReads {
  let holding: Promise<string[]> | undefined;
  const facts = gatherManagementFacts(mgmt, {
    reached: (served) => {
      if (!served.includes('cluster.x-k8s.io/v1beta2')) return;
      holding = namespacesHolding(mgmt, cluster);
      holding.catch(() => undefined);
    },
  });
  facts.catch(() => undefined);
  return { facts, holding: () => holding };
}

/** The objects to apply: all but those the live plan classified as unchanged (kind and name). */
export function changedObjects(objects: KubeObject[], diffs: ObjectDiff[]): KubeObject[] {
  const unchanged = new Set(diffs.filter((d) => d.action === 'unchanged').map((d) => `${d.kind}/${d.name}`));
  return objects.filter((o) => !unchanged.has(`${o.kind}/${o.metadata.name}`));
}

/** Runs the apply half; returns the step times, the kubeconfig path and merged contexts. */
export async function applyCluster(o: ClusterRunOptions & { timeouts?: Partial<CreateTimeouts>; upgrade?: boolean; wait?: boolean; mergeKubeconfig?: boolean }, deps: ApplyDeps, p: ApplyInput) {
  const s = p.plan.decisions.settings;
  const waits = machineWaits(s.instance_create_timeout, { controllers: s.controller_count, workers: s.worker_count });
  const t: CreateTimeouts = { ...DEFAULT_TIMEOUTS, ...waits, ...o.timeouts };
  deps.logger.info(waits.reason);
  const cluster = p.plan.decisions.cluster;
  const names = clusterObjectNames(cluster);
  let ns = p.plan.decisions.namespace;
  const kubectlFor = kubectlFactory(deps);
  const mgmtTarget: KubeTarget = managementTarget(o, s);
  const mgmt = kubectlFor(mgmtTarget);
  const steps: StepTime[] = [];
  const timed = async (step: string, fn: () => Promise<string>) => {
    const t0 = deps.clock.now();
    const detail = await fn();
    steps.push({ step, seconds: Math.round((deps.clock.now() - t0) / 100) / 10, detail });
    deps.logger.info(`✓ ${step}: ${detail}`);
  };
  const wait = (title: string, timeoutSec: number, hint: string, probe: () => Promise<{ done: boolean; progress: string }>, stallSec?: number) =>
    waitFor({ title, timeoutSec, stallSec, intervalMs: t.pollMs, logger: deps.logger, clock: deps.clock, hint, probe });

  // The preflight's reads: started by createCluster while it planned (readManagementCluster), else now.
  const reads = p.managementReads ?? readManagementCluster(mgmt, cluster);
  await timed('management cluster', async () => {
    // The bundled add-ons are rendered while kubectl asks (a template that fails stops the run here, before any apply).
    p.renderAddons?.();
    return `CAPO serves ${(await checkManagementCluster(mgmt, p.plan.checks, reads.facts)).join(', ')}`;
  });

  // Read what exists and decide per object; a change CAPO refuses stops here, before any apply.
  const live = await liveConvergence(mgmt, p.plan, deps.logger, { upgrade: o.upgrade, loadBalancerProvider: (id) => p.cloud.loadBalancerProvider(id), readNamespace: true, holding: reads.holding() });
  ns = live.namespace;
  // A new cluster never joins server groups another cluster of its name already fills (nothing applied yet).
  if (!live.topology) {
    const isNew = live.converge.diffs.find((d) => d.kind === 'Cluster')?.action === 'create';
    orThrow(sharedServerGroups(p.plan.serverGroups, isNew, `${ns}/${cluster}`, s.prefix));
  }
  // The control plane and MachineDeployment the waits follow: the live ones (a ClusterClass cluster's, an adopted one's).
  names.controlPlane = live.names?.controlPlane ?? names.controlPlane;
  names.machineDeployment = live.names?.machineDeployment ?? names.machineDeployment;
  const addonCtx: AddonContext = { ...p.addonCtx, cluster: occmClusterName(ns, cluster) };

  // The namespace first (an empty one; the server's dry-run needs it), then the apiserver's own verdict
  // on every object, webhooks included, before anything else is created.
  const createdNs = await ensureNamespace(mgmt, ns, live.namespaceExists);
  await timed('server dry-run', async () => {
    // Nothing to apply (a ClusterClass cluster whose topology and class already match): nothing to ask.
    if (!live.converge.objects.length) return 'nothing to apply';
    await serverDryRun(mgmt, live.converge.objects, `cluster ${cluster}`);
    return `${live.converge.objects.length} objects accepted by the management cluster (kubectl apply --server-side --dry-run=server)`;
  });

  await timed('server groups', async () => {
    // A ClusterClass cluster's machines are placed by the class's templates, which kaas never gives a
    // server group (topology.ts MACHINE_FIELDS): groups made for it would sit unused until delete
    // (review 2026-11-27 n10); planTopology warns that anti_affinity is not applied there.
    if (live.topology) return 'none (a ClusterClass cluster: its class\'s machine templates decide placement)';
    const done: string[] = [];
    for (const g of p.plan.serverGroups) {
      if (g.action === 'create') await p.cloud.createServerGroup(g.name, g.policy);
      done.push(`${g.name} (${g.policy}, ${g.action === 'create' ? 'created' : 'exists'})`);
    }
    return done.join(', ') || 'none (anti_affinity is false)';
  });

  await timed('cluster objects', async () => {
    // Objects the live plan found unchanged (every field kaas sets as it is) are not applied again: a
    // re-run must not look like a change to CAPI (under v1.12 every server-side apply of an unchanged
    // v1beta1 Cluster or KubeadmControlPlane raised its generation; kaas applies v1beta2 now, and still
    // only what changed).
    const toApply = changedObjects(live.converge.objects, live.converge.diffs);
    if (!toApply.length) {
      deps.logger.info(`cluster ${cluster}: no changes (${live.converge.objects.length} objects up to date)`);
      return `unchanged in namespace ${ns}`;
    }
    // A ClusterClass cluster's upgrade: class and version applied under a pause (topology/apply-order.ts).
    // Objects none of which exists (a first create): the server's dry-run above saw them all, so they are
    // applied without converge's kubectl diff (which would print each whole and change nothing it decides).
    const allNew = !live.topology && toApply.every((x) => live.converge.diffs.some((d) => d.kind === x.kind && d.name === x.metadata.name && d.action === 'create'));
    const order = live.topology ? topologyApplyOrder(toApply, live.converge.diffs) : { steps: [{ what: '', objects: toApply }] };
    const r = allNew ? await createNew(mgmt, toApply, deps.logger, `cluster ${cluster}`) : await applyInOrder(mgmt, order, deps.logger, `cluster ${cluster}`, ns);
    const what = r.changed ? `${r.applied.length} objects applied` : 'unchanged';
    return `${what} in namespace ${ns}${createdNs ? ' (created)' : ''}`;
  });
  const key = localKey(o.home, o.env, s.namespace, cluster);
  const kubeconfig = workloadKubeconfigPath(s, key, o.cwd);
  if (o.wait === false) return { steps, kubeconfig, contexts: [] as string[], kubernetesVersion: live.kubernetesVersion, waited: false };

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

  let contexts: string[] = [];
  await timed('workload kubeconfig', async () => {
    const text = await workloadKubeconfig(deps.runner, mgmtTarget, cluster, ns);
    writeSecretFile(kubeconfig, text);
    // --no-merge-kubeconfig: the user's kubeconfig is left alone (the file above is all there is).
    if (o.mergeKubeconfig === false) return `${kubeconfig} (mode 0600); no context merged (--no-merge-kubeconfig)`;
    contexts = await mergeContexts(userKubeconfigFile(o.environ, o.home), text, contextPrefix(key));
    return `${kubeconfig} (mode 0600), context ${contexts.join(', ')} merged`;
  });

  const workload = kubectlFor({ kubeconfig });
  const target = { kubectl: workload, runner: deps.runner, kubeconfig, logger: deps.logger };
  const machineHint = `kubectl get machines -n ${ns} -l cluster.x-k8s.io/cluster-name=${cluster}; kubectl --kubeconfig ${kubeconfig} get nodes`;
  const upgrade = live.converge.upgrade;
  if (upgrade) {
    // Add-ons whose version follows the Kubernetes minor (OCCM, Cinder CSI, cilium) must not run ahead
    // of the apiserver: they are applied only once the control plane reports the new version.
    await timed(`control plane ${upgrade.to}`, async () => {
      await wait(`control plane ${upgrade.to}`, t.machinesSec, machineHint, async () => controlPlaneAt(await controlPlaneStatus(mgmt, names.controlPlane, ns), upgrade.to), t.stallSec);
      return `all ${s.controller_count} control-plane machines run ${upgrade.to} (from ${upgrade.from})`;
    });
  }
  const early = p.plan.addons.steps.filter((a) => a.name === 'occm' || a.name === 'cilium' || a.name === 'calico');
  const late = p.plan.addons.steps.filter((a) => !early.includes(a));
  for (const a of early) await timed(`add-on ${a.name}`, () => installAddon(a, addonCtx, target));

  await timed('machines ready', async () => {
    await wait('machines ready', t.machinesSec, machineHint, async () => {
      const { cp, md } = await machinesStatus(mgmt, names.controlPlane, names.machineDeployment, ns);
      return machinesProgress(cp, md, upgrade?.to);
    }, t.stallSec);
    return `${s.controller_count} control-plane and ${s.worker_count} worker nodes ready`;
  });
  if (live.converge.replaced.length) {
    await timed('old machine templates', async () => {
      const used = await referencedTemplates(mgmt, ns, cluster);
      const gone = live.converge.replaced.filter((t) => !used.has(t.name));
      for (const t of gone) await mgmt.delete([`${t.kind.toLowerCase()}/${t.name}`], { namespace: ns });
      const kept = live.converge.replaced.filter((t) => used.has(t.name));
      return [gone.length ? `deleted ${gone.map((t) => t.name).join(', ')}` : '', kept.length ? `kept ${kept.map((t) => t.name).join(', ')} (machines still use them)` : ''].filter(Boolean).join('; ');
    });
  }

  for (const a of late) await timed(`add-on ${a.name}`, () => installAddon(a, addonCtx, target));

  // Nodes are ready (CNI up) only now, so the consumers can finish rolling; the ingress after this
  // step gets its load balancer from an OCCM that runs the current cloud.conf.
  const consumers = cloudConfigConsumers(p.plan.addons.steps);
  if (consumers.length) {
    await timed('cloud-config rollout', async () => {
      await waitForCloudConfigRollout(workload, consumers, t.rolloutSec);
      return `${consumers.map((c) => c.split('/')[1]).join(', ')} run cloud.conf ${cloudConfigHash(cloudConfigSecretData(p.addonCtx.cloudConf, p.addonCtx.cacert)).slice(0, 19)}…`;
    });
  }

  if (p.edge?.recreate) await timed('edge Services', () => p.edge!.recreate!(workload));
  if (p.ingressDeploy) {
    if (deps.applyIngress) await timed('ingress', () => deps.applyIngress!({ cluster, kubeconfig, sets: p.edge?.sets }));
    else {
      p.plan.checks.skipped('ingress', 'the apply-ingress use case is not available in this build; run kaas apply-ingress');
      deps.logger.warn(`ingress not applied: run kaas apply-ingress ${cluster} --kubeconfig ${kubeconfig}`);
    }
  }
  if (p.gatewayDeploy) {
    if (deps.applyGateway) await timed('gateway', () => deps.applyGateway!({ cluster, kubeconfig, sets: p.edge?.sets }));
    else deps.logger.warn(`gateway not applied: run kaas apply-gateway ${cluster} --kubeconfig ${kubeconfig}`);
  }
  return { steps, kubeconfig, contexts, kubernetesVersion: live.kubernetesVersion, waited: true };
}
