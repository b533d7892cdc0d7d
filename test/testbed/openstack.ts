/**
 * An independent reader of the testbed's OpenStack peer for the scenarios: plain fetch with a Keystone
 * token (password auth of the peer's demo user, project demo: the project kaas's application
 * credential belongs to, or admin), the endpoints from the token's catalog. It shares nothing with
 * kaas's lib/openstack, so a bug there cannot hide itself here. Also creates what OCCM would leave in a
 * cluster subnet (a Service load balancer with a floating IP), for the delete scenario.
 */
import fs from 'node:fs';
import path from 'node:path';
import { testbed } from './support.js';

type Json = any;
type Catalog = { type: string; endpoints: { interface: string; url: string }[] }[];

/** How many of each kind the project holds. */
export interface CloudCounts {
  networks: number;
  subnets: number;
  routers: number;
  ports: number;
  securityGroups: number;
  floatingIps: number;
  loadBalancers: number;
  listeners: number;
  pools: number;
  monitors: number;
  servers: number;
}

/** A token and the endpoints of one project. */
export interface OpenStackReader {
  projectId: string;
  get(service: 'network' | 'load-balancer' | 'compute' | 'image', p: string): Promise<Json>;
  send(service: 'network' | 'load-balancer' | 'compute' | 'image', method: string, p: string, body?: unknown): Promise<{ status: number; body: Json }>;
  counts(): Promise<CloudCounts>;
}

const tokens = new Map<string, OpenStackReader>();

/** A reader for the demo project (`who` = demo, default) or the admin project. */
export async function openstack(who: 'demo' | 'admin' = 'demo'): Promise<OpenStackReader> {
  const have = tokens.get(who);
  if (have) return have;
  const tb = testbed();
  const password = who === 'admin' ? tb.peer.OS_PEER_ADMIN_PASSWORD : tb.peer.OS_PEER_DEMO_PASSWORD;
  const auth = {
    auth: {
      identity: { methods: ['password'], password: { user: { name: who, domain: { id: 'default' }, password } } },
      scope: { project: { name: who, domain: { id: 'default' } } },
    },
  };
  const r = await fetch(`${tb.peer.OS_PEER_AUTH_URL}/auth/tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(auth) });
  if (r.status !== 201) throw new Error(`keystone: ${who} token: HTTP ${r.status}`);
  const token = r.headers.get('x-subject-token')!;
  const body = (await r.json()) as { token: { catalog: Catalog; project: { id: string } } };
  const url = (type: string) => {
    const e = body.token.catalog.find((c) => c.type === type)?.endpoints.find((x) => x.interface === 'public');
    if (!e) throw new Error(`keystone catalog: no public ${type} endpoint`);
    // Nova's catalog URL may carry the project id; everything else is the bare service root.
    return e.url.replace(/\/$/, '');
  };
  const base = (service: string) => (service === 'network' ? `${url('network')}/v2.0` : service === 'load-balancer' ? `${url('load-balancer')}/v2` : service === 'image' ? `${url('image')}/v2` : url('compute'));
  const send = async (service: string, method: string, p: string, b?: unknown) => {
    const res = await fetch(`${base(service)}${p}`, {
      method, headers: { 'X-Auth-Token': token, 'Content-Type': 'application/json', Accept: 'application/json', ...(service === 'compute' ? { 'OpenStack-API-Version': 'compute 2.79' } : {}) },
      body: b === undefined ? undefined : JSON.stringify(b),
    });
    const text = await res.text();
    return { status: res.status, body: text ? JSON.parse(text) : undefined };
  };
  const projectId = body.token.project.id;
  const reader: OpenStackReader = {
    projectId,
    send: send as OpenStackReader['send'],
    async get(service, p) {
      const res = await send(service, 'GET', p);
      if (res.status >= 300) throw new Error(`GET ${service} ${p}: HTTP ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
      return res.body;
    },
    async counts() {
      const own = `project_id=${projectId}`;
      const n = async (service: 'network' | 'load-balancer' | 'compute', p: string, key: string) => ((await reader.get(service, p))[key] as unknown[]).length;
      return {
        networks: await n('network', `/networks?${own}`, 'networks'),
        subnets: await n('network', `/subnets?${own}`, 'subnets'),
        routers: await n('network', `/routers?${own}`, 'routers'),
        ports: await n('network', `/ports?${own}`, 'ports'),
        securityGroups: await n('network', `/security-groups?${own}`, 'security_groups'),
        floatingIps: await n('network', `/floatingips?${own}`, 'floatingips'),
        loadBalancers: await n('load-balancer', `/lbaas/loadbalancers?${own}`, 'loadbalancers'),
        listeners: await n('load-balancer', `/lbaas/listeners?${own}`, 'listeners'),
        pools: await n('load-balancer', `/lbaas/pools?${own}`, 'pools'),
        monitors: await n('load-balancer', `/lbaas/healthmonitors?${own}`, 'healthmonitors'),
        servers: await n('compute', `/servers/detail?${own}`, 'servers'),
      };
    },
  };
  tokens.set(who, reader);
  return reader;
}

