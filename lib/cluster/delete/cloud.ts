import { parseOccmSecurityGroup } from '../../openstack/neutron.js';
import { occmLoadBalancerPrefix } from '../../openstack/octavia.js';
import type { Logger } from '../../log.js';
import { HttpError } from '../../openstack/http-error.js';
import { serverGroupNames } from '../../plan/server-groups.js';
import { ServiceMissing, type ClusterCloud } from '../cloud.js';
import { waitFor, type Clock } from '../wait.js';
import { serverGroupKept, type OwnedServerGroups } from './server-group-owner.js';

/**
 * What CAPO and OCCM can leave behind in the cloud after a Cluster is gone, found by name:
 * Octavia LBs `kube_service_<cluster>_*` (OCCM's names) with their floating IPs, kaas's server
 * groups, CAPO's security groups `k8s-cluster-<namespace>-<cluster>-secgroup-*` and OCCM's member
 * security groups (`manage-security-groups`): named `lb-sg-<Service UID>-<namespace>-<name>`, which
 * does not say the cluster, so they are recognised by the description OCCM gives them, "Security
 * Group for <namespace>/<name> Service LoadBalancer in cluster <cluster>" (cloud-provider-openstack
 * pkg/openstack/loadbalancer_sg.go). Everything is looked up fresh, so a second run finds nothing.
 * Only resources of the token's project are listed (`project_id` filter) and deleted: an admin
 * credential sees every project's, and another tenant may have a cluster of the same name.
 */

/** One cloud resource to delete. */
export interface CleanupItem {
  kind: 'floating ip' | 'load balancer' | 'server group' | 'security group';
  id: string;
  what: string;
}

/**
 * True unless the resource says it belongs to another project than the token's. A resource without
 * a project (the API did not say) was listed with the `project_id` filter, so it is the token's.
 */
export function inTokenProject(resourceProject: string | undefined, tokenProject: string | undefined): boolean {
  return tokenProject === undefined || resourceProject === undefined || resourceProject === tokenProject;
}

/** Lists what to delete, in a safe order (FIPs before their LBs, LBs before their security groups). */
/**
 * `owned`: which server groups the Cluster uses and its servers (server-group-owner.ts); without it every group of kaas's
 * names that holds no server is taken (no Cluster is known, so any server in a group is another cluster's).
 */
export async function planCloudCleanup(cloud: ClusterCloud, cluster: string, prefix: string, namespace: string, logger?: Logger, occmName = cluster, owned: OwnedServerGroups = { servers: [] }): Promise<CleanupItem[]> {
  // A service missing from the catalog has nothing of ours to clean up: say so and go on.
  const orNone = async <T>(what: string, fn: () => Promise<T[]>): Promise<T[]> => {
    try {
      return await fn();
    } catch (e) {
      if (!(e instanceof ServiceMissing)) throw e;
      logger?.info(`- ${what}: skipped: ${e.message}`);
      return [];
    }
  };
  const items: CleanupItem[] = [];
  const lbPrefix = occmLoadBalancerPrefix(occmName);
  const ours = <T extends { projectId?: string }>(x: T) => inTokenProject(x.projectId, cloud.projectId);
  const lbs = (await orNone('load balancers', () => cloud.loadBalancers())).filter((l) => l.name.startsWith(lbPrefix) && ours(l));
  for (const lb of lbs) {
    for (const f of (lb.vipPortId ? await cloud.floatingIpsOfPort(lb.vipPortId) : []).filter(ours)) {
      items.push({ kind: 'floating ip', id: f.id, what: `floating IP ${f.address} of load balancer ${lb.name}` });
    }
  }
  for (const lb of lbs) items.push({ kind: 'load balancer', id: lb.id, what: `Octavia load balancer ${lb.name} (${lb.id})` });
  const names = serverGroupNames(prefix, cluster);
  for (const g of (await orNone('server groups', () => cloud.serverGroups())).filter((x) => x.name === names.controller || x.name === names.worker)) {
    const kept = serverGroupKept(g, owned, `${namespace}/${cluster}`);
    if (kept) logger?.warn(`server group ${g.name} (${g.id}) is kept: ${kept}`);
    else items.push({ kind: 'server group', id: g.id, what: `server group ${g.name} (${g.id})` });
  }
  const capoPrefix = `k8s-cluster-${namespace}-${cluster}-secgroup-`;
  const occm = (sg: { name: string; description?: string }) => parseOccmSecurityGroup(sg)?.cluster === occmName;
  for (const sg of await orNone('security groups', () => cloud.securityGroups())) {
    if (ours(sg) && (sg.name.startsWith(capoPrefix) || occm(sg))) {
      items.push({ kind: 'security group', id: sg.id, what: `security group ${sg.name} (${sg.id})` });
    }
  }
  return items;
}

