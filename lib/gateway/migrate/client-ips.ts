import { planEdgeLb, edgeSettings } from '../../plan/edge.js';
import { planLoadBalancer, planLoadBalancerOffline } from '../../plan/loadbalancer.js';
import type { Capabilities } from '../../openstack/types.js';
import type { Settings } from '../../settings/types.js';
import type { ClientIps } from './security.js';

/** The settings the client-IP decision reads (the gateway plan's load-balancer and edge inputs). */
export type ClientIpSettings = Pick<Settings, 'use_ovn_lb_provider' | 'nginx_use_proxy' | 'node_cidr' | 'occm_loadbalancer'>;

/**
 * Whether Envoy sees client addresses under this cluster's gateway plan (lib/plan/edge.ts clientIpKept:
 * OVN keeps them, amphora only with PROXY protocol), decided offline: from the capabilities file when
 * given, else from the settings when they decide the provider without the cloud. Pure; never asks the cloud.
 */
export function clientIpsFor(s: ClientIpSettings, caps?: Capabilities): ClientIps {
  // The provider only (the floating network does not matter here).
  const lbs = { use_ovn_lb_provider: s.use_ovn_lb_provider };
  const lb = caps ? planLoadBalancer(lbs, caps) : planLoadBalancerOffline(lbs);
  if (!lb.ok) {
    if (s.use_ovn_lb_provider === true && !caps) {
      return { kept: true, why: 'use_ovn_lb_provider is true: the gateway\'s load balancer is OVN (apply-gateway refuses otherwise), which keeps client IPs' };
    }
    return { kept: undefined, why: `the load-balancer provider is not known offline (${lb.refusals[0].message}; pass --capabilities FILE from kaas detect -o json)` };
  }
  const e = planEdgeLb(edgeSettings(s), lb.value);
  if (!e.ok) return { kept: undefined, why: `the gateway plan is refused (${e.refusals[0].message})` };
  const p = e.value;
  if (!p.clientIpKept) return { kept: false, why: `the gateway plan (${p.provider} without PROXY protocol) loses them: Envoy sees the load balancer's or a node's address` };
  if (p.proxyProtocol) {
    return { kept: true, why: `the gateway plan (${p.provider} with PROXY protocol) keeps them; Envoy trusts a PROXY header from any peer, so a pod that connects to the envoy pods directly can claim any address` };
  }
  return { kept: true, why: `the gateway plan (${p.provider}) keeps them` };
}
