import { OperationError } from '../errors.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, owningGatewaySelector } from '../plan/gateway.js';
import { stringifyDocuments, type KubeObject } from '../render/documents.js';
import type { LocalKey } from '../state/local-state.js';
import { recordApplied } from '../ingress/applied.js';
import { GATEWAY_RECORD } from './applied.js';
import { checkLiveOccm, DEFAULT_APPLY_TIMEOUTS, requireKubeconfig, stepped, verifyEdgeLb, waitForAddress, type ApplyTimeouts } from '../ingress/apply-steps.js';
import type { IngressCloud } from '../ingress/cloud.js';
import type { ClusterNames } from '../plan/cluster-model.js';
import { edgeExpectation, expectedLbName } from '../plan/edge-expectation.js';
import { type ServiceLbStatus } from '../ingress/real-ip.js';
import type { GatewayDecision } from './plan.js';
import { CERTGEN_JOB, CONTROL_PLANE_DEPLOYMENT, crdNames, type RenderedGateway } from './render.js';
import { judgeExisting, readExisting, reportExisting } from './existing.js';

/** What was applied and verified. */
export interface AppliedGateway {
  /** The address the Gateway publishes (status.addresses[0].value). */
  address: string;
  /** The envoy Service Envoy Gateway created for the default Gateway (OCCM names the LB after it). */
  service: string;
  loadBalancer: string;
  lb: ServiceLbStatus;
  recordedAt: string;
}


/** Labels Envoy Gateway puts on the envoy Service of a Gateway. */
export const OWNER_LABELS = owningGatewaySelector(GATEWAY_NAMESPACE, DEFAULT_GATEWAY);

interface Condition { type: string; status: string; reason?: string; message?: string }
interface GatewayJson { status?: { addresses?: { value?: string }[]; conditions?: Condition[] } }

/** Whether a Gateway is Programmed, its first address, and what to say while waiting. */
export function gatewayProgress(gw: unknown): { programmed: boolean; address?: string; progress: string } {
  const st = (gw as GatewayJson | undefined)?.status ?? {};
  const c = (st.conditions ?? []).find((x) => x.type === 'Programmed');
  const address = st.addresses?.find((a) => a.value)?.value;
  const programmed = c?.status === 'True' && address !== undefined;
  const progress = programmed ? `Programmed, address ${address}` : c ? `Programmed ${c.status}: ${c.reason ?? ''}${c.message ? ` (${c.message})` : ''}` : 'no status yet';
  return { programmed, address, progress };
}

async function waitProgrammed(kubectl: Kubectl, logger: Logger, t: ApplyTimeouts, sleep: (ms: number) => Promise<void>): Promise<string> {
  const step = logger.step(`waiting for Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} to be Programmed with an address`);
  const deadline = Date.now() + t.addressSec * 1000;
  for (;;) {
    const p = gatewayProgress(await kubectl.getJson('gateway', DEFAULT_GATEWAY, { namespace: GATEWAY_NAMESPACE }));
    if (p.programmed) {
      step.succeed(p.progress);
      return p.address!;
    }
    if (Date.now() >= deadline) {
      step.fail();
      throw new OperationError(`Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} was not Programmed with an address within ${t.addressSec}s (${p.progress})`, {
        hint: `kubectl describe gateway -n ${GATEWAY_NAMESPACE} ${DEFAULT_GATEWAY}; kubectl describe service -n ${GATEWAY_NAMESPACE} -l ${OWNER_LABELS} (OCCM events)`,
      });
    }
    step.update(`${p.progress} (${Math.ceil((deadline - Date.now()) / 1000)}s left)`);
    await sleep(t.pollMs);
  }
}

/**
 * PROXY protocol turned off (nginx_use_proxy now false, or monitors/OVN): the edge no longer renders the
 * ClientTrafficPolicy, but the one an earlier apply made is a separate object that a server-side apply of
 * the others leaves alone. Left, Envoy keeps expecting PROXY headers the load balancer no longer sends and
 * every request fails (found on the testbed's workload side). Removed only when kaas applied it.
 */
async function removeStaleProxyPolicy(kubectl: Kubectl, logger: Logger, edge: KubeObject[]): Promise<void> {
  if (edge.some((o) => o.kind === 'ClientTrafficPolicy')) return;
  const ctp = await kubectl.getJson<{ metadata: { managedFields?: { manager?: string }[] } }>('clienttrafficpolicy', DEFAULT_GATEWAY, { namespace: GATEWAY_NAMESPACE }, { managedFields: true });
  if (!ctp || !(ctp.metadata.managedFields ?? []).some((m) => m.manager === 'kaas')) return;
  await stepped(logger, `removing ClientTrafficPolicy ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} (PROXY protocol is off now; Envoy must stop expecting the header)`, () =>
    kubectl.delete([`clienttrafficpolicy/${DEFAULT_GATEWAY}`], { namespace: GATEWAY_NAMESPACE }));
}

