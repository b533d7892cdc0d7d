import type { Connection, ServiceType } from '../openstack/connection.js';
import { detectCapabilities } from '../openstack/detect.js';
import type { Capabilities } from '../openstack/types.js';
import { glanceRoot, listImageNames } from '../openstack/glance.js';
import {
  deleteFloatingIp, deletePort, deleteSecurityGroup, listExternalNetworks, listFloatingIps, listPorts, listSecurityGroups, neutronRoot, serverFloatingIps,
} from '../openstack/neutron.js';
import { createServerGroup, deleteServerGroup, findServersByName, listFlavors, listServerGroups } from '../openstack/nova.js';
import { deleteLoadBalancer, getLoadBalancer, highestVersion, listLoadBalancers, listVersions, octaviaRoot } from '../openstack/octavia.js';
import type { MgmtHostAddresses } from '../plan/kubeapi.js';
import type { FlavorFact } from '../plan/machines.js';
import type { ExistingServerGroup } from '../plan/server-groups.js';

/**
 * What create-cluster and delete-cluster ask of OpenStack, as one small port. Production uses
 * `openstackClusterCloud` over the service modules of lib/openstack (every HTTP call lives there);
 * tests pass a fake. Every lookup of
 * a service missing from the catalog throws `ServiceMissing` (a normal answer: the caller reports
 * the check as skipped).
 */
export interface ClusterCloud {
  /** Octavia/Neutron/Nova facts for the load-balancer plan (lib/openstack/detect.ts). */
  capabilities(): Promise<Capabilities>;
  imageNames(): Promise<string[]>;
  flavors(): Promise<FlavorFact[]>;
  serverGroups(): Promise<ExistingServerGroup[]>;
  createServerGroup(name: string, policy: string): Promise<ExistingServerGroup>;
  deleteServerGroup(id: string): Promise<void>;
  externalNetworks(): Promise<{ id: string; name: string }[]>;
  /** The floating (else fixed) addresses of the Nova server named `name`, or why there are none. */
  serverAddresses(name: string): Promise<MgmtHostAddresses>;
  /** Octavia's highest API version ("2.26"). */
  octaviaVersion(): Promise<string | undefined>;
  /** Load balancers of the token's project (see `projectId`), with their provisioning status and owner. */
  loadBalancers(): Promise<CloudLoadBalancer[]>;
  /** The provider Octavia reports for a load balancer ("amphora", "ovn"); undefined when there is none with that id. */
  loadBalancerProvider(id: string): Promise<string | undefined>;
  deleteLoadBalancer(id: string): Promise<void>;
  /** Floating IPs bound to a port (of the token's project). */
  floatingIpsOfPort(portId: string): Promise<{ id: string; address: string; projectId?: string }[]>;
  deleteFloatingIp(id: string): Promise<void>;
  /** Security groups of the token's project with their descriptions (OCCM's member groups are recognised by theirs). */
  securityGroups(): Promise<{ id: string; name: string; description?: string; projectId?: string }[]>;
  deleteSecurityGroup(id: string): Promise<void>;
  /** Ports of a network (name and owner project): the ovn provider's VIP ports a refused create left behind. */
  portsOfNetwork?(networkId: string): Promise<{ id: string; name: string; projectId?: string }[]>;
  deletePort?(id: string): Promise<void>;
  /**
   * The project the token is scoped to (Keystone's token `project.id`). An administrative or
   * global-reader token lists every project's load balancers and Neutron resources; the lists are
   * filtered by it and the cleanup deletes nothing owned by another project.
   */
  projectId?: string;
}

/** A load balancer as the cluster use cases see it. */
export interface CloudLoadBalancer {
  id: string;
  name: string;
  vipPortId?: string;
  /** Octavia's provisioning_status (PENDING_DELETE while Octavia deletes it). */
  status?: string;
  projectId?: string;
}

/** A service is not in the catalog; `reason` says why. */
export class ServiceMissing extends Error {}

/**
 * The port with the reads planCluster makes of every cloud (images, flavors, server groups) already
 * asked, at the same time as each other and as the capabilities: one after the other, each first
 * request to a service pays its token validation (about 0.7 s each on the testbed's peer). The server
 * groups follow the flavors (both Nova: asked together, each would pay the validation). Each
 * prefetched answer serves the first call only; a later call asks the cloud again (server groups
 * change once kaas creates them). A prefetch that fails fails that first call, as the call would have.
 */
