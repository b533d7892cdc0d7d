import { checkedEntry, checkedList } from './answer-check.js';
import { readAllPages } from './list-pages.js';
import { OperationError } from '../errors.js';
import { stripVersionSuffix } from './catalog.js';
import { compareVersions, parseVersion } from './api-versions.js';

export { compareVersions, parseVersion };
import type { Connection } from './connection.js';

/** One entry of Octavia's `GET /` version document. */
export interface ApiVersion {
  id: string;
  status?: string;
  updated?: string;
}

/** An Octavia provider driver as `GET /v2/lbaas/providers` lists it. */
export interface Provider {
  name: string;
  description?: string;
}

/** The fields of a load balancer kaas reads (VIP for the real-IP decision, port for its floating IP). */
export interface LoadBalancer {
  id: string;
  name: string;
  provider?: string;
  vip_address?: string;
  vip_port_id?: string;
  provisioning_status?: string;
  operating_status?: string;
  project_id?: string;
  [key: string]: unknown;
}

/**
 * The highest version in the list, without the leading "v" (e.g. "2.26"). Compared numerically,
 * never by `updated` (v2.7 carries an out-of-order date) nor by position.
 */
export function highestVersion(versions: ApiVersion[]): string | undefined {
  const ids = versions.map((v) => v.id).filter((id) => parseVersion(id));
  if (ids.length === 0) return undefined;
  const best = ids.reduce((a, b) => (compareVersions(a, b) >= 0 ? a : b));
  const [maj, min] = parseVersion(best)!;
  return `${maj}.${min}`;
}

/** The API root of an Octavia catalog URL (strips a "/v2" or "/v2.0" suffix). */
export function octaviaRoot(endpointUrl: string): string {
  return stripVersionSuffix(endpointUrl);
}

/** `GET /` → the version list. The root needs no token but sending one does no harm. */
export async function listVersions(c: Connection, root: string): Promise<ApiVersion[]> {
  const res = await c.call<unknown>('load-balancer', root, { method: 'GET', path: '/' });
  return checkedList<ApiVersion>(res, 'versions');
}

/** `GET /v2/lbaas/providers` → enabled provider drivers. */
export async function listProviders(c: Connection, root: string): Promise<Provider[]> {
  // An answer without the list is an error, not "no providers" (that read as a green plan).
  return readAllPages<Provider>(c, 'load-balancer', root, '/v2/lbaas/providers', 'providers');
}

/**
 * Load balancers, optionally filtered by exact name and by project. Octavia lists every project's
 * to an administrative or global-reader token (api-ref "List Load Balancers"); `projectId` asks only
 * for that project's (`project_id` filter).
 */
export async function listLoadBalancers(c: Connection, root: string, name?: string, projectId?: string): Promise<LoadBalancer[]> {
  const params = [...(name ? [`name=${encodeURIComponent(name)}`] : []), ...(projectId ? [`project_id=${encodeURIComponent(projectId)}`] : [])];
  const q = params.length ? `?${params.join('&')}` : '';
  // A load balancer created without a name may list it as null; kaas reads names as text.
  return (await readAllPages<LoadBalancer>(c, 'load-balancer', root, `/v2/lbaas/loadbalancers${q}`, 'loadbalancers')).map((l) => (l.name === null ? { ...l, name: '' } : l));
}

/** The load balancer named `name`, or undefined; several with that name is an error. */
export async function findLoadBalancer(c: Connection, root: string, name: string): Promise<LoadBalancer | undefined> {
  const found = await listLoadBalancers(c, root, name);
  if (found.length > 1) {
    throw new OperationError(`${found.length} Octavia load balancers are named "${name}" (ids ${found.map((l) => l.id).join(', ')})`, {
      hint: 'delete the stray ones (openstack loadbalancer delete ID) or rename them',
    });
  }
  return found[0];
}

/** `GET /v2/lbaas/loadbalancers/{id}`: the load balancer, or undefined when Octavia has none with that id (404). */
export async function getLoadBalancer(c: Connection, root: string, id: string): Promise<LoadBalancer | undefined> {
  const res = await c.call<unknown>('load-balancer', root, { method: 'GET', path: `/v2/lbaas/loadbalancers/${encodeURIComponent(id)}`, expect: [200, 404] });
  return res.status === 404 ? undefined : checkedEntry<LoadBalancer>(res, 'loadbalancer', 'loadbalancers');
}