/** The names CAPO v0.14 gives a cluster's resources: `k8s-clusterapi-cluster-<namespace>-<cluster>`. */
export function capoName(namespace: string, cluster: string): string {
  return `k8s-clusterapi-cluster-${namespace}-${cluster}`;
}

/** What CAPO built for a cluster, found by its names in Neutron, Octavia and Nova. */
export async function capoResources(os: OpenStackReader, namespace: string, cluster: string) {
  const name = capoName(namespace, cluster);
  const own = `project_id=${os.projectId}`;
  const networks = (await os.get('network', `/networks?${own}&name=${name}`)).networks as Json[];
  const subnets = (await os.get('network', `/subnets?${own}&name=${name}`)).subnets as Json[];
  const routers = (await os.get('network', `/routers?${own}&name=${name}`)).routers as Json[];
  const sgs = ((await os.get('network', `/security-groups?${own}`)).security_groups as Json[]).filter((g) => String(g.name).startsWith(`k8s-cluster-${namespace}-${cluster}-secgroup-`));
  const lbs = ((await os.get('load-balancer', `/lbaas/loadbalancers?${own}`)).loadbalancers as Json[]).filter((l) => l.name === `k8s-clusterapi-cluster-${namespace}-${cluster}-kubeapi`);
  const fips = (await os.get('network', `/floatingips?${own}`)).floatingips as Json[];
  const apiFips = fips.filter((f) => lbs.some((l) => l.vip_port_id === f.port_id));
  const servers = ((await os.get('compute', `/servers/detail?${own}`)).servers as Json[]).filter((s) => String(s.name).startsWith(`${cluster}-`));
  return { networks, subnets, routers, sgs, lbs, apiFips, servers };
}

/** The listeners of a load balancer with their allowed_cidrs. */
export async function listenersOf(os: OpenStackReader, lbId: string): Promise<Json[]> {
  return (await os.get('load-balancer', `/lbaas/listeners?loadbalancer_id=${lbId}`)).listeners as Json[];
}

/** A flavor exists in Nova (admin creates it when missing): the testbed has only one. */
export async function ensureFlavor(name: string, vcpus: number, ram: number, disk: number): Promise<void> {
  const admin = await openstack('admin');
  const have = ((await admin.get('compute', '/flavors')).flavors as Json[]).some((f) => f.name === name);
  if (have) return;
  const r = await admin.send('compute', 'POST', '/flavors', { flavor: { name, vcpus, ram, disk, 'os-flavor-access:is_public': true } });
  if (r.status >= 300 && r.status !== 409) throw new Error(`create flavor ${name}: HTTP ${r.status} ${JSON.stringify(r.body)}`);
}