export function prefetchPlanReads(cloud: ClusterCloud): ClusterCloud {
  /** The read `name`, asked now: this answer serves its first call, the cloud's own method every later one. */
  const early = <K extends 'imageNames' | 'flavors' | 'serverGroups'>(name: K, after?: Promise<unknown>) => {
    const read = (): Promise<unknown> => (cloud[name] as () => Promise<unknown>).call(cloud);
    let first: Promise<unknown> | undefined = after ? after.then(read, read) : (async () => read())();
    first.catch(() => undefined); // answered (or its failure reported) when planCluster asks
    const call = () => {
      const p = first ?? read();
      first = undefined;
      return p;
    };
    return { first, call: call as unknown as ClusterCloud[K] };
  };
  const flavors = early('flavors');
  const own: Partial<ClusterCloud> = {
    imageNames: early('imageNames').call,
    flavors: flavors.call,
    serverGroups: early('serverGroups', flavors.first).call,
  };
  // Everything else is the cloud's own (a fake's class methods too, bound to it).
  return new Proxy(cloud, {
    get(target, prop) {
      if (Object.hasOwn(own, prop)) return own[prop as keyof ClusterCloud];
      const v = Reflect.get(target, prop, target) as unknown;
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
}

/** Builds the port over an authenticated connection. */
export function openstackClusterCloud(c: Connection): ClusterCloud {
  const url = (type: ServiceType): string => {
    const e = c.endpoint(type);
    if (!e.found) throw new ServiceMissing(e.reason);
    return e.url;
  };
  const nova = () => url('compute');
  const neutron = () => neutronRoot(url('network'));
  const octavia = () => octaviaRoot(url('load-balancer'));
  const projectId = c.session.projectId;
  return {
    projectId,
    capabilities: () => detectCapabilities(c),
    imageNames: () => listImageNames(c, glanceRoot(url('image'))),
    flavors: async () => (await listFlavors(c, nova())).map((f) => ({ name: f.name, disk: f.disk })),
    serverGroups: async () => (await listServerGroups(c, nova())).map((g) => ({ id: g.id, name: g.name, policy: g.policy ?? g.policies?.[0] ?? '', members: g.members ?? [] })),
    async createServerGroup(name, policy) {
      const g = await createServerGroup(c, nova(), name, policy);
      return { id: g.id, name: g.name, policy: g.policy ?? policy };
    },
    deleteServerGroup: (id) => deleteServerGroup(c, nova(), id),
    async externalNetworks() {
      return (await listExternalNetworks(c, neutron())).map((n) => ({ id: n.id, name: n.name }));
    },
    async serverAddresses(name) {
      const servers = await findServersByName(c, nova(), name);
      if (servers.length === 0) return { found: false, reason: `no Nova server named ${name} in this project` };
      if (servers.length > 1) return { found: false, reason: `${servers.length} Nova servers are named ${name}` };
      const fips = await serverFloatingIps(c, neutron(), servers[0]);
      if (fips.addresses.length) return { found: true, cidrs: fips.addresses, source: `floating IP of server ${name}${fips.from === 'neutron' ? ' (Neutron)' : ''}` };
      return { found: false, reason: `server ${name} has no floating IP (its egress address cannot be known)` };
    },
    octaviaVersion: async () => highestVersion(await listVersions(c, octavia())),
    loadBalancers: async () => (await listLoadBalancers(c, octavia(), undefined, projectId))
      .map((l) => ({ id: l.id, name: l.name, vipPortId: l.vip_port_id, status: l.provisioning_status, projectId: l.project_id })),
    loadBalancerProvider: async (id) => (await getLoadBalancer(c, octavia(), id))?.provider,
    deleteLoadBalancer: (id) => deleteLoadBalancer(c, octavia(), id),
    floatingIpsOfPort: async (portId) => (await listFloatingIps(c, neutron(), { portId, projectId })).map((f) => ({ id: f.id, address: f.floating_ip_address, projectId: f.project_id })),
    deleteFloatingIp: (id) => deleteFloatingIp(c, neutron(), id),
    portsOfNetwork: async (networkId) => (await listPorts(c, neutron(), { networkId })).map((p) => ({ id: p.id, name: p.name ?? '', projectId: p.project_id as string | undefined })),
    deletePort: (id) => deletePort(c, neutron(), id),
    securityGroups: async () => (await listSecurityGroups(c, neutron(), projectId)).map((g) => ({ id: g.id, name: g.name, description: g.description ?? '', projectId: g.project_id })),
    deleteSecurityGroup: (id) => deleteSecurityGroup(c, neutron(), id),
  };
}
