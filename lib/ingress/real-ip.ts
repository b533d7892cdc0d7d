import net from 'node:net';
import { lbIngress, type ServiceRef } from '../kube/lb-address.js';
import { ipv4Network, parseCidr } from '../net/cidr.js';

/**
 * Which sources nginx trusts for PROXY headers (`proxy-real-ip-cidr`). An amphora opens its
 * connections to the members from its own port in the members' subnet, never from the VIP (the
 * VIP is only an allowed address pair; Octavia bug 2016475, vexxhost/atmosphere#413), and it plugs
 * a port into the members' subnet when the VIP lives elsewhere. The members are the nodes, so
 * node_cidr is the narrowest range that is always right: VIP/32 (the SCS FIXME's idea) would make
 * nginx ignore every PROXY header and log the amphora as the client.
 */


/** What the Service shows about its load balancer. */
export interface ServiceLbStatus {
  /** status.loadBalancer.ingress[0].ip (the floating IP when there is one, else the VIP). */
  ip?: string;
  /** status.loadBalancer.ingress[0].hostname (`<ip>.nip.io` with enable-ingress-hostname). */
  hostname?: string;
  /** OCCM's loadbalancer.openstack.org/load-balancer-address annotation (the public address). */
  annotatedAddress?: string;
}

/**
 * Reads the LB address fields of the Service `ref` (`kubectl get service -o json`); empty when none yet.
 * The address is validated by lbIngress: an answer of another shape is an OperationError naming the
 * Service and the field.
 */
export function serviceLbStatus(svc: unknown, ref: ServiceRef): ServiceLbStatus {
  const out: ServiceLbStatus = { ...lbIngress(svc, ref) };
  const annotations = (svc as { metadata?: { annotations?: unknown } } | undefined)?.metadata?.annotations;
  const a = annotations && typeof annotations === 'object' ? (annotations as Record<string, unknown>)['loadbalancer.openstack.org/load-balancer-address'] : undefined;
  if (typeof a === 'string' && a) out.annotatedAddress = a;
  return out;
}

/** True when the Service has an LB address (IP or hostname). */
export function hasLbAddress(st: ServiceLbStatus): boolean {
  return Boolean(st.ip || st.hostname);
}

/** Whether an IPv4 address lies inside an IPv4 CIDR. */
export function inCidr(ip: string, cidr: string): boolean {
  const c = parseCidr(cidr);
  if ('error' in c || c.family !== 4 || !net.isIPv4(ip)) return false;
  return ipv4Network(ip, c.prefix) === c.address;
}

/** The trusted ranges (proxy-real-ip-cidr, comma-separated) and why. */
export interface RealIpDecision {
  cidr: string;
  reason: string;
}

/**
 * Decides proxy-real-ip-cidr once the load balancer exists: the plan's trusted range (node_cidr, and
 * with externalTrafficPolicy Cluster also pod_cidr: lib/plan/edge.ts), explained with the VIP when
 * Octavia told it (see the module comment for why not the VIP itself). `trusted` is
 * [node_cidr] or [node_cidr, pod_cidr].
 */
export function decideRealIpCidr(trusted: readonly string[], octaviaVip: string | undefined, status: ServiceLbStatus): RealIpDecision {
  const [nodeCidr, podCidr] = trusted;
  const cidr = trusted.join(',');
  const why = 'amphorae send to the nodes from their own ports in the node subnet, not from the VIP';
  const pods = podCidr ? ` and pod_cidr ${podCidr} (externalTrafficPolicy Cluster: nodes without the proxy pod forward from their pod-network address)` : '';
  if (octaviaVip) {
    const where = inCidr(octaviaVip, nodeCidr) ? `inside node_cidr` : `outside node_cidr: the amphorae still reach the nodes through ports in their subnet`;
    return { cidr, reason: `trusting PROXY headers from node_cidr ${nodeCidr}${pods}: ${why} (the LB VIP ${octaviaVip} is ${where})` };
  }
  const shown = status.ip ?? status.annotatedAddress ?? status.hostname ?? 'no address';
  return { cidr, reason: `trusting PROXY headers from node_cidr ${nodeCidr}${pods}: ${why} (LB not found in Octavia; the Service shows ${shown})` };
}
