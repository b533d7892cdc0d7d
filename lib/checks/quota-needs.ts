/**
 * What a cluster's plan needs from the project's quotas: for a cluster not created yet, everything
 * `kaas create-cluster` makes (nodes' ports, the kube-API LB with its FIP, CAPO's two security
 * groups, the LB of each edge it deploys: ingress-nginx's, the gateway's) plus one more LoadBalancer
 * Service; for an existing cluster, one more LoadBalancer Service. Pure.
 */

/** Resource name (Octavia/Neutron quota key) → how many more are needed. */
export type QuotaNeeds = Record<string, number>;

/** The facts the estimate reads. */
export interface QuotaPlanFacts {
  /** The cluster's load balancers already exist (the cluster was created). */
  exists: boolean;
  controllers: number;
  workers: number;
  /** The LoadBalancer Service of each edge proxy create-cluster deploys (ingress-nginx, the gateway's envoy). */
  edges: EdgeService[];
  /** The kube-API LB gets a floating IP (restrict_kubeapi is not ["none"]). */
  apiFloatingIp: boolean;
  /** OCCM manages one member security group per LB Service (manage-security-groups=true). */
  occmSecurityGroups: boolean;
}

/** An edge proxy's LoadBalancer Service: one listener and pool per port, a monitor per pool when monitored. */
export interface EdgeService {
  name: string;
  /** Service ports: ingress-nginx's 80 and 443; the default Gateway's one HTTP listener. */
  ports: number;
  /** The plan's monitor is not "none". */
  monitored: boolean;
}

/** The quota needs: created resources + one more LoadBalancer Service (one listener/pool/monitor, one FIP, its VIP port). */
export function quotaNeeds(f: QuotaPlanFacts): QuotaNeeds {
  const oneService = { load_balancer: 1, listener: 1, pool: 1, health_monitor: 1, floatingip: 1, port: 1, security_group: f.occmSecurityGroups ? 1 : 0 };
  if (f.exists) return oneService;
  const lbs = f.edges.length;
  const pools = f.edges.reduce((n, e) => n + e.ports, 0);
  return {
    load_balancer: 1 + lbs + oneService.load_balancer,
    listener: 1 + pools + oneService.listener,
    pool: 1 + pools + oneService.pool,
    health_monitor: 1 + f.edges.reduce((n, e) => n + (e.monitored ? e.ports : 0), 0) + oneService.health_monitor,
    floatingip: (f.apiFloatingIp ? 1 : 0) + lbs + oneService.floatingip,
    // one port per node, one VIP port per load balancer
    port: f.controllers + f.workers + 1 + lbs + oneService.port,
    // CAPO's control-plane and worker groups
    security_group: 2 + (f.occmSecurityGroups ? lbs : 0) + oneService.security_group,
  };
}
