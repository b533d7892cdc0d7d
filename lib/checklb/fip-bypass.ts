import type { Member } from '../openstack/octavia.js';
import { providerFacts } from '../plan/providers.js';
import type { Probe } from './evaluate.js';

/**
 * Why requests to an ETP Local Service fail although its monitor works: the ovn provider's
 * floating-IP bypass. Pure.
 *
 * ovn-octavia-provider puts the pool's OVN health check on the VIP only; OCCM exposes every Service
 * through a floating IP, which the provider adds as a second VIP of the OVN Load_Balancer, and
 * ovn-northd uses a VIP's backend health only if that VIP has its own check (ovn-org/ovn
 * northd.c@v23.03.1 `build_lb_vip_actions`). So the monitor takes the pod-less nodes out for the VIP,
 * and requests through the floating IP still reach them and time out. Launchpad bug 1997418, fixed
 * by "Ensure HM also apply to FIPs associated to LB VIPs" (openstack/ovn-octavia-provider ba4ea11,
 * 4.0.0 and later; Zed backport in 3.1.0) and "Fix port for Load Balancer Health Check for FIP"
 * (ebfbd84, 5.0.0; Zed 3.1.2). Proven on this project's testbed (datapath-feasibility.md §1.3, §4).
 */

/** What the diagnosis looks at. */
export interface BypassInput {
  /** The Local LB's provider (Octavia's, else the plan's). */
  provider?: string;
  /** The Local Service's tries. */
  tries: Probe[];
  /** Members of the Local LB's pools; InternalIPs of the nodes with an echo pod. */
  members?: Member[];
  podNodeIps: string[];
  /** False when the address probed is the LB's VIP itself (no floating IP): the bug does not apply. */
  viaFloatingIp?: boolean;
}

/**
 * The cause, when the pattern is the floating-IP bypass: provider ovn; the members show the monitor
 * working (ONLINE on every node with a pod, not ONLINE on at least one node without); and yet a share
 * of the requests through the floating IP failed while others were answered. Undefined otherwise.
 */
export function fipBypassCause(i: BypassInput): string | undefined {
  if (providerFacts(i.provider).name !== 'ovn' || i.viaFloatingIp === false || !i.members?.length) return undefined;
  const failed = i.tries.filter((p) => !p.ok).length;
  if (!failed || failed === i.tries.length) return undefined;
  const withPod = i.members.filter((m) => i.podNodeIps.includes(m.address));
  const withoutPod = i.members.filter((m) => !i.podNodeIps.includes(m.address));
  if (!withPod.length || !withPod.every((m) => m.operating_status === 'ONLINE')) return undefined;
  const out = withoutPod.filter((m) => m.operating_status !== 'ONLINE');
  if (!out.length || out.length !== withoutPod.length) return undefined;
  const taken = [...new Set(out.map((m) => `${m.address} ${m.operating_status ?? '?'}`))].sort().join(', ');
  return `the health monitor took the nodes without a pod out (${taken}), yet requests through the floating IP still reach them: `
    + 'the ovn provider applies no health check to the floating-IP VIP (Launchpad bug 1997418, fixed in ovn-octavia-provider 3.1.0 for Zed and 4.0.0 onwards). '
    + 'Fix: ask the cloud operator to upgrade ovn-octavia-provider, or use the amphora provider (use_ovn_lb_provider: false)';
}
