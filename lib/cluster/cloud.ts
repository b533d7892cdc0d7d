import type { Connection, ServiceType } from '../openstack/connection.js';
import { detectCapabilities } from '../openstack/detect.js';
import type { Capabilities } from '../openstack/types.js';
import { stripVersionSuffix } from '../openstack/catalog.js';
import { listExternalNetworks, listFloatingIps, listPorts, neutronRoot } from '../openstack/neutron.js';
import { createServerGroup, deleteServerGroup, findServersByName, listFlavors, listServerGroups } from '../openstack/nova.js';
import { highestVersion, listLoadBalancers, listVersions, octaviaRoot } from '../openstack/octavia.js';
import type { MgmtHostAddresses } from '../plan/kubeapi.js';
import type { FlavorFact } from '../plan/machines.js';
import type { ExistingServerGroup } from '../plan/server-groups.js';

/**
 * What create-cluster and delete-cluster ask of OpenStack, as one small port. Production uses
 * `openstackClusterCloud` over helper modules of lib/openstack; tests pass a fake. Every lookup of
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
  loadBalancers(): Promise<{ id: string; name: string; vipPortId?: string }[]>;
  deleteLoadBalancer(id: string): Promise<void>;
  /** Floating IPs bound to a port. */
  floatingIpsOfPort(portId: string): Promise<{ id: string; address: string }[]>;
  deleteFloatingIp(id: string): Promise<void>;
  /** Security groups with their descriptions (OCCM's member groups are recognised by theirs). */
  securityGroups(): Promise<{ id: string; name: string; description?: string }[]>;
  deleteSecurityGroup(id: string): Promise<void>;
}

/** A service is not in the catalog; `reason` says why. */
export class ServiceMissing extends Error {}

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
  return {
    capabilities: () => detectCapabilities(c),
    async imageNames() {
      const names: string[] = [];
      let path: string | undefined = '/v2/images?limit=1000&status=active';
      // Glance pages with a `next` link; private and shared images included.
      for (let page = 0; path && page < 20; page++) {
        const res: { data: { images?: { name: string }[]; next?: string } } = await c.call('image', stripVersionSuffix(url('image')), { method: 'GET', path });
        names.push(...(res.data.images ?? []).map((i) => i.name));
        path = res.data.next;
      }
      return names;
    },
    flavors: async () => (await listFlavors(c, nova())).map((f) => ({ name: f.name, disk: f.disk })),
    serverGroups: async () => (await listServerGroups(c, nova())).map((g) => ({ id: g.id, name: g.name, policy: g.policy ?? g.policies?.[0] ?? '' })),
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
      const s = servers[0];
      const all = Object.values(s.addresses ?? {}).flat();
      const floating = all.filter((a) => a['OS-EXT-IPS:type'] === 'floating').map((a) => a.addr);
      if (floating.length) return { found: true, cidrs: floating, source: `floating IP of server ${name}` };
      // Some clouds do not list floating IPs in `addresses`: ask Neutron for the FIPs of its ports.
      const ports = await listPorts(c, neutron(), { deviceId: s.id });
      const fips = (await Promise.all(ports.map((p) => listFloatingIps(c, neutron(), { portId: p.id })))).flat();
      if (fips.length) return { found: true, cidrs: fips.map((f) => f.floating_ip_address), source: `floating IP of server ${name} (Neutron)` };
      return { found: false, reason: `server ${name} has no floating IP (its egress address cannot be known)` };
    },
    octaviaVersion: async () => highestVersion(await listVersions(c, octavia())),
    loadBalancers: async () => (await listLoadBalancers(c, octavia())).map((l) => ({ id: l.id, name: l.name, vipPortId: l.vip_port_id })),
    async deleteLoadBalancer(id) {
      await c.call('load-balancer', octavia(), { method: 'DELETE', path: `/v2/lbaas/loadbalancers/${encodeURIComponent(id)}?cascade=true`, expect: [202, 204, 404] });
    },
    floatingIpsOfPort: async (portId) => (await listFloatingIps(c, neutron(), { portId })).map((f) => ({ id: f.id, address: f.floating_ip_address })),
    async deleteFloatingIp(id) {
      await c.call('network', neutron(), { method: 'DELETE', path: `/v2.0/floatingips/${encodeURIComponent(id)}`, expect: [204, 404] });
    },
    async securityGroups() {
      const res = await c.call<{ security_groups?: { id: string; name: string; description?: string }[] }>('network', neutron(), { method: 'GET', path: '/v2.0/security-groups?fields=id&fields=name&fields=description' });
      return (res.data.security_groups ?? []).map((g) => ({ id: g.id, name: g.name, description: g.description ?? '' }));
    },
    async deleteSecurityGroup(id) {
      await c.call('network', neutron(), { method: 'DELETE', path: `/v2.0/security-groups/${encodeURIComponent(id)}`, expect: [204, 404] });
    },
  };
}