/**
 * Deletes the items in order; already deleted ones (404) count as done. Octavia deletes
 * asynchronously: security groups wait until the deleted load balancers are gone (their ports
 * still use the groups until then).
 */
export async function cleanupCloud(cloud: ClusterCloud, items: CleanupItem[], logger: Logger, clock: Clock, timeoutSec = 300): Promise<void> {
  const lbIds = items.filter((i) => i.kind === 'load balancer').map((i) => i.id);
  let lbsGone = lbIds.length === 0;
  for (const i of items) {
    if (i.kind === 'security group' && !lbsGone) {
      await waitFor({
        title: 'load balancers deleted', timeoutSec, intervalMs: 5000, logger, clock, hint: 'openstack loadbalancer list',
        probe: async () => {
          const left = (await cloud.loadBalancers()).filter((l) => lbIds.includes(l.id)).length;
          return { done: left === 0, progress: `${left} left` };
        },
      });
      lbsGone = true;
    }
    if (i.kind === 'floating ip') await cloud.deleteFloatingIp(i.id);
    else if (i.kind === 'load balancer') await deleteWhenSettled(i, () => cloud.deleteLoadBalancer(i.id), logger, clock, timeoutSec);
    else if (i.kind === 'server group') await cloud.deleteServerGroup(i.id);
    else await deleteWhenSettled(i, () => cloud.deleteSecurityGroup(i.id), logger, clock, timeoutSec);
    logger.info(`deleted ${i.what}`);
  }
}

/**
 * Deletes, retrying while the cloud answers 409 Conflict: Octavia refuses to delete a load
 * balancer in PENDING_CREATE/PENDING_UPDATE (OCCM may be changing it right now), Neutron a
 * security group a port still uses. Either settles by itself; the step's timeout bounds the wait.
 */
async function deleteWhenSettled(item: CleanupItem, del: () => Promise<void>, logger: Logger, clock: Clock, timeoutSec: number): Promise<void> {
  await waitFor({
    title: `deleting ${item.what}`, timeoutSec, intervalMs: 5000, logger, clock,
    hint: item.kind === 'load balancer' ? `openstack loadbalancer show ${item.id} (provisioning_status)` : `openstack port list --security-group ${item.id}`,
    probe: async () => {
      try {
        await del();
        return { done: true, progress: '' };
      } catch (e) {
        if (e instanceof HttpError && e.status === 409) return { done: false, progress: 'busy (409 Conflict); retrying' };
        throw e;
      }
    },
  });
}

/** What the sweep does with one of OCCM's load balancers, by its provisioning_status. */
export type SweepAction = 'delete' | 'wait';

/**
 * Octavia refuses (409) to delete a load balancer in PENDING_CREATE/PENDING_UPDATE and is already
 * deleting one in PENDING_DELETE: those are waited for (the next poll looks again); ACTIVE, ERROR
 * and an unknown status are deleted.
 */
export function sweepAction(status: string | undefined): SweepAction {
  return status !== undefined && status.startsWith('PENDING_') ? 'wait' : 'delete';
}

/** What one sweep found and did. */
export interface SweepResult {
  /** OCCM load balancers of the cluster still listed (being deleted or busy). */
  left: number;
  /** What this sweep deleted, as the actions of delete-cluster name them. */
  deleted: string[];
}

/**
 * Deletes OCCM's load balancers of the cluster (`kube_service_<occm>_*`, token's project only) with
 * the floating IPs of their VIP ports, without waiting: one pass of the Cluster wait's probe.
 * CAPO v0.14 deletes only ports named after the cluster (pkg/cloud/services/networking/port.go
 * DeleteClusterPorts), so an OCCM load balancer's VIP port and floating IP keep Neutron from
 * removing the router interface and the network, and the OpenStackCluster's finalizer stays:
 * once no Machine is left (OCCM is gone with the nodes), kaas removes them itself.
 */
export async function sweepServiceLoadBalancers(cloud: ClusterCloud, occmName: string, logger: Logger): Promise<SweepResult> {
  const prefix = occmLoadBalancerPrefix(occmName);
  const lbs = (await cloud.loadBalancers()).filter((l) => l.name.startsWith(prefix) && inTokenProject(l.projectId, cloud.projectId));
  const deleted: string[] = [];
  for (const lb of lbs) {
    if (sweepAction(lb.status) === 'wait') continue;
    for (const f of (lb.vipPortId ? await cloud.floatingIpsOfPort(lb.vipPortId) : []).filter((x) => inTokenProject(x.projectId, cloud.projectId))) {
      await cloud.deleteFloatingIp(f.id);
      deleted.push(`floating IP ${f.address} of load balancer ${lb.name}`);
      logger.info(`deleted floating IP ${f.address} of load balancer ${lb.name}`);
    }
    try {
      await cloud.deleteLoadBalancer(lb.id);
    } catch (e) {
      // Busy (OCCM or Octavia changing it right now): the next poll tries again.
      if (e instanceof HttpError && e.status === 409) continue;
      throw e;
    }
    deleted.push(`Octavia load balancer ${lb.name} (${lb.id})`);
    logger.info(`deleted Octavia load balancer ${lb.name} (${lb.id})`);
  }
  return { left: lbs.length, deleted };
}

