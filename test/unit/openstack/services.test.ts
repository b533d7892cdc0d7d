import { connect, type Connection } from '../../../lib/openstack/connection.js';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { findImagesByName } from '../../../lib/openstack/glance.js';
import { listFloatingIps, listPorts } from '../../../lib/openstack/neutron.js';
import { createServerGroup, deleteServerGroup, findServersByName, listFlavors } from '../../../lib/openstack/nova.js';
import { findLoadBalancer } from '../../../lib/openstack/octavia.js';
import { memoryLogger } from '../../../lib/log.js';
import { tokenCall } from '../../support/openstack-fixtures.js';
import { scriptedServer, type ScriptStep } from '../../support/scripted-http.js';

const TOKEN = 'gAAAAABservices-token-1';
const SERVICES = { compute: '/compute/v2.1/p1', network: '/network', 'load-balancer': '/lb', image: '/image/v2' };

async function withCloud(steps: ScriptStep[], fn: (c: Connection, base: string) => Promise<void>) {
  const srv = await scriptedServer([tokenCall(TOKEN, SERVICES), ...steps]);
  const cloud: CloudConfig = { name: 's', source: 't', interface: 'public', verify: true, auth: { kind: 'application_credential', authUrl: `${srv.url}/v3`, applicationCredentialId: 'a', applicationCredentialSecret: 'b-secret' } };
  const c = await connect(cloud, { logger: memoryLogger() });
  try {
    await fn(c, srv.url);
  } finally {
    await srv.finish();
  }
}

describe('service calls later issues use (scripted)', () => {
  it('Nova: server by exact name (the name filter is a regex, so it is anchored and escaped)', async () => {
    await withCloud([{
      method: 'GET', path: `/compute/v2.1/p1/servers/detail?name=${encodeURIComponent('^mgmt\\.host$')}`, headers: { 'openstack-api-version': 'compute 2.64' },
      response: { servers: [{ id: '1', name: 'mgmt.host' }, { id: '2', name: 'mgmt.host-2' }] },
    }], async (c, base) => {
      expect(await findServersByName(c, `${base}/compute/v2.1/p1`, 'mgmt.host')).toEqual([{ id: '1', name: 'mgmt.host' }]);
    });
  });

  it('Nova: flavors, server group create (one policy) and delete (404 counts as done)', async () => {
    await withCloud([
      { method: 'GET', path: '/compute/v2.1/p1/flavors/detail', response: { flavors: [{ id: 'f', name: 'SCS-2V-4', vcpus: 2, ram: 4096, disk: 20 }] } },
      { method: 'POST', path: '/compute/v2.1/p1/os-server-groups', body: { server_group: { name: 'k8s-cp', policy: 'anti-affinity' } }, response: { server_group: { id: 'g1', name: 'k8s-cp', policy: 'anti-affinity' } } },
      { method: 'DELETE', path: '/compute/v2.1/p1/os-server-groups/g1', status: 404, response: { itemNotFound: { code: 404, message: 'gone' } } },
    ], async (c, base) => {
      const root = `${base}/compute/v2.1/p1`;
      expect((await listFlavors(c, root))[0].name).toBe('SCS-2V-4');
      expect((await createServerGroup(c, root, 'k8s-cp', 'anti-affinity')).id).toBe('g1');
      await deleteServerGroup(c, root, 'g1');
    });
  });

  it('Neutron: floating IPs of a port, ports of a device', async () => {
    await withCloud([
      { method: 'GET', path: '/network/v2.0/floatingips?port_id=p9', response: { floatingips: [{ id: 'f1', floating_ip_address: '203.0.113.7' }] } },
      { method: 'GET', path: '/network/v2.0/ports?device_id=srv1', response: { ports: [{ id: 'p9' }] } },
    ], async (c, base) => {
      expect((await listFloatingIps(c, `${base}/network`, { portId: 'p9' }))[0].floating_ip_address).toBe('203.0.113.7');
      expect(await listPorts(c, `${base}/network`, { deviceId: 'srv1' })).toEqual([{ id: 'p9' }]);
    });
  });

  it('Octavia: load balancer by name; two with one name is an error', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers?name=ingress', response: { loadbalancers: [{ id: 'l1', name: 'ingress' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers?name=dup', response: { loadbalancers: [{ id: 'a', name: 'dup' }, { id: 'b', name: 'dup' }] } },
    ], async (c, base) => {
      expect((await findLoadBalancer(c, `${base}/lb`, 'ingress'))?.id).toBe('l1');
      await expect(findLoadBalancer(c, `${base}/lb`, 'dup')).rejects.toThrow(/2 Octavia load balancers are named "dup"/);
    });
  });

  it('Glance: images by exact name (catalog URL with /v2 suffix)', async () => {
    await withCloud([{ method: 'GET', path: '/image/v2/images?name=ubuntu-capi-image-v1.33.4', response: { images: [{ id: 'i1', name: 'ubuntu-capi-image-v1.33.4' }] } }],
      async (c, base) => {
        expect((await findImagesByName(c, `${base}/image/v2`, 'ubuntu-capi-image-v1.33.4'))[0].id).toBe('i1');
      });
  });
});
