import { loadBalancerSection } from '../render/cloud-conf.js';
import { orThrow } from '../plan/decision.js';
import { DEFAULT_GATEWAY, ENVOY_PROXY, GATEWAY_NAMESPACE, planGateway, type GatewayPlan } from '../plan/gateway.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';
import type { IngressCloud } from '../ingress/cloud.js';
import { decideLoadBalancer, type IngressDecision } from '../ingress/decide.js';
import { whyLines } from '../ingress/text.js';

/** Everything apply-gateway decided before touching anything. */
export interface GatewayDecision {
  lb: LoadBalancerPlan;
  gateway: GatewayPlan;
  reasons: string[];
  warnings: string[];
  /** cloud.conf [LoadBalancer] as the plans require it (conflicts already rejected). */
  loadBalancer: [string, string][];
  capabilitiesFrom: IngressDecision['capabilitiesFrom'];
}

/** Decides provider and gateway plan; PlanError (exit 2) for what settings and cloud cannot do together. Touches nothing. */
export async function decideGateway(s: Settings, opts: { capabilitiesFile?: string; cloud: () => IngressCloud }): Promise<GatewayDecision> {
  const { lb, capabilitiesFrom } = await decideLoadBalancer(s, opts);
  return gatewayDecisionFor(s, lb, capabilitiesFrom);
}

/** The gateway decision on a known load-balancer plan. */
export function gatewayDecisionFor(s: Settings, lb: LoadBalancerPlan, capabilitiesFrom: GatewayDecision['capabilitiesFrom']): GatewayDecision {
  const d = planGateway(s, lb);
  const gateway = orThrow(d);
  const loadBalancer = gateway.deploy ? loadBalancerSection(lb, s.occm_loadbalancer, gateway.cloudConf) : [];
  return { lb, gateway, reasons: d.reasons, warnings: d.ok ? d.warnings : [], loadBalancer, capabilitiesFrom };
}

/** The plan as lines for stderr, in the ingress plan's format. */
export function formatGatewayPlan(cluster: string, env: string, d: GatewayDecision): string[] {
  const g = d.gateway;
  const lines = [`gateway plan for cluster ${cluster} (environment ${env}):`];
  const row = (k: string, v: string) => lines.push(`  ${k.padEnd(10)} ${v}`);
  row('deploy', g.deploy ? `yes, Envoy Gateway ${g.version!.version} (Gateway API ${g.version!.gatewayApi})` : 'no');
  row('provider', `${d.lb.provider}${d.capabilitiesFrom === 'not needed' ? '' : ` (capabilities from ${d.capabilitiesFrom})`}`);
  if (g.deploy) {
    const e = g.edge!;
    row('class', `${g.gatewayClass} → EnvoyProxy ${GATEWAY_NAMESPACE}/${ENVOY_PROXY}; Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY}`);
    row('monitor', e.monitor);
    row('proxy', e.proxyProtocol ? 'PROXY protocol (ClientTrafficPolicy proxyProtocol)' : 'off');
    row('ETP', `${e.externalTrafficPolicy}${e.clientIpKept ? ' (client IPs kept)' : ' (client IPs lost)'}`);
    row('cloud.conf', d.loadBalancer.map(([k, v]) => `${k}=${v}`).join(' '));
  }
  return whyLines(lines, [...d.lb.reasons, ...d.reasons]);
}
