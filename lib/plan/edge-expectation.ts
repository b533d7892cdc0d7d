import type { ClusterNames } from './cluster-model.js';
import { occmLoadBalancerName } from '../openstack/octavia.js';
import type { EdgeLbPlan, MonitorSource } from './edge.js';
import type { ClusterSnapshot } from '../openstack/snapshot.js';

/**
 * What the post-apply verification expects of an edge Service's load balancer, built from the
 * edge plan the Service was rendered from. Light on imports: apply-ingress and apply-gateway build
 * it on every run, and load the verification itself (verify.ts, the doctor checks) only to verify.
 */

/** The edge proxies kaas deploys, and what differs between them for the verification. */
export const EDGES = {
  'ingress-nginx': { command: 'apply-ingress', pods: 'ingress-nginx controller pods', podsOf: (k: ClusterSnapshot) => k.ingressPods },
  'envoy-gateway': { command: 'apply-gateway', pods: 'envoy pods of the Gateway', podsOf: (k: ClusterSnapshot) => k.gatewayPods },
} as const;
export type EdgeKind = keyof typeof EDGES;

/** What the plan says the edge Service's LB must look like. */
export interface EdgeExpectation {
  edge: EdgeKind;
  /** The kaas cluster (named in fixes). */
  cluster: string;
  /** OCCM's cluster-name: the LB is `kube_service_<occmCluster>_<namespace>_<service>`. */
  occmCluster: string;
  namespace: string;
  service: string;
  provider: string;
  proxyProtocol: boolean;
  monitor: MonitorSource;
  externalTrafficPolicy: 'Local' | 'Cluster';
}

/**
 * The expectation of an edge Service from the edge plan it was rendered from (planEdgeLb's fields,
 * as the ingress and gateway plans carry them): one builder for ingress-nginx and the gateway.
 */
export function edgeExpectation(
  edge: EdgeKind, names: Pick<ClusterNames, 'cluster' | 'occmCluster'>, svc: { namespace: string; name: string },
  plan: Pick<EdgeLbPlan, 'provider' | 'proxyProtocol' | 'monitor' | 'externalTrafficPolicy'>,
): EdgeExpectation {
  return {
    edge, cluster: names.cluster, occmCluster: names.occmCluster, namespace: svc.namespace, service: svc.name,
    provider: plan.provider, proxyProtocol: plan.proxyProtocol, monitor: plan.monitor, externalTrafficPolicy: plan.externalTrafficPolicy,
  };
}

/** The Octavia LB OCCM makes for the expected Service. */
export const expectedLbName = (x: EdgeExpectation) => occmLoadBalancerName(x.occmCluster, x.namespace, x.service);
