import type { Kubectl } from '../../kube/kubectl.js';
import { RESOURCES } from '../live/live.js';

/**
 * Whose is a server group of kaas's name? kaas names a cluster's anti-affinity groups
 * `<prefix>-<cluster>-controller` / `-worker` (plan/server-groups.ts), without the namespace: two
 * environments with the same cluster name in different namespaces of one project (the `namespace`
 * setting allows it) meet at the same names. delete-cluster therefore deletes a group of that name
 * only when this Cluster is what uses it: a machine template in its namespace refers to it (by
 * name filter or id: CAPO v0.14 api/v1beta1 `ServerGroupParam`), and no server in it is another
 * cluster's (Nova lists the members of a group).
 */

/** What delete-cluster knows of the Cluster's own use of server groups. */
export interface OwnedServerGroups {
  /** Names and ids the machine templates in the Cluster's namespace refer to; undefined = the Cluster is gone (not known). */
  referenced?: string[];
  /** Nova server ids of the Cluster's OpenStackMachines. */
  servers: string[];
}

/** A server group as Nova lists it. */
export interface ListedServerGroup { id: string; name: string; members?: string[] }

/**
 * Why a server group of kaas's name must be kept (another cluster's), or undefined when it is the
 * Cluster's to delete. `clusterId` is `namespace/name`, for the message. Pure.
 */
export function serverGroupKept(g: ListedServerGroup, owned: OwnedServerGroups, clusterId: string): string | undefined {
  if (owned.referenced && !owned.referenced.includes(g.name) && !owned.referenced.includes(g.id)) {
    return `no machine template of Cluster ${clusterId} uses it (another cluster of the same name, in another namespace, does)`;
  }
  const foreign = (g.members ?? []).filter((m) => !owned.servers.includes(m));
  if (foreign.length) {
    return `server${foreign.length === 1 ? '' : 's'} ${foreign.join(', ')} in it ${foreign.length === 1 ? 'is' : 'are'} not Cluster ${clusterId}'s (another cluster of the same name uses the group)`;
  }
  return undefined;
}

type Item = {
  kind?: string;
  metadata?: { labels?: Record<string, string> };
  spec?: { providerID?: string; template?: { spec?: { serverGroup?: { id?: string; filter?: { name?: string } } } } };
  status?: { instanceID?: string };
};

/** The Nova server id of an OpenStackMachine (`status.instanceID`, else the last part of `openstack:///<id>`). */
export function machineServerId(m: Pick<Item, 'spec' | 'status'>): string | undefined {
  return m.status?.instanceID || m.spec?.providerID?.split('/').pop() || undefined;
}

/**
 * Reads, before the Cluster is deleted (its templates go with it), which server groups the machine
 * templates in its namespace use and which servers are its own (OpenStackMachines with its
 * cluster-name label), in one kubectl call.
 */
export async function ownedServerGroups(mgmt: Kubectl, namespace: string, cluster: string): Promise<OwnedServerGroups> {
  const list = await mgmt.getJson<{ items?: Item[] }>(`${RESOURCES.OpenStackMachineTemplate},${RESOURCES.OpenStackMachine}`, undefined, { namespace });
  const items = list?.items ?? [];
  const referenced = items.filter((i) => i.kind === 'OpenStackMachineTemplate').flatMap((t) => {
    const g = t.spec?.template?.spec?.serverGroup;
    return [g?.id, g?.filter?.name].filter((x): x is string => !!x);
  });
  const servers = items.filter((i) => i.kind === 'OpenStackMachine' && i.metadata?.labels?.['cluster.x-k8s.io/cluster-name'] === cluster)
    .map(machineServerId).filter((x): x is string => !!x);
  return { referenced: [...new Set(referenced)].sort(), servers: [...new Set(servers)].sort() };
}
