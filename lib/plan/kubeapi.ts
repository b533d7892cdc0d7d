import { toHostCidr } from '../net/cidr.js';
import type { OctaviaCapabilities } from '../openstack/types.js';
import { decided, refused, type Decision } from './decision.js';
import { ALLOWED_CIDRS_FROM, allowedCidrsEnforced, PROVIDERS } from './providers.js';

/**
 * Who may reach the kube-API load balancer of a workload cluster: SCS `apply_kubeapi_cidrs.sh`
 * ported to CAPO v1beta1 `apiServerLoadBalancer.allowedCIDRs`. The one place `restrict_kubeapi`
 * is decided. Semantics (SCS environment-default.tfvars, capo-facts.md):
 * - `[]` — open to every address;
 * - CIDRs / bare IPs (as /32) — those, plus the management host's addresses;
 * - `["none"]` — "exclusive internal access": the LB keeps its floating IP, and allows only the
 *   management host ("none" items are skipped, as the SCS script skips them).
 * In both restricted forms CAPO adds the cluster subnets and router IPs itself, and the kube-API
 * LB is pinned to amphora: CAPO leaves allowedCIDRs unapplied, without an error, for an ovn LB.
 * That pin is independent of `use_ovn_lb_provider`, which only concerns Service load balancers
 * ("use_ovn_lb_provider does not affect the LB in front of the kube API", SCS docs).
 * Pure: the management host's addresses and the cloud's facts are looked up elsewhere.
 */

/** The management host's addresses, as found (or why they could not be found). */
export type MgmtHostAddresses =
  | { found: true; cidrs: string[]; source: string }
  | { found: false; reason: string };

/** What the cloud tells about Octavia for the kube-API LB; undefined = not known (no cloud asked). */
export interface KubeApiLbFacts {
  /** False: the cloud has no Octavia; `reason` says why. Undefined = present. */
  present?: boolean;
  reason?: string;
  /** Octavia's highest API version, e.g. "2.26"; allowed_cidrs need ≥ 2.12. */
  octaviaVersion?: string;
  /** Providers the cloud offers, when known. */
  providers?: string[];
}

/** The facts the kube-API decision needs, from detected (or --capabilities) Octavia facts. */
export function kubeApiLbFacts(o: OctaviaCapabilities): KubeApiLbFacts {
  return o.present ? { octaviaVersion: o.maxVersion, providers: o.providers } : { present: false, reason: o.reason };
}

/** How the kube-API is reached: open, restricted to CIDRs, or internal (management host only). */
export type KubeApiMode = 'open' | 'restricted' | 'internal';

/** The mode `restrict_kubeapi` asks for. */
export function kubeApiMode(restrict: readonly string[]): KubeApiMode {
  if (restrict.length === 0) return 'open';
  return restrict.every((c) => c === 'none') ? 'internal' : 'restricted';
}

/** What the cloud's Octavia lets the kube-API LB do: `provider` is set when it must be pinned. */
export interface KubeApiLbCheck {
  /** The provider the API LB is pinned to (only when restricted). */
  provider?: 'amphora';
}

/**
 * Whether the cloud can enforce `restrict_kubeapi` on the kube-API LB: an open API needs nothing;
 * a restricted one needs Octavia, the amphora provider and API ≥ v2.12. Unknown facts (no cloud
 * asked) are assumed to fit, and said so.
 */
