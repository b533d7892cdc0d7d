import { stripVersionSuffix } from './catalog.js';
import { readAllPages } from './list-pages.js';
import type { Connection } from './connection.js';

/** A Neutron network (fields kaas uses). */
export interface Network {
  id: string;
  name: string;
  'router:external'?: boolean;
  mtu?: number;
  [key: string]: unknown;
}

/** A floating IP (fields kaas uses). */
export interface FloatingIp {
  id: string;
  floating_ip_address: string;
  fixed_ip_address?: string | null;
  port_id?: string | null;
  floating_network_id?: string;
  project_id?: string;
  [key: string]: unknown;
}

/** A port (fields kaas uses). */
export interface Port {
  id: string;
  name?: string;
  device_id?: string;
  network_id?: string;
  fixed_ips?: { subnet_id: string; ip_address: string }[];
  [key: string]: unknown;
}

/** The API root of a Neutron catalog URL (strips a "/v2.0" suffix some clouds register). */
export function neutronRoot(endpointUrl: string): string {
  return stripVersionSuffix(endpointUrl);
}

function query(params: Record<string, string | undefined>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined) q.append(k, v);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** Networks with router:external=True, i.e. the ones floating IPs come from. */
export async function listExternalNetworks(c: Connection, root: string): Promise<Network[]> {
  return readAllPages<Network>(c, 'network', root, '/v2.0/networks?router%3Aexternal=true', 'networks');
}

/** Floating IPs, optionally those attached to one port and those of one project (an admin token sees every project's). */
export async function listFloatingIps(c: Connection, root: string, filter: { portId?: string; address?: string; projectId?: string } = {}): Promise<FloatingIp[]> {
  return readAllPages<FloatingIp>(c, 'network', root, `/v2.0/floatingips${query({ port_id: filter.portId, floating_ip_address: filter.address, project_id: filter.projectId })}`, 'floatingips');
}

/** Ports, optionally of one device (server) or network. */
export async function listPorts(c: Connection, root: string, filter: { deviceId?: string; networkId?: string } = {}): Promise<Port[]> {
  return readAllPages<Port>(c, 'network', root, `/v2.0/ports${query({ device_id: filter.deviceId, network_id: filter.networkId })}`, 'ports');
}

/** Every floating IP of the project (every page), with the fields doctor reads (description says who made it). */
export async function listProjectFloatingIps(c: Connection, root: string): Promise<FloatingIp[]> {
  const fields = ['id', 'floating_ip_address', 'port_id', 'fixed_ip_address', 'description', 'status'];
  return readAllPages<FloatingIp>(c, 'network', root, `/v2.0/floatingips?${fields.map((f) => `fields=${f}`).join('&')}`, 'floatingips');
}

/** A security group (fields kaas uses; OCCM's are recognised by their description). */
export interface SecurityGroup {
  id: string;
  name: string;
  description?: string;
  project_id?: string;
}

/** What OCCM's security group of a Service says of its owner; `uid`, `namespace` and `service` where the name and description have OCCM's full form. */
export interface OccmSecurityGroup {
  cluster: string;
  uid?: string;
  namespace?: string;
  service?: string;
}

/**
 * OCCM's security group of a Service (manage-security-groups): named `lb-sg-<Service UID>-<namespace>-<name>`,
 * described "Security Group for <namespace>/<name> Service LoadBalancer in cluster <cluster-name>"
 * (cloud-provider-openstack pkg/openstack/loadbalancer_sg.go). Undefined for any other group.
 */
export function parseOccmSecurityGroup(sg: Pick<SecurityGroup, 'name' | 'description'>): OccmSecurityGroup | undefined {
  if (!sg.name.startsWith('lb-sg-')) return undefined;
  const cluster = / Service LoadBalancer in cluster (\S+)$/.exec(sg.description ?? '')?.[1];
  if (!cluster) return undefined;
  const uid = /^lb-sg-([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})-/.exec(sg.name)?.[1];
  const owner = /^Security Group for (\S+)\/(\S+) Service LoadBalancer in cluster \S+$/.exec(sg.description ?? '');
  return { cluster, uid, namespace: owner?.[1], service: owner?.[2] };
}

/** Security groups with their descriptions (and project); `projectId` asks for one project's only (an admin token sees every project's). */
export async function listSecurityGroups(c: Connection, root: string, projectId?: string): Promise<SecurityGroup[]> {
  const scope = projectId ? `&project_id=${encodeURIComponent(projectId)}` : '';
  const groups = await readAllPages<SecurityGroup>(c, 'network', root, `/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id${scope}`, 'security_groups');
  return groups.map((g) => (g.name === null ? { ...g, name: '' } : g));
}

/** Deletes a security group; an already deleted one (404) counts as done. */
export async function deleteSecurityGroup(c: Connection, root: string, id: string): Promise<void> {
  await c.call('network', root, { method: 'DELETE', path: `/v2.0/security-groups/${encodeURIComponent(id)}`, expect: [204, 404] });
}

/** Deletes a port; an already deleted one (404) counts as done. */
export async function deletePort(c: Connection, root: string, id: string): Promise<void> {
  await c.call('network', root, { method: 'DELETE', path: `/v2.0/ports/${encodeURIComponent(id)}`, expect: [204, 404] });
}

/** Deletes a floating IP; an already deleted one (404) counts as done. */
export async function deleteFloatingIp(c: Connection, root: string, id: string): Promise<void> {
  await c.call('network', root, { method: 'DELETE', path: `/v2.0/floatingips/${encodeURIComponent(id)}`, expect: [204, 404] });
}

/**
 * The floating IPs of a server: from Nova's `addresses` (type "floating") when listed there, else
 * from Neutron — some clouds do not list floating IPs in `addresses`, so the server's ports are
 * looked up and the floating IPs bound to each.
 */
export async function serverFloatingIps(c: Connection, root: string, server: { id: string; addresses?: Record<string, { addr: string; 'OS-EXT-IPS:type'?: string }[]> }): Promise<{ addresses: string[]; from: 'nova' | 'neutron' }> {
  const listed = Object.values(server.addresses ?? {}).flat().filter((a) => a['OS-EXT-IPS:type'] === 'floating').map((a) => a.addr);
  if (listed.length) return { addresses: listed, from: 'nova' };
  const ports = await listPorts(c, root, { deviceId: server.id });
  const fips = (await Promise.all(ports.map((p) => listFloatingIps(c, root, { portId: p.id })))).flat();
  return { addresses: fips.map((f) => f.floating_ip_address), from: 'neutron' };
}
