import { decided, refused, type Decision } from './decision.js';
import { providerFacts } from './providers.js';
import type { Settings } from '../settings/types.js';
import type { LoadBalancerPlan } from './types.js';

/**
 * How an edge proxy's `type: LoadBalancer` Service (ingress-nginx's controller, Envoy Gateway's
 * envoy Service) meets the Octavia load balancer. One decision for every edge proxy kaas deploys,
 * so that ingress-nginx and the Gateway API path make the same choices and print the same reasons:
 * - amphora + keep client IPs → PROXY protocol on the pool and in the proxy, health monitor via the
 *   Service annotation, OCCM publishes a hostname (hairpin workaround); ingress-nginx trusts PROXY
 *   only from node_cidr (Envoy Gateway v1.9 has no such list: see plan/gateway.ts);
 * - amphora without PROXY → health monitor (cloud.conf create-monitor or the annotation);
 * - ovn → no PROXY (OVN keeps client IPs), TCP monitors from cloud.conf create-monitor=true;
 * - amphora with monitors switched off (occm_loadbalancer create-monitor: false) → no monitor, so
 *   externalTrafficPolicy: Cluster: under Local, Octavia would keep sending to nodes without a proxy
 *   pod (occm-loadbalancer-facts.md §5); client IPs then survive only through PROXY protocol.
 */

/** The settings the edge decision reads. */
export interface EdgeSettings {
  /** Keep client IPs with PROXY protocol (nginx_use_proxy). */
  useProxy: boolean;
  /** The nodes' subnet: where amphorae send PROXY headers from. */
  nodeCidr: string;
  /**
   * The pod network (pod_cidr): with externalTrafficPolicy Cluster a node without the proxy pod forwards
   * the connection to it from its own address there (Calico's vxlan/IPIP tunnel address, kube-proxy's
   * masquerade), so PROXY headers also arrive from pod_cidr.
   */
  podCidr?: string;
  /** occm_loadbalancer (cloud.conf [LoadBalancer] overrides). */
  occm: Record<string, unknown>;
}

/**
 * The edge settings of a cluster. They apply to every edge proxy, ingress-nginx and the gateway
 * alike: nginx_use_proxy keeps its SCS name (it means "keep client IPs with PROXY protocol").
 */
export function edgeSettings(s: Pick<Settings, 'nginx_use_proxy' | 'node_cidr' | 'occm_loadbalancer'> & Partial<Pick<Settings, 'pod_cidr'>>): EdgeSettings {
  return { useProxy: s.nginx_use_proxy, nodeCidr: s.node_cidr, ...(s.pod_cidr ? { podCidr: s.pod_cidr } : {}), occm: s.occm_loadbalancer };
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
  /**
   * Where PROXY headers come from (set only with PROXY protocol): node_cidr first, then pod_cidr when
   * nodes forward (externalTrafficPolicy Cluster). ingress-nginx trusts only these, Envoy any peer.
   */
  trustedProxyCidrs?: string[];
  /** OCCM Service annotations the edge Service needs. */
  annotations: Record<string, string>;
  /** Keys the edge needs in cloud.conf [LoadBalancer] (enable-ingress-hostname with PROXY). */
  cloudConf: Record<string, string>;
}

const truthy = (v: unknown) => v === true || (typeof v === 'string' && /^(true|1|yes)$/i.test(v));
const falsy = (v: unknown) => v === false || (typeof v === 'string' && /^(false|0|no)$/i.test(v));

/** OCCM annotation that gives the pool a health monitor. */
export const MONITOR_ANNOTATION = 'loadbalancer.openstack.org/enable-health-monitor';
/** OCCM annotation that switches the pool protocol to PROXY. */
export const PROXY_ANNOTATION = 'loadbalancer.openstack.org/proxy-protocol';

const NO_MONITOR_REASON =
  'No health monitor (occm_loadbalancer create-monitor is false): externalTrafficPolicy: Cluster, because under Local Octavia keeps sending to nodes that run no proxy pod.';

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
  // An explicit create-monitor: false is the user switching monitors off: no annotation overrides it.
  const monitorsOff = falsy(s.occm['create-monitor']);
  if (s.useProxy && lb.proxyProtocolPossible && facts.proxyProtocol) {
    if (!s.nodeCidr) {
      return refused({
        message: 'nginx_use_proxy is true but node_cidr is empty: the proxy would not know which PROXY-protocol source to trust',
        hint: 'set node_cidr (the subnet of the cluster nodes), or nginx_use_proxy: false',
      });
    }
    if (monitorsOff) {
      // ETP Cluster: what lands on a node without the proxy pod reaches the pod from that node's pod-network
      // address (seen on the testbed's data path: the PROXY header of half the requests was ignored and
      // nginx logged the forwarding node's tunnel address as the client while only node_cidr was trusted).
      const trusted = s.podCidr ? [s.nodeCidr, s.podCidr] : [s.nodeCidr];
      return decided(
        {
          ...base, proxyProtocol: true, monitor: 'none', externalTrafficPolicy: 'Cluster', clientIpKept: true, trustedProxyCidrs: trusted,
          annotations: { [PROXY_ANNOTATION]: 'true' }, cloudConf: { 'enable-ingress-hostname': 'true' },
        },
        [
          `${lb.provider} load balancer with PROXY protocol: proxy-protocol annotation; the amphorae send the PROXY header from their own ports in ${s.nodeCidr} (node_cidr; never from the VIP), the only source ingress-nginx takes a client address from.`,
          NO_MONITOR_REASON + ' Client IPs still arrive in the PROXY header.',
          ...(s.podCidr ? [`externalTrafficPolicy: Cluster: a node without the proxy pod forwards the connection to it from its own pod-network address (the CNI's tunnel address, masqueraded by kube-proxy), so ingress-nginx trusts PROXY headers from pod_cidr ${s.podCidr} too; a pod can then forge a client address by sending its own PROXY header to the proxy (with a health monitor, externalTrafficPolicy: Local, only node_cidr is trusted).`] : []),
          'cloud.conf enable-ingress-hostname=true, so that pods inside the cluster still reach the edge through the LB (hairpin with PROXY protocol).',
        ],
      );
    }
    return decided(
      {
        ...base, proxyProtocol: true, monitor: 'service annotation', externalTrafficPolicy: 'Local', clientIpKept: true, trustedProxyCidrs: [s.nodeCidr],
        annotations: { [MONITOR_ANNOTATION]: 'true', [PROXY_ANNOTATION]: 'true' },
        cloudConf: { 'enable-ingress-hostname': 'true' },
      },
      [
        `${lb.provider} load balancer with PROXY protocol: health-monitor and proxy-protocol annotations; the amphorae send the PROXY header from their own ports in ${s.nodeCidr} (node_cidr; never from the VIP), the only source ingress-nginx takes a client address from.`,
        'cloud.conf enable-ingress-hostname=true, so that pods inside the cluster still reach the edge through the LB (hairpin with PROXY protocol).',
      ],
    );
  }
  const reasons: string[] = [];
  if (s.useProxy) reasons.push(`PROXY protocol not possible with provider ${lb.provider}.`);
  if (monitorsOff) {
    reasons.push(NO_MONITOR_REASON + ' The proxy sees node addresses, not client IPs (nginx_use_proxy keeps them with PROXY protocol).');
    return decided({ ...base, proxyProtocol: false, monitor: 'none', externalTrafficPolicy: 'Cluster', clientIpKept: false }, reasons);
  }
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
