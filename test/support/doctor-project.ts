import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { memoryLogger } from '../../lib/log.js';
import { resolveCloudConfig } from '../../lib/openstack/cloud-config.js';
import { connect, type Connection } from '../../lib/openstack/connection.js';
import { tempDir } from './cli.js';
import { peer } from './peer.js';

/**
 * A project of its own on the shared peer for tests that break things on purpose (lowered quotas,
 * LBs forced into ERROR): user demo gets member + load-balancer_member there, a network and subnet
 * for VIPs, and a clouds.yaml entry `<project>` pointing at it. Idempotent; other tests' project
 * "demo" is never touched.
 */
export interface TestProject {
  name: string;
  projectId: string;
  subnetId: string;
  cloudsFile: string;
  admin: Connection;
  demo: Connection;
}

const OCTAVIA = 'http://127.0.0.1:9876';
const NEUTRON = 'http://127.0.0.1:9696';

async function conn(cloudsFile: string, cloud: string): Promise<Connection> {
  const cfg = resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: cloudsFile }, cwd: tempDir(), home: tempDir(), etcDir: tempDir(), cloudFlag: cloud });
  return connect(cfg, { logger: memoryLogger(true), timeoutMs: 60_000 });
}

/** Neutron on sqlite answers a racing write with HTTP 500 "database is locked"; fixtures retry (kaas does not). */
export async function sqliteRetry<T>(fn: () => Promise<T>, tries = 6): Promise<T> {
  for (let i = 1; ; i++) {
    try {
      return await fn();
    } catch (e) {
      if (i >= tries || (e as { status?: number }).status !== 500) throw e;
      await new Promise((r) => setTimeout(r, 500 * i));
    }
  }
}

async function keystone<T>(admin: Connection, method: 'GET' | 'POST' | 'PUT', p: string, body?: unknown): Promise<T> {
  // The auth URL as the connection has it: peer.env may be rewritten by a concurrent start.sh.
  const res = await admin.http.send<T>({ method, url: `${admin.cloud.auth.authUrl.replace(/\/+$/, '')}${p}`, service: 'Keystone', headers: { 'X-Auth-Token': admin.session.token }, body });
  return res.data;
}

/** Ensures the project, roles, network and clouds.yaml entry. */
export async function testProject(name: string): Promise<TestProject> {
  const p = peer();
  const admin = await conn(p.cloudsFile, 'peer-admin');
  let project = (await keystone<{ projects: { id: string }[] }>(admin, 'GET', `/projects?name=${name}`)).projects[0];
  project ??= (await keystone<{ project: { id: string } }>(admin, 'POST', '/projects', { project: { name, domain_id: 'default' } })).project;
  const roles = (await keystone<{ roles: { id: string; name: string }[] }>(admin, 'GET', '/roles')).roles;
  for (const r of roles.filter((x) => x.name === 'member' || x.name === 'load-balancer_member')) {
    await keystone(admin, 'PUT', `/projects/${project.id}/users/${p.demoUserId}/roles/${r.id}`);
  }
  const dir = tempDir('kaas-doctor-clouds-');
  const cloudsFile = path.join(dir, 'clouds.yaml');
  fs.writeFileSync(cloudsFile, `clouds:\n  ${name}:\n    auth:\n      auth_url: ${p.authUrl}\n      username: demo\n      password: ${p.demoPassword}\n      project_name: ${name}\n      user_domain_name: Default\n      project_domain_name: Default\n    region_name: ${p.region}\n    interface: public\n    identity_api_version: 3\n`, { mode: 0o600 });
  const demo = await conn(cloudsFile, name);
  const get = async <T>(q: string) => (await demo.call<T>('network', NEUTRON, { method: 'GET', path: q })).data;
  let net = (await get<{ networks: { id: string }[] }>(`/v2.0/networks?name=${name}-net`)).networks[0];
  net ??= (await sqliteRetry(() => demo.call<{ network: { id: string } }>('network', NEUTRON, { method: 'POST', path: '/v2.0/networks', body: { network: { name: `${name}-net` } } }))).data.network;
  let sub = (await get<{ subnets: { id: string }[] }>(`/v2.0/subnets?name=${name}-subnet`)).subnets[0];
  sub ??= (await sqliteRetry(() => demo.call<{ subnet: { id: string } }>('network', NEUTRON, {
    method: 'POST', path: '/v2.0/subnets', body: { subnet: { name: `${name}-subnet`, network_id: net.id, ip_version: 4, cidr: '10.77.0.0/22' } },
  }))).data.subnet;
  return { name, projectId: project.id, subnetId: sub.id, cloudsFile, admin, demo };
}

