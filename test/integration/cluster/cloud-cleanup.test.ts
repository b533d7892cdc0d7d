import { readFileSync } from 'node:fs';
import path from 'node:path';
import { openstackClusterCloud, ServiceMissing } from '../../../lib/cluster/cloud.js';
import { cleanupCloud, planCloudCleanup } from '../../../lib/cluster/delete/cloud.js';
import { realClock } from '../../../lib/cluster/wait.js';
import { memoryLogger } from '../../../lib/log.js';
import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect, type Connection } from '../../../lib/openstack/connection.js';
import { tempDir } from '../../support/cli.js';
import { sqliteRetry } from '../../support/doctor-project.js';
import { peer } from '../../support/peer.js';
import { recordPrinted } from '../../support/printed.js';

/**
 * delete-cluster's cloud side against the real Neutron and Octavia of the test peer (Nova is not
 * part of the peer: server groups are reported as skipped, which is what a cloud without Nova in
 * its catalog answers). An OVN load balancer named as OCCM names it, with a floating IP on its VIP
 * port, and CAPO-named security groups are created, found and removed; a second pass finds nothing.
 */
const T = 180_000;
const OCTAVIA = 'http://127.0.0.1:9876';
const NEUTRON = 'http://127.0.0.1:9696';

function privateSubnet(): string {
  const env = readFileSync(path.join(peer().dir, 'peer.env'), 'utf8');
  const m = /^OS_PEER_PRIVATE_SUBNET_ID=(.+)$/m.exec(env);
  if (!m) throw new Error('peer.env has no OS_PEER_PRIVATE_SUBNET_ID');
  return m[1].trim();
}

async function demoConnection(logger = memoryLogger(true)): Promise<Connection> {
  const cloud = resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: peer().cloudsFile }, cwd: tempDir(), home: tempDir(), etcDir: tempDir(), cloudFlag: 'peer-demo-appcred' });
  return connect(cloud, { logger, timeoutMs: 30_000 });
}

async function until(what: string, fn: () => Promise<boolean>, seconds = 60): Promise<void> {
  for (let i = 0; i < seconds; i++) {
    if (await fn()) return;
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error(`${what}: not reached in ${seconds}s`);
}

describe('delete-cluster cloud cleanup against the test peer', () => {
  it('finds and removes kube_service_<cluster>_* LBs with their FIPs and CAPO security groups; a second pass is a no-op', async () => {
    const logger = memoryLogger(true);
    const c = await demoConnection(logger);
    const cloud = openstackClusterCloud(c);
    const created: string[] = [];
    try {
      const lb = await sqliteRetry(() => c.call<{ loadbalancer: { id: string; vip_port_id: string } }>('load-balancer', OCTAVIA, {
        method: 'POST', path: '/v2/lbaas/loadbalancers', body: { loadbalancer: { name: 'kube_service_peerdel_ingress-nginx_ingress-nginx-controller', vip_subnet_id: privateSubnet(), provider: 'ovn' } },
      }));
      const lbId = lb.data.loadbalancer.id;
      await until('load balancer ACTIVE', async () => {
        const s = await c.call<{ loadbalancer: { provisioning_status: string } }>('load-balancer', OCTAVIA, { method: 'GET', path: `/v2/lbaas/loadbalancers/${lbId}` });
        return s.data.loadbalancer.provisioning_status === 'ACTIVE';
      });
      const [ext] = await cloud.externalNetworks();
      const fip = await sqliteRetry(() => c.call<{ floatingip: { id: string; floating_ip_address: string } }>('network', NEUTRON, {
        method: 'POST', path: '/v2.0/floatingips', body: { floatingip: { floating_network_id: ext.id, port_id: lb.data.loadbalancer.vip_port_id } },
      }));
      // CAPO's groups by name; OCCM's member groups (lb-sg-<Service UID>-<ns>-<name>) by their description.
      const occmSg = (c2: string) => ({ name: `lb-sg-3f2a1b0c-9d8e-4f7a-8b6c-5d4e3f2a1b0c-app-web`, description: `Security Group for app/web Service LoadBalancer in cluster ${c2}` });
      for (const body of [{ name: 'k8s-cluster-default-peerdel-secgroup-worker' }, { name: 'k8s-cluster-default-peerother-secgroup-worker' }, occmSg('peerdel'), occmSg('peerother')]) {
        const sg = await sqliteRetry(() => c.call<{ security_group: { id: string } }>('network', NEUTRON, { method: 'POST', path: '/v2.0/security-groups', body: { security_group: body } }));
        created.push(sg.data.security_group.id);
      }

      const plan = await planCloudCleanup(cloud, 'peerdel', 'capi', 'default', logger);
      expect(plan.slice(0, 2).map((i) => [i.kind, i.id])).toEqual([
        ['floating ip', fip.data.floatingip.id],
        ['load balancer', lbId],
      ]);
      // Neutron lists groups in its own order.
      expect(plan.slice(2).map((i) => `${i.kind} ${i.id}`).sort()).toEqual([`security group ${created[0]}`, `security group ${created[2]}`].sort());
      expect(logger.lines.join('\n')).toMatch(/- server groups: skipped: the catalog has no "compute" service/);

      await cleanupCloud(cloud, plan, logger, realClock, 120);
      await until('load balancer gone', async () => !(await cloud.loadBalancers()).some((l) => l.id === lbId));
      expect(await planCloudCleanup(cloud, 'peerdel', 'capi', 'default', logger)).toEqual([]);
      const kept = (await cloud.securityGroups()).map((g) => g.id);
      expect(kept).toContain(created[1]);
      expect(kept).toContain(created[3]);
      // Deleting what is already gone is fine (404 counts as done).
      await cloud.deleteFloatingIp(fip.data.floatingip.id);
      await cloud.deleteSecurityGroup(created[0]);
    } finally {
      for (const id of created) await cloud.deleteSecurityGroup(id);
      recordPrinted('cluster cloud cleanup', logger.lines.join('\n'), peer().secrets);
    }
  }, T);

  it('reports Nova missing from the catalog as ServiceMissing (a skip, not a crash)', async () => {
    const cloud = openstackClusterCloud(await demoConnection());
    await expect(cloud.serverGroups()).rejects.toBeInstanceOf(ServiceMissing);
    const caps = await cloud.capabilities();
    expect(caps.octavia).toMatchObject({ present: true, maxVersion: '2.26' });
  }, T);
});
