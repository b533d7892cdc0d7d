import { inCidr } from '../ingress/real-ip.js';
import type { Member } from '../openstack/octavia.js';
import { fipBypassCause } from './fip-bypass.js';

/**
 * check-lb's verdicts from what was observed: every try answered (after a warm-up that only waits
 * for the first answer, as the SCS script does), the client address the Local Service saw, and the
 * Local LB's members. Pure.
 */

/** One probe's outcome. */
export interface Probe {
  ok: boolean;
  /** The body, or the error. */
  detail: string;
}

/** What was observed for one Service. */
export interface ServiceRun {
  address: string;
  warmup: Probe[];
  tries: Probe[];
}

/** One check of the report. */
export interface LbCheck {
  check: string;
  result: 'pass' | 'fail' | 'skipped';
  detail: string;
}

/** The observations. */
export interface Observed {
  cluster: ServiceRun;
  local: ServiceRun;
  /** The peer address the Local Service's pods reported (`/clientip`), or the error. */
  localClientIp?: Probe;
  /** Does the plan keep client IPs (OVN, or PROXY protocol — which vanilla Services do not use)? */
  clientIpKept: boolean;
  nodeCidr: string;
  /** InternalIPs of all nodes, and of those running an echo pod. */
  nodeIps: string[];
  podNodeIps: string[];
  /** Members of the Local LB's pools (undefined: the cloud could not be asked, with why). */
  localMembers?: Member[];
  membersProblem?: string;
  /** The Local LB's provider (Octavia's where it was read, else the plan's). */
  provider?: string;
  /** False when the Local address probed is the LB's VIP, not a floating IP. */
  localViaFloatingIp?: boolean;
}

function answers(name: string, etp: string, r: ServiceRun): LbCheck {
  const failed = r.tries.filter((p) => !p.ok);
  if (!r.warmup.some((p) => p.ok)) return { check: name, result: 'fail', detail: `${etp}: ${r.address} never answered in ${r.warmup.length} warm-up tries (last: ${r.warmup.at(-1)?.detail ?? 'none'})` };
  return failed.length
    ? { check: name, result: 'fail', detail: `${etp}: ${failed.length} of ${r.tries.length} requests to ${r.address} failed (first: ${failed[0].detail})` }
    : { check: name, result: 'pass', detail: `${etp}: ${r.tries.length} of ${r.tries.length} requests to ${r.address} answered` };
}

/** Has the Local LB's monitor spoken: a member ONLINE on a node with a pod, and none ONLINE on a node without? */
export function monitorSettled(members: Member[], podNodeIps: string[]): boolean {
  const online = members.filter((m) => m.operating_status === 'ONLINE');
  return online.length > 0 && online.every((m) => podNodeIps.includes(m.address));
}

/** The per-check verdicts, in report order. */
export function evaluate(o: Observed): LbCheck[] {
  const local = answers('local-answers', 'externalTrafficPolicy: Local', o.local);
  const cause = local.result === 'fail' ? fipBypassCause({ provider: o.provider, tries: o.local.tries, members: o.localMembers, podNodeIps: o.podNodeIps, viaFloatingIp: o.localViaFloatingIp }) : undefined;
  if (cause) local.detail += `. Cause: ${cause}`;
  const out = [answers('cluster-answers', 'externalTrafficPolicy: Cluster', o.cluster), local];
  if (!o.clientIpKept) {
    out.push({ check: 'local-client-ip', result: 'skipped', detail: 'the plan does not keep client IPs for plain Services (amphora proxies TCP; only PROXY protocol, which vanilla Services do not ask for, carries them)' });
  } else if (!o.localClientIp?.ok) {
    out.push({ check: 'local-client-ip', result: 'fail', detail: `the Local Service did not report the client address: ${o.localClientIp?.detail ?? 'not asked'}` });
  } else {
    const seen = o.localClientIp.detail.trim().replace(/:\d+$/, '').replace(/^\[(.*)\]$/, '$1');
    const masked = o.nodeIps.includes(seen) || inCidr(seen, o.nodeCidr);
    out.push(masked
      ? { check: 'local-client-ip', result: 'fail', detail: `the pods saw ${seen}, an address of the node network (${o.nodeCidr}): the client address was replaced` }
      : { check: 'local-client-ip', result: 'pass', detail: `the pods saw the client address ${seen}` });
  }
  if (!o.localMembers) {
    out.push({ check: 'local-podless-nodes', result: 'skipped', detail: `the Local LB's members cannot be read: ${o.membersProblem ?? 'no cloud'}` });
  } else {
    const wrong = o.localMembers.filter((m) => m.operating_status === 'ONLINE' && !o.podNodeIps.includes(m.address)).map((m) => m.address);
    const onlinePods = o.localMembers.filter((m) => m.operating_status === 'ONLINE' && o.podNodeIps.includes(m.address));
    const pods = [...new Set(o.podNodeIps)].sort().join(', ');
    const statuses = [...new Set(o.localMembers.map((m) => m.operating_status))].sort().join(', ') || 'no members';
    out.push(wrong.length
      ? { check: 'local-podless-nodes', result: 'fail', detail: `members ONLINE on nodes without an echo pod (${[...new Set(wrong)].sort().join(', ')}): the LB sends them traffic they drop (no health monitor?)` }
      // No ONLINE member proves nothing about podless nodes: the monitor took every node out, or
      // members never report (a provider without health data, or no data path to the nodes).
      : !onlinePods.length
        ? { check: 'local-podless-nodes', result: 'fail', detail: `no member on a node with an echo pod (${pods}) is ONLINE (member status: ${statuses}): the health monitor reaches no node, so the Local LB has no backend` }
        : { check: 'local-podless-nodes', result: 'pass', detail: `only the nodes with an echo pod (${pods}) are ONLINE members` });
  }
  return out;
}
