import { stripVersionSuffix } from './catalog.js';
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
  const res = await c.call<{ networks?: Network[] }>('network', root, {
    method: 'GET', path: '/v2.0/networks?router%3Aexternal=true',
  });
  return res.data?.networks ?? [];
}

/** Floating IPs of the project, optionally those attached to one port. */
export async function listFloatingIps(c: Connection, root: string, filter: { portId?: string; address?: string } = {}): Promise<FloatingIp[]> {
  const res = await c.call<{ floatingips?: FloatingIp[] }>('network', root, {
    method: 'GET', path: `/v2.0/floatingips${query({ port_id: filter.portId, floating_ip_address: filter.address })}`,
  });
  return res.data?.floatingips ?? [];
}

/** Ports, optionally of one device (server) or network. */
export async function listPorts(c: Connection, root: string, filter: { deviceId?: string; networkId?: string } = {}): Promise<Port[]> {
  const res = await c.call<{ ports?: Port[] }>('network', root, {
    method: 'GET', path: `/v2.0/ports${query({ device_id: filter.deviceId, network_id: filter.networkId })}`,
  });
  return res.data?.ports ?? [];
}

/** Every floating IP of the project in one call, with the fields doctor reads (description says who made it). */
export async function listProjectFloatingIps(c: Connection, root: string): Promise<FloatingIp[]> {
  const fields = ['id', 'floating_ip_address', 'port_id', 'fixed_ip_address', 'description', 'status'];
  const res = await c.call<{ floatingips?: FloatingIp[] }>('network', root, {
    method: 'GET', path: `/v2.0/floatingips?${fields.map((f) => `fields=${f}`).join('&')}`,
  });
  return res.data?.floatingips ?? [];
}
