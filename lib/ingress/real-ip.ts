import net from 'node:net';
import { ipv4Network, parseCidr } from '../net/cidr.js';

/**
 * Narrowing `proxy-real-ip-cidr` after the load balancer exists. nginx trusts PROXY headers only
 * from this range; node_cidr (the first guess) also trusts every node and pod-to-node hop. The LB
 * reaches members on the node subnet from its VIP, so once the VIP is known, VIP/32 is enough.
 */

/** OCCM's Octavia LB name for a Service: `kube_service_<cluster-name>_<namespace>_<service>`. */
export function occmLoadBalancerName(cluster: string, namespace = 'ingress-nginx', service = 'ingress-nginx-controller'): string {
  return `kube_service_${cluster}_${namespace}_${service}`;
}

/** What the Service shows about its load balancer. */
export interface ServiceLbStatus {
  /** status.loadBalancer.ingress[0].ip (the floating IP when there is one, else the VIP). */
  ip?: string;
  /** status.loadBalancer.ingress[0].hostname (`<ip>.nip.io` with enable-ingress-hostname). */
  hostname?: string;
  /** OCCM's loadbalancer.openstack.org/load-balancer-address annotation (the public address). */
  annotatedAddress?: string;
}

interface ServiceJson {
  metadata?: { annotations?: Record<string, string> };
  status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } };
}

/** Reads the LB address fields of a Service (`kubectl get service -o json`); empty when none yet. */
export function serviceLbStatus(svc: unknown): ServiceLbStatus {
  const s = (svc ?? {}) as ServiceJson;
  const first = s.status?.loadBalancer?.ingress?.[0] ?? {};
  const out: ServiceLbStatus = {};
  if (first.ip) out.ip = first.ip;
  if (first.hostname) out.hostname = first.hostname;
  const a = s.metadata?.annotations?.['loadbalancer.openstack.org/load-balancer-address'];
  if (a) out.annotatedAddress = a;
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

/** The narrowing decision: the CIDR to trust and why. */
export interface RealIpDecision {
  cidr: string;
  narrowed: boolean;
  reason: string;
}

/**
 * Picks proxy-real-ip-cidr: the Octavia VIP/32 when it lies in node_cidr; else the Service's status
 * IP/32 when that lies in node_cidr (an internal LB shows its VIP); otherwise node_cidr stays, with
 * the reason (a floating IP in the status is never the source nginx sees).
 */
export function decideRealIpCidr(nodeCidr: string, octaviaVip: string | undefined, status: ServiceLbStatus): RealIpDecision {
  if (octaviaVip) {
    if (inCidr(octaviaVip, nodeCidr)) return { cidr: `${octaviaVip}/32`, narrowed: true, reason: `trusting PROXY headers only from the LB VIP ${octaviaVip} (Octavia)` };
    return { cidr: nodeCidr, narrowed: false, reason: `the LB VIP ${octaviaVip} is outside node_cidr ${nodeCidr}; keeping node_cidr` };
  }
  if (status.ip && inCidr(status.ip, nodeCidr)) {
    return { cidr: `${status.ip}/32`, narrowed: true, reason: `trusting PROXY headers only from the LB VIP ${status.ip} (Service status)` };
  }
  const shown = status.ip ?? status.annotatedAddress ?? status.hostname ?? 'no address';
  return {
    cidr: nodeCidr,
    narrowed: false,
    reason: `the VIP is unknown (Octavia not asked or LB not found; the Service shows ${shown}, a public address); keeping node_cidr ${nodeCidr}`,
  };
}
