import type { Connection } from './connection.js';
import { readAllPages } from './list-pages.js';

/** A server (fields kaas uses; `addresses` maps network name → addresses). */
export interface Server {
  id: string;
  name: string;
  status?: string;
  addresses?: Record<string, { addr: string; version: number; 'OS-EXT-IPS:type'?: 'fixed' | 'floating' }[]>;
  [key: string]: unknown;
}

/** A flavor (fields kaas uses). */
export interface Flavor {
  id: string;
  name: string;
  vcpus?: number;
  ram?: number;
  disk?: number;
}

/** A server group. */
export interface ServerGroup {
  id: string;
  name: string;
  policies?: string[];
  policy?: string;
  members?: string[];
}

// The compute catalog URL already carries the version (and often the project id), e.g.
// https://nova.example:8774/v2.1/<project>; paths are appended to it unchanged.
// 2.64 is the first microversion with the single `policy` field for server groups.
const MICROVERSION = { 'OpenStack-API-Version': 'compute 2.64', 'X-OpenStack-Nova-API-Version': '2.64' };

/** Servers whose name is exactly `name` (Nova's name filter is a regex, so the result is re-checked). */
export async function findServersByName(c: Connection, root: string, name: string): Promise<Server[]> {
  const pattern = `^${name.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`;
  const servers = await readAllPages<Server>(c, 'compute', root, `/servers/detail?name=${encodeURIComponent(pattern)}`, 'servers', MICROVERSION);
  return servers.filter((s) => s.name === name);
}

/** All flavors with their sizes. */
export async function listFlavors(c: Connection, root: string): Promise<Flavor[]> {
  return readAllPages<Flavor>(c, 'compute', root, '/flavors/detail', 'flavors', MICROVERSION);
}

/** Server groups of the project. */
export async function listServerGroups(c: Connection, root: string): Promise<ServerGroup[]> {
  return readAllPages<ServerGroup>(c, 'compute', root, '/os-server-groups', 'server_groups', MICROVERSION);
}

/** Creates a server group with one policy (anti-affinity, soft-anti-affinity, …). */
export async function createServerGroup(c: Connection, root: string, name: string, policy: string): Promise<ServerGroup> {
  const res = await c.call<{ server_group: ServerGroup }>('compute', root, {
    method: 'POST', path: '/os-server-groups', headers: MICROVERSION, body: { server_group: { name, policy } },
  });
  return res.data.server_group;
}

/** Deletes a server group; an already deleted one (404) counts as done. */
export async function deleteServerGroup(c: Connection, root: string, id: string): Promise<void> {
  await c.call('compute', root, { method: 'DELETE', path: `/os-server-groups/${encodeURIComponent(id)}`, headers: MICROVERSION, expect: [202, 204, 404] });
}
