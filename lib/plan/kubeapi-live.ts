import { decided, refused, type Decision } from './decision.js';

/**
 * `restrict_kubeapi` on a cluster that exists. The kube-API load balancer's provider is fixed once
 * CAPO created it: CAPO's OpenStackCluster webhook refuses any change of
 * `spec.apiServerLoadBalancer.provider` (only allowedCIDRs and monitor may change, CAPO v0.14
 * pkg/webhooks/openstackcluster_webhook.go ValidateUpdate). So a live cluster keeps the live value,
 * whatever kaas would pick for a new one. What decides whether allowedCIDRs take effect is the
 * provider the load balancer *really* has in Octavia (the spec may be unset: Octavia's default):
 * CAPO applies them only where the provider supports VIP ACLs, and skips them without an error for
 * `ovn` (pkg/cloud/services/loadbalancer/loadbalancer.go isAllowsCIDRSSupported →
 * IsOctaviaFeatureSupported(OctaviaFeatureVIPACL), false for ovn). That case is refused here, since
 * CAPO would leave the kube-API open while kaas reports it restricted. Pure.
 */

/** What is known about the live kube-API load balancer. */
export interface LiveApiLb {
  /** The live `spec.apiServerLoadBalancer.provider` (undefined: unset, Octavia's default). */
  specProvider?: string;
  /** `status.apiServerLoadBalancer.id`, once CAPO created it. */
  id?: string;
  /** The provider Octavia reports for that load balancer; undefined when not asked or not found. */
  octaviaProvider?: string;
  /** Why the provider is not known (cloud not asked, load balancer not created yet). */
  unknown?: string;
}

/** The decision: the provider value to render (the live one) and the reasons. */
export function kubeApiOnLiveCluster(cluster: string, lb: LiveApiLb, allowedCIDRs: string[] | undefined): Decision<string | undefined> {
  const keep = lb.specProvider;
  const keepText = keep ? `provider ${keep} kept` : 'provider left unset as it is live';
  if (!allowedCIDRs?.length) return decided(keep, [`kube-API load balancer of ${cluster}: open to all addresses (allowedCIDRs removed in place, ${keepText})`]);
  // Octavia's answer wins; else the spec says what CAPO asked Octavia for.
  const actual = lb.octaviaProvider ?? keep;
  if (actual === undefined) {
    return decided(keep, [], [`kube-API load balancer of ${cluster}: its Octavia provider is not known (${lb.unknown ?? 'not asked'}); CAPO applies allowedCIDRs only if it is not ovn`]);
  }
  if (actual === 'ovn') {
    return refused({
      message: `restrict_kubeapi cannot be enforced on cluster ${cluster}: its kube-API load balancer ${lb.id ?? ''} uses the Octavia provider ovn, which has no VIP ACLs (CAPO skips allowedCIDRs for it and would leave the kube-API open), and CAPO refuses to change the provider of a live load balancer`.replace('  ', ' '),
      hint: 'keep restrict_kubeapi: [] for this cluster, or create a new cluster with restrict_kubeapi set (kaas pins a new restricted API load balancer to amphora), move the workloads and delete this one',
    });
  }
  return decided(keep, [`kube-API load balancer of ${cluster}${lb.id ? ` (${lb.id})` : ''} runs on the Octavia provider ${actual}: allowedCIDRs updated in place (${keepText})`]);
}
