import { HttpError } from '../openstack/http-error.js';
import type { Connection } from '../openstack/connection.js';
import { listProjectFloatingIps, listSecurityGroups, neutronRoot, listFloatingIps } from '../openstack/neutron.js';
import { listHealthMonitors, listListeners, listLoadBalancers, listMembers, listPools, octaviaRoot, type LoadBalancer } from '../openstack/octavia.js';
import { neutronQuotaDetails, octaviaQuota } from '../openstack/quota.js';
import type { Skipped } from './findings.js';
import type { CloudSnapshot } from '../openstack/snapshot.js';

/**
 * Fetches the cloud snapshot with one list call per collection, all at once: load balancers,
 * listeners, pools, health monitors, floating IPs, security groups, and both quotas — a constant number of
 * requests whatever the number of load balancers. A quota the credentials may not read makes
 * quota-headroom a check that could not run (not a crash); a missing Octavia or Neutron is thrown (the caller skips every
 * cloud check with that reason).
 */
export async function fetchCloudSnapshot(c: Connection, octaviaVersion?: string): Promise<{ snapshot: CloudSnapshot; couldNotRun: Skipped[] }> {
  const lbEp = c.endpoint('load-balancer');
  const netEp = c.endpoint('network');
  if (!lbEp.found) throw new Error(lbEp.reason);
  if (!netEp.found) throw new Error(netEp.reason);
  const o = octaviaRoot(lbEp.url);
  const n = neutronRoot(netEp.url);
  const projectId = c.session.projectId ?? '';
  const couldNotRun: Skipped[] = [];
  const quota = <T>(p: Promise<T>, what: string): Promise<T | undefined> =>
    p.catch((e: unknown) => {
      if (!(e instanceof HttpError) || (e.status !== 403 && e.status !== 404)) throw e;
      couldNotRun.push({ check: 'quota-headroom', reason: `the ${what} quota cannot be read with these credentials (HTTP ${e.status})` });
      return undefined;
    });
  const [loadBalancers, listeners, pools, healthMonitors, floatingIps, securityGroups, oq, nq] = await Promise.all([
    listLoadBalancers(c, o), listListeners(c, o), listPools(c, o), listHealthMonitors(c, o), listProjectFloatingIps(c, n),
    listSecurityGroups(c, n, projectId || undefined),
    quota(octaviaQuota(c, o, projectId), 'Octavia'), quota(neutronQuotaDetails(c, n, projectId), 'Neutron'),
  ]);
  return { snapshot: { projectId, octaviaVersion, loadBalancers, listeners, pools, healthMonitors, floatingIps, securityGroups, octaviaQuota: oq, neutronQuota: nq }, couldNotRun };
}

/** One load balancer in full, by exact name, for the post-apply verification: LB, listeners, pools, monitors, members, the VIP's floating IPs. */
export async function fetchLoadBalancerSnapshot(c: Connection, name: string): Promise<CloudSnapshot> {
  const lbEp = c.endpoint('load-balancer');
  const netEp = c.endpoint('network');
  if (!lbEp.found) throw new Error(lbEp.reason);
  const o = octaviaRoot(lbEp.url);
  const loadBalancers: LoadBalancer[] = await listLoadBalancers(c, o, name);
  const snapshot: CloudSnapshot = { projectId: c.session.projectId ?? '', loadBalancers, listeners: [], pools: [], healthMonitors: [], floatingIps: [], members: {} };
  if (loadBalancers.length !== 1) return snapshot;
  const lb = loadBalancers[0];
  const [listeners, pools, healthMonitors, floatingIps] = await Promise.all([
    listListeners(c, o, { loadbalancerId: lb.id }), listPools(c, o, { loadbalancerId: lb.id }), listHealthMonitors(c, o),
    netEp.found && lb.vip_port_id ? listFloatingIps(c, neutronRoot(netEp.url), { portId: lb.vip_port_id }) : Promise.resolve([]),
  ]);
  const poolIds = new Set(pools.map((p) => p.id));
  const members = await Promise.all(pools.map(async (p) => [p.id, await listMembers(c, o, p.id)] as const));
  return {
    ...snapshot, listeners, pools, floatingIps,
    healthMonitors: healthMonitors.filter((m) => (m.pools ?? []).some((p) => poolIds.has(p.id))),
    members: Object.fromEntries(members),
  };
}
