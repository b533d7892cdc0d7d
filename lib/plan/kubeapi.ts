import { toHostCidr } from '../net/cidr.js';
import { ALLOWED_CIDRS_VERSION } from '../openstack/detect.js';
import { compareVersions } from '../openstack/octavia.js';

/**
 * Who may reach the kube-API load balancer of a workload cluster: the port of SCS
 * `apply_kubeapi_cidrs.sh` to CAPO v1beta1 (`apiServerLoadBalancer.allowedCIDRs`,
 * `disableAPIServerFloatingIP`). Pure: the management host's addresses and the cloud's facts are
 * looked up elsewhere and passed in.
 */

/** The management host's addresses, as found (or why they could not be found). */
export type MgmtHostAddresses =
  | { found: true; cidrs: string[]; source: string }
  | { found: false; reason: string };

/** What the cloud tells about the kube-API load balancer; undefined = not known (no cloud asked). */
export interface KubeApiLbFacts {
  /** Octavia's highest API version, e.g. "2.26"; allowed_cidrs need ≥ 2.12. */
  octaviaVersion?: string;
  /** The provider CAPO's API load balancer gets (CAPO leaves it to Octavia's default). */
  provider?: string;
  /** Providers the cloud offers, when known. */
  providers?: string[];
}

/** Inputs of the decision. */
export interface KubeApiInput {
  /** The `restrict_kubeapi` setting as validated ("none" alone, CIDRs, or bare IPs). */
  restrict: string[];
  mgmtHost: MgmtHostAddresses;
  lb?: KubeApiLbFacts;
}

/** The decision: what goes into OpenStackCluster.spec, and why. */
export type KubeApiPlan =
  | {
      ok: true;
      /** undefined = leave allowedCIDRs unset (open to everyone). */
      allowedCIDRs?: string[];
      /** true = no floating IP on the API load balancer (internal access only). */
      disableFloatingIP: boolean;
      /** The Octavia provider the API load balancer is pinned to (only when restricted). */
      provider?: string;
      reasons: string[];
    }
  | { ok: false; error: string; hint: string; reasons: string[] };


const sortUnique = (xs: string[]) => [...new Set(xs)].sort();

/**
 * Decides the kube-API access: `[]` = open to all; `["none"]` = internal only (no floating IP);
 * otherwise the listed CIDRs (bare IPs as /32) plus the management host's addresses, which must be
 * known. Refused when the API load balancer cannot enforce the list (OVN provider, or Octavia older
 * than v2.12) — CAPO would silently leave it open.
 */
export function planKubeApiAccess(input: KubeApiInput): KubeApiPlan {
  const reasons: string[] = [];
  if (input.restrict.length === 0) {
    reasons.push('restrict_kubeapi is []: the kube-API load balancer is open to all addresses');
    return { ok: true, disableFloatingIP: false, reasons };
  }
  if (input.restrict.length === 1 && input.restrict[0] === 'none') {
    reasons.push('restrict_kubeapi is ["none"]: no floating IP on the kube-API load balancer (reachable from the cluster network only)');
    // Cluster API itself talks to the workload kube-API: without a route to the private VIP it never sees the control plane come up.
    reasons.push('the management cluster must reach the load balancer\'s private address (same network, router or VPN), else Cluster API cannot manage the cluster');
    return { ok: true, disableFloatingIP: true, reasons };
  }
  const user = input.restrict.filter((c) => c !== 'none').map(toHostCidr);
  const lb = input.lb;
  if (lb?.provider === 'ovn') {
    return {
      ok: false,
      error: 'restrict_kubeapi cannot be enforced: the kube-API load balancer would use the OVN provider, which rejects allowed_cidrs (HTTP 501)',
      hint: 'set restrict_kubeapi: [] (open) or ["none"] (internal only), or use a cloud whose default Octavia provider is amphora',
      reasons,
    };
  }
  if (lb?.providers && !lb.providers.includes('amphora')) {
    return {
      ok: false,
      error: `restrict_kubeapi cannot be enforced: the cloud offers the Octavia providers ${lb.providers.join(', ') || 'none'}, and only amphora honours allowed_cidrs (OVN rejects them)`,
      hint: 'set restrict_kubeapi: [] (open) or ["none"] (internal only)',
      reasons,
    };
  }
  if (lb?.octaviaVersion !== undefined && compareVersions(lb.octaviaVersion, ALLOWED_CIDRS_VERSION) < 0) {
    return {
      ok: false,
      error: `restrict_kubeapi cannot be enforced: Octavia v${lb.octaviaVersion} is older than v2.12 (listener allowed_cidrs); CAPO would leave the kube-API open`,
      hint: 'set restrict_kubeapi: [] (open) or ["none"] (internal only)',
      reasons,
    };
  }
  if (!lb) reasons.push('not checked whether Octavia can enforce allowed CIDRs (cloud not asked)');
  if (!input.mgmtHost.found) {
    return {
      ok: false,
      error: `restrict_kubeapi needs the management host's address (else the management cluster locks itself out): ${input.mgmtHost.reason}`,
      hint: 'set mgmt_host_cidrs to the address(es) the management cluster reaches the cloud from, e.g. mgmt_host_cidrs: [203.0.113.10]',
      reasons,
    };
  }
  const mgmt = input.mgmtHost.cidrs.map(toHostCidr);
  reasons.push(mgmt.length
    ? `kube-API restricted to ${user.join(', ')} plus the management host ${mgmt.join(', ')} (${input.mgmtHost.source})`
    : `kube-API restricted to ${user.join(', ')}; management host address ${input.mgmtHost.source}`);
  reasons.push('CAPO adds the cluster subnet and router addresses itself');
  // CAPO gives the API LB Octavia's default provider unless told; on a cloud whose default is ovn it
  // would skip allowedCIDRs without an error, leaving the kube-API open. Pinning makes it enforced or failing.
  reasons.push('kube-API load balancer pinned to the amphora provider, so that the allowed CIDRs are enforced whatever Octavia\'s default provider is');
  return { ok: true, allowedCIDRs: sortUnique([...mgmt, ...user]), disableFloatingIP: false, provider: 'amphora', reasons };
}
