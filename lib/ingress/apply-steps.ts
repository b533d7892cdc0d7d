import { existsSync } from 'node:fs';
import { CLOUD_CONFIG_HASH_ANNOTATION, cloudConfigDrift } from '../state/cloud-config-rollout.js';
import { OperationError, PlanError, UsageError } from '../errors.js';
import type { Kubectl } from '../kube/kubectl.js';
import { OCCM_DAEMONSET, OCCM_SECRET } from '../kube/occm.js';
import type { Logger } from '../log.js';
import type { LocalKey } from '../state/local-state.js';
import { recordApplied } from './applied.js';
import type { IngressCloud } from './cloud.js';
import { liveCloudConfProblems, type EdgeTraits } from '../checks/live-check.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { IngressDecision } from './decide.js';
import type { ClusterNames } from '../plan/cluster-model.js';
import { edgeExpectation, expectedLbName, type EdgeExpectation } from '../plan/edge-expectation.js';
import { decideRealIpCidr, hasLbAddress, serviceLbStatus, type ServiceLbStatus } from './real-ip.js';
import { ADMISSION_JOBS, type RenderedIngress } from './render.js';
import { CONTROLLER_DEPLOYMENT, CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../plan/edge-names.js';

/** Time limits of the waits, in seconds; `pollMs` between Service reads. */
export interface ApplyTimeouts {
  rolloutSec: number;
  addressSec: number;
  /** How long the post-apply verification re-reads before it reports a mismatch. */
  verifySec: number;
  pollMs: number;
}

/** Defaults: the controller image pull dominates the rollout; Octavia amphorae take minutes to boot. */
export const DEFAULT_APPLY_TIMEOUTS: ApplyTimeouts = { rolloutSec: 300, addressSec: 600, verifySec: 180, pollMs: 5000 };

/** What was applied and verified. */
export interface AppliedIngress {
  address: string;
  realIpCidr?: string;
  recordedAt: string;
}

/**
 * Reads OCCM's live cloud config and refuses (PlanError, nothing applied) when it contradicts the
 * edge plan — provider, lb-method, hostname for PROXY, create-monitor — unless `force`.
 */
export async function checkLiveOccm(kubectl: Kubectl, logger: Logger, d: { lb: LoadBalancerPlan; edge: EdgeTraits }, force: boolean): Promise<void> {
  const secret = await kubectl.readSecret(OCCM_SECRET.namespace, OCCM_SECRET.name);
  const text = secret?.[OCCM_SECRET.key];
  if (text === undefined) {
    logger.warn(`no OCCM cloud config (secret ${OCCM_SECRET.namespace}/${OCCM_SECRET.name}, key ${OCCM_SECRET.key}): cannot check it against the plan; without OCCM the Service gets no load balancer`);
    return;
  }
  const problems = liveCloudConfProblems(text, d.lb, d.edge);
  problems.push(...(await occmRunsSecret(kubectl, logger, secret!)));
  if (!problems.length) return;
  if (force) {
    problems.forEach((p) => logger.warn(`--force: ${p}`));
    return;
  }
  throw new PlanError('the live OCCM cloud config contradicts the plan; nothing applied', {
    problems,
    hint: 'fix OCCM\'s cloud-config secret (kaas create-cluster re-renders it and rolls OCCM) or the settings; --force applies anyway',
  });
}

/**
 * The Secret is only half of it: OCCM reads cloud.conf once at start. A pod template whose hash is
 * not the Secret's runs an older cloud.conf (e.g. still amphora after a switch to OVN); the LB of
 * the ingress would be built from that one.
 */
async function occmRunsSecret(kubectl: Kubectl, logger: Logger, secret: Record<string, string>): Promise<string[]> {
  const ds = await kubectl.getJson<{ spec?: { template?: { metadata?: { annotations?: Record<string, string> } } } }>('daemonset', OCCM_DAEMONSET, { namespace: OCCM_SECRET.namespace });
  const restart = `kubectl -n ${OCCM_SECRET.namespace} rollout restart daemonset/${OCCM_DAEMONSET}`;
  if (!ds) {
    logger.warn(`no DaemonSet ${OCCM_SECRET.namespace}/${OCCM_DAEMONSET}: cannot tell whether OCCM runs the cloud.conf of the Secret`);
    return [];
  }
  const drift = cloudConfigDrift(secret, ds.spec?.template?.metadata?.annotations);
  if (drift.state === 'unknown') {
    logger.warn(`OCCM was not deployed by kaas create-cluster (no ${CLOUD_CONFIG_HASH_ANNOTATION} on its pods): kaas cannot tell whether it runs the Secret's cloud.conf; after changing the Secret: ${restart}`);
    return [];
  }
  if (drift.state === 'current') return [];
  return [`OCCM runs an older cloud.conf than the Secret holds (pod template ${drift.running!.slice(0, 19)}…, Secret ${drift.wanted.slice(0, 19)}…): kaas create-cluster rolls it, or ${restart}`];
}

/** Polls a LoadBalancer Service until it shows an address (IP or hostname; never a terminating one's); OperationError with a hint on timeout. */
export async function waitForAddress(
  kubectl: Kubectl, logger: Logger, t: ApplyTimeouts, sleep: (ms: number) => Promise<void>,
  ref: { namespace: string; name: string } = { namespace: INGRESS_NAMESPACE, name: CONTROLLER_SERVICE },
): Promise<{ svc: unknown; st: ServiceLbStatus }> {
  const { namespace: ns, name } = ref;
  const step = logger.step(`waiting for the load balancer of ${ns}/${name}`);
  const deadline = Date.now() + t.addressSec * 1000;
  for (;;) {
    const svc = await kubectl.getJson<{ metadata?: { deletionTimestamp?: string } }>('service', name, { namespace: ns });
    const st = serviceLbStatus(svc, ref);
    // A terminating Service's address is the old load balancer's, going away (review 2026-11-27 N4).
    const terminating = svc?.metadata?.deletionTimestamp !== undefined;
    if (hasLbAddress(st) && !terminating) {
      step.succeed(`load balancer address ${st.hostname ?? st.ip}`);
      return { svc, st };
    }
    if (Date.now() >= deadline) {
      step.fail();
      throw new OperationError(`the Service ${ns}/${name} ${terminating ? 'is being deleted and was not made again' : 'got no load-balancer address'} within ${t.addressSec}s`, {
        hint: `kubectl describe service -n ${ns} ${name} (events), and the OCCM logs in kube-system`,
      });
    }
    step.update(`${terminating ? 'the Service is being deleted' : 'no address yet'} (${Math.ceil((deadline - Date.now()) / 1000)}s left)`);
    await sleep(t.pollMs);
  }
}

/**
 * The post-apply verification of an edge Service's LB (kaas doctor's verify-* checks and the
 * findings that explain a mismatch), shared by apply-ingress and apply-gateway.
 */
export async function verifyEdgeLb(
  x: EdgeExpectation, d: { lb: LoadBalancerPlan; edge: EdgeTraits; names: ClusterNames },
  deps: { kubectl: Kubectl; logger: Logger; cloud: () => IngressCloud }, t: ApplyTimeouts, sleep: (ms: number) => Promise<void>,
): Promise<void> {
  const cloud = deps.cloud();
  if (!cloud.loadBalancerSnapshot) throw new OperationError('cannot verify the load balancer: this cloud adapter cannot read Octavia', { hint: '--no-verify skips the verification' });
  const { verifyAppliedEdge } = await import('../checks/verify-apply.js');
  await verifyAppliedEdge(
    x,
    { cluster: x.cluster, names: d.names, stuckAfterSec: 600, lb: d.lb, edge: d.edge, needs: {} },
    { kubectl: deps.kubectl, logger: deps.logger, loadBalancer: (n) => cloud.loadBalancerSnapshot!(n), sleep, now: Date.now },
    t.verifySec, t.pollMs,
  );
}

/** The workload kubeconfig must exist before anything is asked of the cluster (UsageError naming where it comes from). */
export function requireKubeconfig(kubectl: Kubectl, cluster: string): void {
  const kc = kubectl.target.kubeconfig;
  if (kc && !existsSync(kc)) {
    throw new UsageError(`the workload kubeconfig ${kc} does not exist`, {
      hint: `kaas create-cluster ${cluster} writes it; or pass --kubeconfig FILE (and --context), or set workload_kubeconfig`,
    });
  }
}

/** Runs one step with a spinner line: succeed on return, fail (and rethrow) on error. */
export async function stepped<T>(logger: Logger, title: string, fn: () => Promise<T>): Promise<T> {
  const step = logger.step(title);
  try {
    const r = await fn();
    step.succeed();
    return r;
  } catch (e) {
    step.fail();
    throw e;
  }
}

/**
 * Applies a rendered ingress to the workload cluster and verifies it: kubeconfig present, live
 * OCCM config consistent with the plan (unless force), admission Jobs deleted (immutable; SCS
 * issue #151), server-side apply, record kept, controller rollout, LB address; with PROXY protocol
 * it reports the LB (Octavia) and why node_cidr stays the trusted real-IP range.
 */
export async function applyToCluster(
  o: { names: ClusterNames; key: LocalKey; force: boolean; nodeCidr: string; timeouts?: Partial<ApplyTimeouts>; verify?: boolean },
  deps: { kubectl: Kubectl; logger: Logger; cloud: () => IngressCloud; sleep?: (ms: number) => Promise<void> },
  d: IngressDecision,
  rendered: RenderedIngress,
): Promise<AppliedIngress> {
  const { kubectl, logger } = deps;
  const t = { ...DEFAULT_APPLY_TIMEOUTS, ...o.timeouts };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const { cluster } = o.names;
  requireKubeconfig(kubectl, cluster);
  await checkLiveOccm(kubectl, logger, { lb: d.lb, edge: d.ingress }, o.force);

  await stepped(logger, `applying ingress-nginx ${d.ingress.version!.version} (server-side, field manager kaas)`, async () => {
    await kubectl.delete(['job', ...ADMISSION_JOBS], { namespace: INGRESS_NAMESPACE });
    await kubectl.apply(rendered.yaml, { forceConflicts: true });
  });
  recordApplied(o.key, 'ingress-nginx', rendered.yaml);

  await stepped(logger, 'waiting for the ingress-nginx controller rollout', () =>
    kubectl.rolloutStatus(`deployment/${CONTROLLER_DEPLOYMENT}`, { namespace: INGRESS_NAMESPACE }, t.rolloutSec));
  const { st } = await waitForAddress(kubectl, logger, t, sleep);
  const x = edgeExpectation('ingress-nginx', o.names, { namespace: INGRESS_NAMESPACE, name: CONTROLLER_SERVICE }, { ...d.ingress, externalTrafficPolicy: d.ingress.externalTrafficPolicy! });
  if (o.verify) await verifyEdgeLb(x, { lb: d.lb, edge: d.ingress, names: o.names }, deps, t, sleep);
  const address = st.annotatedAddress ?? st.ip ?? st.hostname!;
  if (!d.ingress.proxyProtocol) return { address, recordedAt: new Date().toISOString() };

  let vip: string | undefined;
  try {
    vip = await deps.cloud().loadBalancerVip(expectedLbName(x));
  } catch (e) {
    logger.warn(`could not ask Octavia for the LB VIP: ${(e as Error).message}`);
  }
  const decision = decideRealIpCidr(d.ingress.trustedProxyCidrs ?? [o.nodeCidr], vip, st);
  logger.info(`proxy-real-ip-cidr: ${decision.reason}`);
  return { address, realIpCidr: decision.cidr, recordedAt: new Date().toISOString() };
}
