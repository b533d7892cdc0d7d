import type { Capabilities } from '../openstack/types.js';
import { orThrow } from '../plan/decision.js';
import { planLoadBalancer, planLoadBalancerOffline } from '../plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';

/**
 * The Service load-balancer plan: from the cloud's capabilities (detection or --capabilities FILE)
 * through planLoadBalancer; without them only `use_ovn_lb_provider: false` can be decided.
 * A refusal is a PlanError (exit 2).
 */
export async function clusterLbPlan(s: Settings, caps: Capabilities | undefined): Promise<LoadBalancerPlan> {
  return orThrow(caps ? planLoadBalancer(s, caps) : planLoadBalancerOffline(s));
}
