import { decided, refused, type Decision } from './decision.js';
import { providerFacts } from './providers.js';
import type { LoadBalancerPlan } from './types.js';

/**
 * How an edge proxy's `type: LoadBalancer` Service (ingress-nginx's controller, Envoy Gateway's
 * envoy Service) meets the Octavia load balancer. One decision for every edge proxy kaas deploys,
 * so that ingress-nginx and the Gateway API path make the same choices and print the same reasons:
 * - amphora + keep client IPs → PROXY protocol on the pool and in the proxy, health monitor via the
 *   Service annotation, OCCM publishes a hostname (hairpin workaround), trust PROXY from node_cidr;
 * - amphora without PROXY → health monitor (cloud.conf create-monitor or the annotation);
 * - ovn → no PROXY (OVN keeps client IPs), TCP monitors from cloud.conf create-monitor=true;
 */

/** The settings the edge decision reads. */
export interface EdgeSettings {
  /** Keep client IPs with PROXY protocol (nginx_use_proxy). */
  useProxy: boolean;
  /** The nodes' subnet: where amphorae send PROXY headers from. */
  nodeCidr: string;
  /** occm_loadbalancer (cloud.conf [LoadBalancer] overrides). */
  occm: Record<string, unknown>;
}

/** Where the pool's health monitor comes from. */
export type MonitorSource = 'service annotation' | 'cloud.conf create-monitor' | 'none';

/** The edge Service's LB plan. */
export interface EdgeLbPlan {
  provider: string;
  /** PROXY protocol between LB and proxy (pool protocol PROXY; the proxy expects the header). */
  proxyProtocol: boolean;
  monitor: MonitorSource;
  externalTrafficPolicy: 'Local' | 'Cluster';
  /** Client source addresses reach the proxy (PROXY header, or OVN's own DNAT). */
  clientIpKept: boolean;
  /** Trust PROXY headers from this CIDR (set only with PROXY protocol). */
  trustedProxyCidr?: string;
  /** OCCM Service annotations the edge Service needs. */
  annotations: Record<string, string>;
  /** Keys the edge needs in cloud.conf [LoadBalancer] (enable-ingress-hostname with PROXY). */
  cloudConf: Record<string, string>;
}

const truthy = (v: unknown) => v === true || (typeof v === 'string' && /^(true|1|yes)$/i.test(v));

/** OCCM annotation that gives the pool a health monitor. */
export const MONITOR_ANNOTATION = 'loadbalancer.openstack.org/enable-health-monitor';
/** OCCM annotation that switches the pool protocol to PROXY. */
export const PROXY_ANNOTATION = 'loadbalancer.openstack.org/proxy-protocol';

/** Decides the edge Service's LB handling from the settings and the load-balancer plan. Pure. */
export function planEdgeLb(s: EdgeSettings, lb: LoadBalancerPlan): Decision<EdgeLbPlan> {
  const facts = providerFacts(lb.provider);
  const globalMonitor = truthy(s.occm['create-monitor']) || truthy(lb.cloudConf['create-monitor']);
  const base = { provider: lb.provider, annotations: {}, cloudConf: {} };
  if (lb.ovn) {
    const reasons = ['OVN load balancer: health monitors (TCP) come from cloud.conf create-monitor=true; OVN keeps client IPs without PROXY protocol.'];
    if (s.useProxy) reasons.push('PROXY protocol not used: the ovn provider has no PROXY pools, and needs none to keep client IPs.');
    return decided({ ...base, proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: facts.keepsClientIp }, reasons);
  }
  if (s.useProxy && lb.proxyProtocolPossible && facts.proxyProtocol) {
    if (!s.nodeCidr) {
      return refused({
        message: 'nginx_use_proxy is true but node_cidr is empty: the proxy would not know which PROXY-protocol source to trust',
        hint: 'set node_cidr (the subnet of the cluster nodes), or nginx_use_proxy: false',
      });
    }
    return decided(
      {
        ...base, proxyProtocol: true, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: true, trustedProxyCidr: s.nodeCidr,
        annotations: { [MONITOR_ANNOTATION]: 'true', [PROXY_ANNOTATION]: 'true' },
        cloudConf: { 'enable-ingress-hostname': 'true' },
      },
      [
        `${lb.provider} load balancer with PROXY protocol: health-monitor and proxy-protocol annotations; the proxy trusts PROXY headers from ${s.nodeCidr} (node_cidr), where the amphorae's own ports are (they never send from the VIP).`,
        'cloud.conf enable-ingress-hostname=true, so that pods inside the cluster still reach the edge through the LB (hairpin with PROXY protocol).',
      ],
    );
  }
  const reasons: string[] = [];
  if (s.useProxy) reasons.push(`PROXY protocol not possible with provider ${lb.provider}.`);
  if (globalMonitor) {
    reasons.push(`${lb.provider} load balancer without PROXY protocol: create-monitor is on in cloud.conf, so no annotation is needed.`);
    return decided({ ...base, proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: false }, reasons);
  }
  reasons.push(`${lb.provider} load balancer without PROXY protocol: the health-monitor annotation only (externalTrafficPolicy: Local needs it).`);
  return decided(
    { ...base, proxyProtocol: false, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: false, annotations: { [MONITOR_ANNOTATION]: 'true' } },
    reasons,
  );
}
