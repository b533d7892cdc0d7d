import { PlanError } from '../errors.js';
import type { Capabilities } from '../openstack/types.js';
import { resolveLoadBalancerPlan } from '../plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';

/**
 * The Service load-balancer plan: from the cloud's capabilities (detection or --capabilities FILE)
 * through resolveLoadBalancerPlan; without them only `use_ovn_lb_provider: false` can be decided.
 */
export async function clusterLbPlan(s: Settings, caps: Capabilities | undefined): Promise<LoadBalancerPlan> {
  if (caps) return resolveLoadBalancerPlan(s, caps);
  return offlineLbPlan(s);
}

/** The plan without capabilities: only `use_ovn_lb_provider: false` can be decided. */
export async function offlineLbPlan(s: Settings): Promise<LoadBalancerPlan> {
  if (s.use_ovn_lb_provider !== false) {
    throw new PlanError(`use_ovn_lb_provider: ${s.use_ovn_lb_provider} needs the cloud's Octavia providers and version`, {
      hint: 'run with cloud access, pass --capabilities FILE (kaas detect -o json > FILE), or set use_ovn_lb_provider: false',
    });
  }
  return {
    provider: 'amphora',
    ovn: false,
    cloudConf: {},
    proxyProtocolPossible: true,
    kubeApiAllowedCidrs: true,
    reasons: ['use_ovn_lb_provider is false: Service load balancers use the default provider (amphora)'],
  };
}
