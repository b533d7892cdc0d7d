import { decided, type Decision } from './decision.js';

/**
 * Who may reach the worker NodePorts (30000–32767) when Service load balancers use OVN. The OVN
 * provider does not proxy: it DNATs client packets to the members and keeps the client address
 * (octavia-api-facts.md §5), and its health checks come from the OVN metadata/DHCP port in the
 * member subnet — the node subnet of a kaas cluster, where OCCM also puts the VIP unless
 * subnet-id says otherwise. That subnet needs no rule of kaas's: CAPO v0.14 already opens the
 * worker NodePorts (tcp and udp) to every cluster subnet CIDR (pkg/cloud/services/networking/
 * securitygroups.go getSGWorkerNodePortCIDR), and a second, identical rule only costs CAPO a 409
 * from Neutron. Client traffic is OCCM's business: with manage-security-groups (kaas's default)
 * OCCM ≥ v1.28 opens each Service's NodePorts to its loadBalancerSourceRanges
 * (occm-loadbalancer-facts.md §4). So the cluster-wide rule is only what the user adds; it opens to
 * everyone (as CAPO's docs suggest) only when OCCM cannot do its part.
 */

/** Inputs of the NodePort decision. */
export interface NodePortInput {
  /** Service load balancers use the OVN provider. */
  ovn: boolean;
  nodeCidr: string;
  /** ovn_nodeport_cidrs. */
  extra: string[];
  /** occm_loadbalancer (cloud.conf [LoadBalancer] overrides). */
  occm: Record<string, string | number | boolean>;
  /** Version of the OCCM kaas deploys; undefined = kaas deploys none (deploy_occm: false). */
  occmVersion?: string;
}

const ANYWHERE = '0.0.0.0/0';
const OCCM_SG_SOURCE_RANGES_SINCE = 28;

const minorOf = (v: string) => Number(/^v?1\.(\d+)\./.exec(v)?.[1] ?? NaN);

/** The remote CIDRs of the worker NodePort rules kaas adds to CAPO's (empty = none), with the reasons. */
export function planNodePortSources(i: NodePortInput): Decision<string[]> {
  if (!i.ovn) return decided([], []);
  const reasons = [`OVN load balancers: NodePorts reachable from node_cidr ${i.nodeCidr} through CAPO's own rule for the cluster subnet (health checks come from the OVN metadata/DHCP port there); kaas adds no rule for it.`];
  const warnings: string[] = [];
  const sources: string[] = [];
  const manageSg = String(i.occm['manage-security-groups'] ?? 'true').toLowerCase() === 'true';
  let clientsByOccm = false;
  if (i.occmVersion === undefined) {
    reasons.push('deploy_occm is false: kaas does not know whether OCCM opens the NodePorts to clients (OVN keeps their addresses), so they are open to 0.0.0.0/0.');
  } else if (!manageSg) {
    reasons.push('occm_loadbalancer.manage-security-groups is false: OCCM does not open the NodePorts to clients (OVN keeps their addresses), so they are open to 0.0.0.0/0.');
  } else if (minorOf(i.occmVersion) < OCCM_SG_SOURCE_RANGES_SINCE) {
    reasons.push(`OCCM ${i.occmVersion} opens NodePorts only to the LB subnet, but OVN keeps client addresses (OCCM ≥ v1.28 opens them to loadBalancerSourceRanges): NodePorts open to 0.0.0.0/0.`);
  } else {
    clientsByOccm = true;
    reasons.push(`Clients: OCCM ${i.occmVersion} (manage-security-groups) opens each LoadBalancer Service's NodePorts to its loadBalancerSourceRanges; no cluster-wide opening.`);
  }
  if (!clientsByOccm) sources.push(ANYWHERE);
  for (const c of i.extra) {
    if (!sources.includes(c)) sources.push(c);
  }
  if (i.extra.length) reasons.push(`ovn_nodeport_cidrs adds ${i.extra.join(', ')}.`);
  for (const key of ['subnet-id', 'member-subnet-id']) {
    if (i.occm[key] !== undefined && !sources.includes(ANYWHERE)) {
      warnings.push(`occm_loadbalancer.${key} puts OVN load balancers into subnet ${i.occm[key]}, whose CIDR kaas does not look up: add it to ovn_nodeport_cidrs`);
    }
  }
  return decided(sources.includes(ANYWHERE) ? [ANYWHERE] : sources, reasons, warnings);
}
