/**
 * What a cluster's plan needs from the project's quotas: for a cluster not created yet, everything
 * `kaas create-cluster` makes (nodes' ports, the kube-API LB with its FIP, CAPO's two security
 * groups, the ingress LB) plus one more LoadBalancer Service; for an existing cluster, one more
 * LoadBalancer Service. Pure.
 */

/** Resource name (Octavia/Neutron quota key) → how many more are needed. */
export type QuotaNeeds = Record<string, number>;

/** The facts the estimate reads. */
export interface QuotaPlanFacts {
  /** The cluster's load balancers already exist (the cluster was created). */
  exists: boolean;
  controllers: number;
  workers: number;
  ingress: boolean;
  /** Health monitors on the ingress pools (the plan's monitor is not "none"). */
  ingressMonitor: boolean;
  /** The kube-API LB gets a floating IP (restrict_kubeapi is not ["none"]). */
  apiFloatingIp: boolean;
  /** OCCM manages one member security group per LB Service (manage-security-groups=true). */
  occmSecurityGroups: boolean;
}

/** The quota needs: created resources + one more LoadBalancer Service (one listener/pool/monitor, one FIP, its VIP port). */
export function quotaNeeds(f: QuotaPlanFacts): QuotaNeeds {
  const oneService = { load_balancer: 1, listener: 1, pool: 1, health_monitor: 1, floatingip: 1, port: 1, security_group: f.occmSecurityGroups ? 1 : 0 };
  if (f.exists) return oneService;
  const ingressLbs = f.ingress ? 1 : 0;
  return {
    load_balancer: 1 + ingressLbs + oneService.load_balancer,
    // ingress-nginx's Service has two ports (80, 443): two listeners, two pools.
    listener: 1 + 2 * ingressLbs + oneService.listener,
    pool: 1 + 2 * ingressLbs + oneService.pool,
    health_monitor: 1 + (f.ingress && f.ingressMonitor ? 2 : 0) + oneService.health_monitor,
    floatingip: (f.apiFloatingIp ? 1 : 0) + ingressLbs + oneService.floatingip,
    // one port per node, one VIP port per load balancer
    port: f.controllers + f.workers + 1 + ingressLbs + oneService.port,
    // CAPO's control-plane and worker groups
    security_group: 2 + (f.occmSecurityGroups ? ingressLbs : 0) + oneService.security_group,
  };
}
