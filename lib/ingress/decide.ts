import { KaasError } from '../errors.js';
import { loadCapabilitiesFile } from '../openstack/capabilities-file.js';
import { cloudNotReachable, HttpError } from '../openstack/http-error.js';
import { orThrow } from '../plan/decision.js';
import { planIngress, type IngressPlan } from '../plan/ingress.js';
import { planLoadBalancer, planLoadBalancerOffline } from '../plan/loadbalancer.js';
import { planOccmLoadBalancer } from '../plan/occm-loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';
import type { IngressCloud } from './cloud.js';

/** Everything apply-ingress decided before touching anything. */
export interface IngressDecision {
  lb: LoadBalancerPlan;
  ingress: IngressPlan;
  /** cloud.conf [LoadBalancer] as the plans require it (conflicts already rejected). */
  loadBalancer: [string, string][];
  /** Where the LB facts came from, for the printed plan. */
  capabilitiesFrom: 'not needed' | 'file' | 'cloud';
}

/**
 * Decides provider, ingress variant and cloud.conf keys. Asks the cloud only when
 * use_ovn_lb_provider is true/auto and no capabilities file is given. The use-case boundary of
 * the pure plans: a refusal becomes a PlanError (exit 2); touches nothing.
 */
export async function decideIngress(s: Settings, opts: { capabilitiesFile?: string; cloud: () => IngressCloud }): Promise<IngressDecision> {
  const { lb, capabilitiesFrom } = await decideLoadBalancer(s, opts);
  const ingress = orThrow(planIngress(s, lb));
  const loadBalancer = ingress.deploy ? orThrow(planOccmLoadBalancer(lb, s.occm_loadbalancer, ingress.cloudConf)) : [];
  return { lb, ingress, loadBalancer, capabilitiesFrom };
}

/**
 * The load-balancer plan an edge proxy (ingress-nginx, the gateway) is planned against: from a
 * capabilities file, offline for use_ovn_lb_provider false, else from the cloud.
 */
export async function decideLoadBalancer(
  s: Settings, opts: { capabilitiesFile?: string; cloud: () => IngressCloud },
): Promise<{ lb: LoadBalancerPlan; capabilitiesFrom: IngressDecision['capabilitiesFrom'] }> {
  if (opts.capabilitiesFile) return { lb: orThrow(planLoadBalancer(s, loadCapabilitiesFile(opts.capabilitiesFile))), capabilitiesFrom: 'file' };
  if (s.use_ovn_lb_provider === false) return { lb: orThrow(planLoadBalancerOffline(s)), capabilitiesFrom: 'not needed' };
  return { lb: orThrow(planLoadBalancer(s, await askCloud(s, opts.cloud))), capabilitiesFrom: 'cloud' };
}

/**
 * The cloud's capabilities, or an error that says first what happened to the cloud: "cloud X not
 * reachable: Keystone: POST … failed with ECONNREFUSED", then that the plan needs it.
 */
async function askCloud(s: Settings, cloud: () => IngressCloud) {
  const needs = `use_ovn_lb_provider is ${s.use_ovn_lb_provider}, so planning needs the cloud's Octavia providers and version`;
  const offline = 'plan offline with --capabilities FILE (saved by kaas detect -o json)';
  try {
    return await cloud().capabilities();
  } catch (e) {
    if (!(e instanceof KaasError)) throw e;
    const name = e instanceof HttpError ? cloud().credentials().cloud?.name : undefined;
    if (name) {
      const r = cloudNotReachable(name, e);
      throw new KaasError(r.message, { exitCode: e.exitCode, problems: [needs, ...e.problems], hint: `${r.hint}; or ${offline}` });
    }
    throw new KaasError(`use_ovn_lb_provider is ${s.use_ovn_lb_provider}, so planning needs the cloud's capabilities: ${e.message}`, {
      exitCode: e.exitCode, problems: e.problems,
      hint: `${e.hint ? `${e.hint}; or ` : ''}${offline}`,
    });
  }
}