/** The ovn provider's name for a load balancer's VIP port (ovn-octavia-provider ovn_const.LB_VIP_PORT_PREFIX). */
export const OVN_VIP_PORT_PREFIX = 'ovn-lb-vip-';

const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
/**
 * `ovn-lb-vip-<LB id>` exactly: the additional VIPs of a live load balancer are
 * `ovn-lb-vip-additional-<n>-<LB id>` (ovn-octavia-provider common/constants.py, helper.py), which a
 * prefix match took for an orphan of LB "additional-…".
 */
const OVN_VIP_PORT = new RegExp(`^${OVN_VIP_PORT_PREFIX}(${UUID})$`);
/** The provider's health-monitor port of a subnet, `ovn-lb-hm-<subnet id>` (ovn-octavia-provider helper.py). */
const OVN_HM_PORT = new RegExp(`^ovn-lb-hm-${UUID}$`);

/** The ovn provider's ports of a network the sweep deletes, from the ports and the listed load balancers. Pure. */
export function orphanOvnPorts(ports: { id: string; name: string }[], lbs: { id: string; vipPortId?: string }[]): { id: string; name: string; why: string }[] {
  const ids = new Set(lbs.map((l) => l.id));
  const vipPorts = new Set(lbs.map((l) => l.vipPortId).filter(Boolean));
  const out = ports.flatMap((p) => {
    const lb = OVN_VIP_PORT.exec(p.name)?.[1];
    return lb && !ids.has(lb) ? [{ ...p, why: 'the ovn provider\'s VIP port of a load balancer that does not exist' }] : [];
  });
  // The provider drops a subnet's health-monitor port only with the last monitor using it
  // (helper.py); once no load balancer has its VIP in this network, nothing uses it.
  if (!ports.some((p) => vipPorts.has(p.id))) {
    out.push(...ports.filter((p) => OVN_HM_PORT.test(p.name)).map((p) => ({ ...p, why: 'the ovn provider\'s health-monitor port, no load balancer left in the network' })));
  }
  return out;
}

/**
 * The network whose orphaned ovn ports the sweep may delete: the OpenStackCluster's, and only where CAPO
 * made it (`spec.managedSubnets`, CAPO v0.14 openstackcluster_controller.go reconcileDelete deletes the
 * network on the same condition). On a network the cluster was given, another cluster's OCCM may be
 * creating an ovn load balancer: Octavia makes its VIP port inside a transaction a list does not show
 * yet (octavia api/v2/controllers/load_balancer.py), and the sweep would delete a live LB's port. Pure.
 */
export function orphanSweepNetwork(osc: { spec?: { managedSubnets?: unknown[] }; status?: { network?: { id?: string } } } | undefined): string | undefined {
  if (!osc?.spec?.managedSubnets?.length) return undefined;
  return osc.status?.network?.id || undefined;
}

/**
 * The ovn provider's ports on the cluster's network that nothing uses: VIP ports whose load balancer
 * does not exist, and the health-monitor ports once no load balancer is left in the network. Each
 * create Octavia refused after the provider made the port (OCCM told lb-provider=ovn without
 * lb-method=SOURCE_IP_PORT asks for ROUND_ROBIN, refused with 501, and retries with backoff) leaves
 * one `ovn-lb-vip-<LB id>` port behind (seen on the testbed with octavia 2024.1's ovn provider). CAPO
 * deletes only ports named after the cluster, so they keep the network in use and its delete loops on
 * 409 NetworkInUse. Called in the Cluster wait once no Machine is left (OCCM is gone: no create is in
 * flight), only for a network CAPO made (orphanSweepNetwork) and the token's project.
 */
export async function sweepOrphanOvnVipPorts(cloud: ClusterCloud, networkId: string, logger: Logger): Promise<string[]> {
  if (!cloud.portsOfNetwork || !cloud.deletePort) return [];
  const ports = (await cloud.portsOfNetwork(networkId)).filter((p) => inTokenProject(p.projectId, cloud.projectId));
  if (!ports.some((p) => OVN_VIP_PORT.test(p.name) || OVN_HM_PORT.test(p.name))) return [];
  // Every load balancer counts (the list must follow Octavia's pages: an LB past the first would read as missing).
  const orphans = orphanOvnPorts(ports, await cloud.loadBalancers());
  const deleted: string[] = [];
  for (const p of orphans) {
    await cloud.deletePort(p.id);
    const what = `port ${p.name} (${p.id}): ${p.why}`;
    deleted.push(what);
    logger.info(`deleted ${what}`);
  }
  return deleted;
}
