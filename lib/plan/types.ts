/**
 * Decisions. Each plan is plain data plus the reasons (full sentences) that led to it, so that
 * the user sees *why*.
 */
import type { Refusal } from './decision.js';

/** Which Octavia provider the workload cluster's Service load balancers use, and how. */
export interface LoadBalancerPlan {
  /** "ovn" when OVN is used, otherwise the default provider ("amphora" on nearly every cloud). */
  provider: string;
  ovn: boolean;
  /** Keys that must appear in cloud.conf [LoadBalancer] because of this plan. */
  cloudConf: Record<string, string>;
  /** PROXY protocol may be used between LB and nginx (false for OVN: it keeps client IPs). */
  proxyProtocolPossible: boolean;
  /** Whether the kube-API LB (pinned to amphora when restricted) can honour restrict_kubeapi on this cloud; independent of `provider`. */
  kubeApiAllowedCidrs: boolean;
  reasons: string[];
  /**
   * external_network names no single external network of the cloud (does not exist, ambiguous, or
   * empty with several): create-cluster refuses that; the edge commands too (floatingNetworkVerdict).
   */
  externalNetworkProblem?: Refusal;
}