/** A public raw image of that name exists in Glance (admin uploads 4 KiB of zeros when missing). */
export async function ensureImage(name: string): Promise<void> {
  const admin = await openstack('admin');
  const have = ((await admin.get('image', `/images?name=${encodeURIComponent(name)}`)).images as Json[]).length > 0;
  if (have) return;
  const c = await admin.send('image', 'POST', '/images', { name, disk_format: 'raw', container_format: 'bare', visibility: 'public' });
  if (c.status >= 300) throw new Error(`create image ${name}: HTTP ${c.status} ${JSON.stringify(c.body)}`);
  const tb = testbed();
  const file = path.join(tb.dir, 'image.raw');
  const data = fs.existsSync(file) ? fs.readFileSync(file) : Buffer.alloc(4096);
  // The upload needs the octet-stream content type, which the JSON reader does not send.
  await uploadImage(c.body.id, data);
}

async function uploadImage(id: string, data: Buffer): Promise<void> {
  const tb = testbed();
  const auth = {
    auth: {
      identity: { methods: ['password'], password: { user: { name: 'admin', domain: { id: 'default' }, password: tb.peer.OS_PEER_ADMIN_PASSWORD } } },
      scope: { project: { name: 'admin', domain: { id: 'default' } } },
    },
  };
  const r = await fetch(`${tb.peer.OS_PEER_AUTH_URL}/auth/tokens`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(auth) });
  const token = r.headers.get('x-subject-token')!;
  const glance = tb.peer.OS_PEER_GLANCE_URL;
  const up = await fetch(`${glance}/v2/images/${id}/file`, { method: 'PUT', headers: { 'X-Auth-Token': token, 'Content-Type': 'application/octet-stream' }, body: data });
  if (up.status >= 300) throw new Error(`upload image ${id}: HTTP ${up.status} ${await up.text()}`);
}

/**
 * What OCCM leaves in a cluster subnet for a LoadBalancer Service: an Octavia LB named
 * `kube_service_<cluster>_<namespace>_<service>` with its VIP port in the subnet, and a floating IP
 * on that VIP (from the external network). Made with the demo project's token, as OCCM would with
 * the cluster's application credential. Returns the LB id and FIP id once the LB is ACTIVE.
 */
export async function createOccmLoadBalancer(os: OpenStackReader, occmCluster: string, subnetId: string, externalNetworkId: string, timeoutMs = 300_000): Promise<{ lbId: string; fipId: string; vipPortId: string }> {
  const name = `kube_service_${occmCluster}_default_web`;
  const c = await os.send('load-balancer', 'POST', '/lbaas/loadbalancers', { loadbalancer: { name, vip_subnet_id: subnetId, provider: 'amphora', description: `Kubernetes external service default/web from cluster ${occmCluster}` } });
  if (c.status >= 300) throw new Error(`create LB ${name}: HTTP ${c.status} ${JSON.stringify(c.body)}`);
  const lb = c.body.loadbalancer;
  const end = Date.now() + timeoutMs;
  for (;;) {
    const s = (await os.get('load-balancer', `/lbaas/loadbalancers/${lb.id}`)).loadbalancer;
    if (s.provisioning_status === 'ACTIVE') break;
    if (s.provisioning_status === 'ERROR' || Date.now() > end) throw new Error(`LB ${name}: ${s.provisioning_status}`);
    await new Promise((r) => setTimeout(r, 3000));
  }
  const f = await os.send('network', 'POST', '/floatingips', { floatingip: { floating_network_id: externalNetworkId, port_id: lb.vip_port_id, description: `Floating IP for Kubernetes external service default/web from cluster ${occmCluster}` } });
  if (f.status >= 300) throw new Error(`create FIP for ${name}: HTTP ${f.status} ${JSON.stringify(f.body)}`);
  return { lbId: lb.id, fipId: f.body.floatingip.id, vipPortId: lb.vip_port_id };
}