export function checkKubeApiLb(restrict: readonly string[], lb: KubeApiLbFacts | undefined): Decision<KubeApiLbCheck> {
  if (kubeApiMode(restrict) === 'open') return decided({}, ['restrict_kubeapi is []: the kube-API load balancer is open to all addresses']);
  const hint = 'set restrict_kubeapi: [] (open to all) for this cloud';
  if (lb?.present === false) {
    return refused({ message: `restrict_kubeapi cannot be enforced: the cloud has no Octavia (${lb.reason ?? 'no load-balancer service'})`, hint });
  }
  if (lb?.providers && !lb.providers.includes('amphora')) {
    return refused({
      message: `restrict_kubeapi cannot be enforced: the cloud offers the Octavia providers ${lb.providers.join(', ') || 'none'}, and only amphora honours allowed_cidrs (OVN rejects them)`,
      hint,
    });
  }
  if (!allowedCidrsEnforced(PROVIDERS.amphora, lb?.octaviaVersion)) {
    return refused({
      message: `restrict_kubeapi cannot be enforced: Octavia v${lb?.octaviaVersion} is older than v${ALLOWED_CIDRS_FROM} (listener allowed_cidrs); CAPO would leave the kube-API open`,
      hint,
    });
  }
  const reasons = lb ? [] : ['not checked whether Octavia can enforce allowed CIDRs (cloud not asked)'];
  // CAPO gives the API LB Octavia's default provider unless told; on a cloud whose default is ovn it
  // would skip allowedCIDRs without an error, leaving the kube-API open. Pinning makes it enforced or failing.
  reasons.push('kube-API load balancer pinned to the amphora provider, so that the allowed CIDRs are enforced whatever Octavia\'s default provider is (use_ovn_lb_provider concerns Service load balancers only)');
  return decided({ provider: 'amphora' }, reasons);
}

/** Inputs of the decision. */
export interface KubeApiInput {
  /** The `restrict_kubeapi` setting as validated ("none" alone, CIDRs, or bare IPs). */
  restrict: readonly string[];
  mgmtHost: MgmtHostAddresses;
  lb?: KubeApiLbFacts;
}

/** The decision: what goes into OpenStackCluster.spec.apiServerLoadBalancer. */
export interface KubeApiAccess {
  mode: KubeApiMode;
  /** undefined = leave allowedCIDRs unset (open to everyone). */
  allowedCIDRs?: string[];
  /** The Octavia provider the API load balancer is pinned to (only when restricted). */
  provider?: 'amphora';
}

const sortUnique = (xs: string[]) => [...new Set(xs)].sort();

/** Decides the kube-API access (see the module comment); refused when it cannot be enforced or would lock out the management host. */
export function planKubeApiAccess(input: KubeApiInput): Decision<KubeApiAccess> {
  const mode = kubeApiMode(input.restrict);
  const lbCheck = checkKubeApiLb(input.restrict, input.lb);
  if (!lbCheck.ok || mode === 'open') return lbCheck.ok ? decided({ mode }, lbCheck.reasons) : lbCheck;
  if (!input.mgmtHost.found) {
    return refused({
      message: `restrict_kubeapi needs the management host's address (else the management cluster locks itself out): ${input.mgmtHost.reason}`,
      hint: 'set mgmt_host_cidrs to the address(es) the management cluster reaches the cloud from, e.g. mgmt_host_cidrs: [203.0.113.10]',
    }, lbCheck.reasons);
  }
  const user = input.restrict.filter((c) => c !== 'none').map(toHostCidr);
  const mgmt = input.mgmtHost.cidrs.map(toHostCidr);
  const host = mgmt.length ? `the management host ${mgmt.join(', ')} (${input.mgmtHost.source})` : `the management host, whose address is ${input.mgmtHost.source}`;
  const reasons = [
    mode === 'internal'
      ? `restrict_kubeapi is ["none"] (exclusive internal access): the kube-API load balancer keeps its floating IP and allows only ${host}`
      : `kube-API restricted to ${user.join(', ')} plus ${host}`,
    'CAPO adds the cluster subnet and router addresses itself, so nodes and in-cluster clients still reach the kube-API',
    ...lbCheck.reasons,
  ];
  const warnings = mode === 'internal' && mgmt.length === 0
    ? ['allowedCIDRs is empty without the management host\'s address, and CAPO reads an empty list as open: run with cloud access or set mgmt_host_cidrs']
    : [];
  return decided({ mode, allowedCIDRs: sortUnique([...mgmt, ...user]), provider: lbCheck.value.provider }, reasons, warnings);
}
