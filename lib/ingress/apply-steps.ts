import { existsSync } from 'node:fs';
import { OperationError, PlanError, UsageError } from '../errors.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { recordApplied } from './applied.js';
import type { IngressCloud } from './cloud.js';
import { liveCloudConfProblems } from './live-check.js';
import type { IngressDecision } from './decide.js';
import { occmLoadBalancerName } from '../openstack/octavia.js';
import { decideRealIpCidr, hasLbAddress, serviceLbStatus, type ServiceLbStatus } from './real-ip.js';
import {
  ADMISSION_JOBS, CONTROLLER_DEPLOYMENT, CONTROLLER_SERVICE, INGRESS_NAMESPACE, type RenderedIngress,
} from './render.js';

/** Time limits of the waits, in seconds; `pollMs` between Service reads. */
export interface ApplyTimeouts {
  rolloutSec: number;
  addressSec: number;
  pollMs: number;
}

/** Defaults: the controller image pull dominates the rollout; Octavia amphorae take minutes to boot. */
export const DEFAULT_APPLY_TIMEOUTS: ApplyTimeouts = { rolloutSec: 300, addressSec: 600, pollMs: 5000 };

/** What was applied and verified. */
export interface AppliedIngress {
  address: string;
  realIpCidr?: string;
  recordedAt: string;
}

/** The OCCM cloud config kaas and create-cluster write (kube-system/cloud-config, key cloud.conf). */
export const OCCM_SECRET = { namespace: 'kube-system', name: 'cloud-config', key: 'cloud.conf' };

async function checkLiveOccm(kubectl: Kubectl, logger: Logger, d: IngressDecision, force: boolean): Promise<void> {
  const secret = await kubectl.readSecret(OCCM_SECRET.namespace, OCCM_SECRET.name);
  const text = secret?.[OCCM_SECRET.key];
  if (text === undefined) {
    logger.warn(`no OCCM cloud config (secret ${OCCM_SECRET.namespace}/${OCCM_SECRET.name}, key ${OCCM_SECRET.key}): cannot check it against the plan; without OCCM the Service gets no load balancer`);
    return;
  }
  const problems = liveCloudConfProblems(text, d.lb, d.ingress);
  if (!problems.length) return;
  if (force) {
    problems.forEach((p) => logger.warn(`--force: ${p}`));
    return;
  }
  throw new PlanError('the live OCCM cloud config contradicts the plan; nothing applied', {
    problems,
    hint: 'fix OCCM\'s cloud-config secret (kaas create-cluster re-renders it) or the settings; --force applies anyway',
  });
}

async function waitForAddress(kubectl: Kubectl, logger: Logger, t: ApplyTimeouts, sleep: (ms: number) => Promise<void>): Promise<{ svc: unknown; st: ServiceLbStatus }> {
  const step = logger.step(`waiting for the load balancer of ${INGRESS_NAMESPACE}/${CONTROLLER_SERVICE}`);
  const deadline = Date.now() + t.addressSec * 1000;
  for (;;) {
    const svc = await kubectl.getJson('service', CONTROLLER_SERVICE, { namespace: INGRESS_NAMESPACE });
    const st = serviceLbStatus(svc);
    if (hasLbAddress(st)) {
      step.succeed(`load balancer address ${st.hostname ?? st.ip}`);
      return { svc, st };
    }
    if (Date.now() >= deadline) {
      step.fail();
      throw new OperationError(`the Service ${INGRESS_NAMESPACE}/${CONTROLLER_SERVICE} got no load-balancer address within ${t.addressSec}s`, {
        hint: `kubectl describe service -n ${INGRESS_NAMESPACE} ${CONTROLLER_SERVICE} (events), and the OCCM logs in kube-system`,
      });
    }
    step.update(`no address yet (${Math.ceil((deadline - Date.now()) / 1000)}s left)`);
    await sleep(t.pollMs);
  }
}

/**
 * Applies a rendered ingress to the workload cluster and verifies it: kubeconfig present, live
 * OCCM config consistent with the plan (unless force), admission Jobs deleted (immutable; SCS
 * issue #151), server-side apply, record kept, controller rollout, LB address; with PROXY protocol
 * it reports the LB (Octavia) and why node_cidr stays the trusted real-IP range.
 */
export async function applyToCluster(
  o: { cluster: string; home: string; force: boolean; nodeCidr: string; timeouts?: Partial<ApplyTimeouts> },
  deps: { kubectl: Kubectl; logger: Logger; cloud: () => IngressCloud; sleep?: (ms: number) => Promise<void> },
  d: IngressDecision,
  rendered: RenderedIngress,
): Promise<AppliedIngress> {
  const { kubectl, logger } = deps;
  const t = { ...DEFAULT_APPLY_TIMEOUTS, ...o.timeouts };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const kc = kubectl.target.kubeconfig;
  if (kc && !existsSync(kc)) {
    throw new UsageError(`the workload kubeconfig ${kc} does not exist`, {
      hint: `kaas create-cluster ${o.cluster} writes it; or pass --kubeconfig FILE (and --context), or set workload_kubeconfig`,
    });
  }
  await checkLiveOccm(kubectl, logger, d, o.force);

  const apply = logger.step(`applying ingress-nginx ${d.ingress.version!.version} (server-side, field manager kaas)`);
  try {
    await kubectl.delete(['job', ...ADMISSION_JOBS], { namespace: INGRESS_NAMESPACE });
    await kubectl.apply(rendered.yaml, { forceConflicts: true });
    apply.succeed();
  } catch (e) {
    apply.fail();
    throw e;
  }
  recordApplied(o.home, o.cluster, 'ingress-nginx', rendered.yaml);

  const roll = logger.step('waiting for the ingress-nginx controller rollout');
  try {
    await kubectl.rolloutStatus(`deployment/${CONTROLLER_DEPLOYMENT}`, { namespace: INGRESS_NAMESPACE }, t.rolloutSec);
    roll.succeed();
  } catch (e) {
    roll.fail();
    throw e;
  }
  const { st } = await waitForAddress(kubectl, logger, t, sleep);
  const address = st.annotatedAddress ?? st.ip ?? st.hostname!;
  if (!d.ingress.proxyProtocol) return { address, recordedAt: new Date().toISOString() };

  let vip: string | undefined;
  try {
    vip = await deps.cloud().loadBalancerVip(occmLoadBalancerName(o.cluster, INGRESS_NAMESPACE, CONTROLLER_SERVICE));
  } catch (e) {
    logger.warn(`could not ask Octavia for the LB VIP: ${(e as Error).message}`);
  }
  const decision = decideRealIpCidr(o.nodeCidr, vip, st);
  logger.info(`proxy-real-ip-cidr: ${decision.reason}`);
  return { address, realIpCidr: decision.cidr, recordedAt: new Date().toISOString() };
}