/**
 * Applies a rendered gateway and verifies it, in phases: kubeconfig present, live OCCM config
 * consistent with the plan (unless force), the Gateway API CRDs and GatewayClasses already there judged
 * (a downgrade or channel change refused unless force), CRDs server-side (the EnvoyProxy CRD is too large for
 * client-side apply) and Established, control plane (certgen Job re-created) and its rollout, the
 * edge objects, the Gateway Programmed with an address, the envoy Service (found by Envoy Gateway's
 * owner labels) with its address, and with `verify` its Octavia LB against the edge plan (as apply-ingress).
 */
export async function applyGatewayToCluster(
  o: { names: ClusterNames; key: LocalKey; force: boolean; timeouts?: Partial<ApplyTimeouts>; verify?: boolean },
  deps: { kubectl: Kubectl; logger: Logger; cloud: () => IngressCloud; sleep?: (ms: number) => Promise<void> },
  d: GatewayDecision,
  rendered: RenderedGateway,
): Promise<AppliedGateway> {
  const { kubectl, logger } = deps;
  const t = { ...DEFAULT_APPLY_TIMEOUTS, ...o.timeouts };
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const v = d.gateway.version!;
  const { cluster } = o.names;
  requireKubeconfig(kubectl, cluster);
  await checkLiveOccm(kubectl, logger, { lb: d.lb, edge: d.gateway.edge! }, o.force);
  // The CRD apply below forces ownership: first say what it does to Gateway API CRDs and GatewayClasses already there.
  const found = await readExisting(kubectl, crdNames(v));
  reportExisting(judgeExisting(found.crds, found.classes, { gatewayApi: v.gatewayApi, gatewayClass: d.gateway.gatewayClass }), logger, o.force);

  await stepped(logger, `applying the Gateway API ${v.gatewayApi} and Envoy Gateway ${v.version} CRDs (server-side)`, async () => {
    await kubectl.apply(rendered.crdsYaml, { forceConflicts: true, timeoutMs: 300_000 });
    await kubectl.wait(crdNames(v).map((n) => `crd/${n}`), 'condition=Established', {}, 60);
  });
  const controlPlaneYaml = stringifyDocuments(rendered.controlPlane);
  const edgeYaml = stringifyDocuments(rendered.edge);
  await stepped(logger, `applying the Envoy Gateway ${v.version} control plane`, async () => {
    await kubectl.delete(['job', CERTGEN_JOB], { namespace: GATEWAY_NAMESPACE });
    await kubectl.apply(controlPlaneYaml, { forceConflicts: true });
  });
  // The record holds what delete-cluster removes: not the CRDs (deleting them deletes every route).
  recordApplied(o.key, GATEWAY_RECORD, controlPlaneYaml + edgeYaml);
  await stepped(logger, 'waiting for the Envoy Gateway rollout', () =>
    kubectl.rolloutStatus(`deployment/${CONTROL_PLANE_DEPLOYMENT}`, { namespace: GATEWAY_NAMESPACE }, t.rolloutSec));
  await stepped(logger, `applying GatewayClass ${d.gateway.gatewayClass}, its EnvoyProxy and Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY}`, () =>
    kubectl.apply(edgeYaml, { forceConflicts: true }));
  await removeStaleProxyPolicy(kubectl, logger, rendered.edge);

  const address = await waitProgrammed(kubectl, logger, t, sleep);
  const list = await kubectl.getJson<{ items?: { metadata: { name: string } }[] }>('service', undefined, { namespace: GATEWAY_NAMESPACE, selector: OWNER_LABELS });
  const service = list?.items?.[0]?.metadata.name;
  if (!service) {
    throw new OperationError(`Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} is Programmed, but no envoy Service carries its labels`, {
      hint: `kubectl get service -n ${GATEWAY_NAMESPACE} --show-labels`,
    });
  }
  const { st } = await waitForAddress(kubectl, logger, t, sleep, { namespace: GATEWAY_NAMESPACE, name: service });
  const e = d.gateway.edge!;
  const x = edgeExpectation('envoy-gateway', o.names, { namespace: GATEWAY_NAMESPACE, name: service }, e);
  if (o.verify) await verifyEdgeLb(x, { lb: d.lb, edge: e, names: o.names }, deps, t, sleep);
  if (e.proxyProtocol) {
    logger.info(`PROXY protocol: Envoy reads the client address from the header on every listener of ${DEFAULT_GATEWAY}; the amphorae send it from their ports in node_cidr ${e.trustedProxyCidrs?.[0]}, but Envoy Gateway cannot limit it to them: Envoy trusts the header from any peer`);
  }
  return { address, service, loadBalancer: expectedLbName(x), lb: st, recordedAt: new Date().toISOString() };
}