/** Deletes a load balancer with its listeners, pools and monitors (cascade); an already deleted one (404) counts as done. */
export async function deleteLoadBalancer(c: Connection, root: string, id: string): Promise<void> {
  await c.call('load-balancer', root, { method: 'DELETE', path: `/v2/lbaas/loadbalancers/${encodeURIComponent(id)}?cascade=true`, expect: [202, 204, 404] });
}

/**
 * OCCM's name for a Service's Octavia load balancer: `kube_service_<cluster-name>_<namespace>_<service>`
 * (cloud-provider-openstack pkg/openstack/loadbalancer.go, `cluster-name` is OCCM's --cluster-name).
 */
export function occmLoadBalancerName(cluster: string, namespace: string, service: string): string {
  return `${occmLoadBalancerPrefix(cluster)}${namespace}_${service}`;
}

/** The prefix every OCCM load balancer of a cluster starts with. */
export function occmLoadBalancerPrefix(cluster: string): string {
  return `kube_service_${cluster}_`;
}

/** A listener (fields doctor and the post-apply verification read). */
export interface Listener {
  id: string;
  name?: string;
  protocol: string;
  protocol_port: number;
  allowed_cidrs?: string[] | null;
  default_pool_id?: string | null;
  loadbalancers?: { id: string }[];
  [key: string]: unknown;
}

/** A pool. */
export interface Pool {
  id: string;
  name?: string;
  protocol: string;
  lb_algorithm: string;
  healthmonitor_id?: string | null;
  loadbalancers?: { id: string }[];
  listeners?: { id: string }[];
  members?: { id: string }[];
  provisioning_status?: string;
  operating_status?: string;
  [key: string]: unknown;
}

/** A health monitor (Octavia reports its provisioning_status: ACTIVE, PENDING_CREATE/UPDATE/DELETE, ERROR or DELETED; and an operating_status). */
export interface HealthMonitor {
  id: string;
  name?: string;
  type: string;
  pools?: { id: string }[];
  provisioning_status?: string;
  operating_status?: string;
  created_at?: string | null;
  updated_at?: string | null;
  [key: string]: unknown;
}

/** A pool member. */
export interface Member {
  id: string;
  name?: string;
  address: string;
  protocol_port: number;
  monitor_port?: number | null;
  operating_status?: string;
  provisioning_status?: string;
  [key: string]: unknown;
}

/** Server-side filters of the Octavia list calls (exact match, as the API defines them). */
export interface OctaviaFilter {
  loadbalancerId?: string;
  name?: string;
}

function octaviaQuery(f: OctaviaFilter = {}): string {
  const q = new URLSearchParams();
  if (f.loadbalancerId) q.append('loadbalancer_id', f.loadbalancerId);
  if (f.name) q.append('name', f.name);
  const s = q.toString();
  return s ? `?${s}` : '';
}

async function listOf<T>(c: Connection, root: string, collection: string, f?: OctaviaFilter): Promise<T[]> {
  return readAllPages<T>(c, 'load-balancer', root, `/v2/lbaas/${collection}${octaviaQuery(f)}`, collection);
}

/** Listeners of the project (every page), optionally of one load balancer. */
export function listListeners(c: Connection, root: string, f?: OctaviaFilter): Promise<Listener[]> {
  return listOf<Listener>(c, root, 'listeners', f);
}

/** Pools of the project (every page), optionally of one load balancer. */
export function listPools(c: Connection, root: string, f?: OctaviaFilter): Promise<Pool[]> {
  return listOf<Pool>(c, root, 'pools', f);
}

/** Health monitors of the project (every page) (Octavia filters them by pool, not by load balancer). */
export function listHealthMonitors(c: Connection, root: string): Promise<HealthMonitor[]> {
  return listOf<HealthMonitor>(c, root, 'healthmonitors');
}

/** Members of one pool (Octavia has no project-wide member list). */
export async function listMembers(c: Connection, root: string, poolId: string): Promise<Member[]> {
  return readAllPages<Member>(c, 'load-balancer', root, `/v2/lbaas/pools/${encodeURIComponent(poolId)}/members`, 'members');
}
