import type { Capabilities } from '../openstack/types.js';
import { offlineLoadBalancerPlan, resolveLoadBalancerPlan } from '../plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';

/**
 * The Service load-balancer plan: from the cloud's capabilities (detection or --capabilities FILE)
 * through resolveLoadBalancerPlan; without them only `use_ovn_lb_provider: false` can be decided.
 */
export async function clusterLbPlan(s: Settings, caps: Capabilities | undefined): Promise<LoadBalancerPlan> {
  return caps ? resolveLoadBalancerPlan(s, caps) : offlineLoadBalancerPlan(s);
}