/**
 * Sets load balancers' provisioning_status straight in the peer's Octavia database: the peer's
 * amphora driver has no worker (no message bus), so its LBs stay PENDING_CREATE, and no API call
 * can put one into ERROR or delete it. "DELETED" hides an LB from every list, as Octavia does.
 */
export function setLbStatus(where: { id?: string; projectId?: string }, status: string): void {
  const db = path.join(peer().dir, 'octavia', 'octavia.db');
  const [col, val] = where.id ? ['id', where.id] : ['project_id', where.projectId!];
  const r = spawnSync('python3', ['-c', `import sqlite3,sys
c = sqlite3.connect(sys.argv[1], timeout=60)
c.execute("UPDATE load_balancer SET provisioning_status=? WHERE ${col}=? AND provisioning_status!='DELETED'", (sys.argv[2], sys.argv[3]))
c.commit()`, db, status, val], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`octavia db update failed: ${r.stderr}`);
}

/**
 * Sets pool members' operating_status straight in the peer's Octavia database: on the peer no
 * ovn-controller runs the OVN health checks, so every member stays ERROR; a real cloud's monitor
 * reports ONLINE for the nodes that run a pod of an ETP Local Service.
 */
export function setMemberStatus(poolId: string, address: string, status: string): void {
  const db = path.join(peer().dir, 'octavia', 'octavia.db');
  const r = spawnSync('python3', ['-c', `import sqlite3,sys
c = sqlite3.connect(sys.argv[1], timeout=60)
c.execute("UPDATE member SET operating_status=? WHERE pool_id=? AND ip_address=?", (sys.argv[2], sys.argv[3], sys.argv[4]))
c.commit()`, db, status, poolId, address], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`octavia db update failed: ${r.stderr}`);
}

/**
 * Sets a pool's health monitor's provisioning_status straight in the peer's Octavia database: the
 * peer's ovn provider (3.0.0, Neutron without the OVN metadata port) puts every monitor in ERROR; a
 * cloud whose provider has a health-check source port reports ACTIVE.
 */
export function setMonitorStatus(poolId: string, status: string): void {
  const db = path.join(peer().dir, 'octavia', 'octavia.db');
  const r = spawnSync('python3', ['-c', `import sqlite3,sys
c = sqlite3.connect(sys.argv[1], timeout=60)
c.execute("UPDATE health_monitor SET provisioning_status=? WHERE pool_id=?", (sys.argv[2], sys.argv[3]))
c.commit()`, db, status, poolId], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`octavia db update failed: ${r.stderr}`);
}

/** Creates a load balancer (provider amphora or ovn) on the project's subnet; returns its id. */
export async function createLb(t: TestProject, name: string, provider: 'amphora' | 'ovn'): Promise<string> {
  const r = await sqliteRetry(() => t.demo.call<{ loadbalancer: { id: string } }>('load-balancer', OCTAVIA, {
    method: 'POST', path: '/v2/lbaas/loadbalancers', body: { loadbalancer: { name, vip_subnet_id: t.subnetId, provider } },
  }));
  return r.data.loadbalancer.id;
}

/** Waits until an LB leaves PENDING_*. */
export async function settled(t: TestProject, id: string, seconds = 60): Promise<string> {
  for (let i = 0; i < seconds * 2; i++) {
    const s = (await t.demo.call<{ loadbalancer: { provisioning_status: string } }>('load-balancer', OCTAVIA, { method: 'GET', path: `/v2/lbaas/loadbalancers/${id}` })).data.loadbalancer.provisioning_status;
    if (!s.startsWith('PENDING_')) return s;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`load balancer ${id} still PENDING after ${seconds}s`);
}

/** Sets Octavia and Neutron quotas of the project as admin (-1 = unlimited). */
export async function setQuotas(t: TestProject, octavia: Record<string, number>, neutron: Record<string, number>): Promise<void> {
  await t.admin.call('load-balancer', OCTAVIA, { method: 'PUT', path: `/v2/lbaas/quotas/${t.projectId}`, body: { quota: octavia } });
  await sqliteRetry(() => t.admin.call('network', NEUTRON, { method: 'PUT', path: `/v2.0/quotas/${t.projectId}`, body: { quota: neutron } }));
}

export { OCTAVIA, NEUTRON };
