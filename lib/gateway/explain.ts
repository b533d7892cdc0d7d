import { KaasError } from '../errors.js';
import { type IngressDecision } from '../ingress/decide.js';
import { formatIngressPlan } from '../ingress/text.js';
import { planIngress } from '../plan/ingress.js';
import { planLoadBalancerOffline } from '../plan/loadbalancer.js';
import { orThrow } from '../plan/decision.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import { loadBalancerSection } from '../render/cloud-conf.js';
import type { Settings } from '../settings/types.js';
import { formatGatewayPlan, gatewayDecisionFor } from './plan.js';

/**
 * Both edge plans (ingress-nginx and the gateway) for `kaas detect` and `kaas settings show`, in
 * the format apply-ingress / apply-gateway print. A plan the settings cannot carry out shows its
 * refusal instead of failing the command that only explains.
 */
export function explainEdgePlans(cluster: string, env: string, s: Settings, lb: LoadBalancerPlan, from: IngressDecision['capabilitiesFrom']): string[] {
  const lines: string[] = [];
  const attempt = (what: string, f: () => string[]) => {
    try {
      lines.push(...f());
    } catch (e) {
      if (!(e instanceof KaasError)) throw e;
      lines.push(`${what} plan for cluster ${cluster}: cannot be carried out: ${e.message}${e.hint ? ` (${e.hint})` : ''}`);
    }
  };
  attempt('ingress', () => {
    const ingress = orThrow(planIngress(s, lb));
    const loadBalancer = ingress.deploy ? loadBalancerSection(lb, s.occm_loadbalancer, ingress.cloudConf) : [];
    return formatIngressPlan(cluster, env, { lb, ingress, loadBalancer, capabilitiesFrom: from });
  });
  lines.push('');
  attempt('gateway', () => formatGatewayPlan(cluster, env, gatewayDecisionFor(s, lb, from)));
  return lines;
}

/** For `settings show`: the edge plans when the LB plan needs no cloud (use_ovn_lb_provider false), else where to see them. */
export function explainOffline(cluster: string, env: string, s: Settings): string[] {
  if (s.use_ovn_lb_provider !== false) {
    return [`edge plans (ingress-nginx, gateway): use_ovn_lb_provider is ${s.use_ovn_lb_provider}, so they need the cloud's answer: kaas detect ${cluster}`];
  }
  return explainEdgePlans(cluster, env, s, orThrow(planLoadBalancerOffline(s)), 'not needed');
}
