import type { Connection } from '../../../lib/openstack/connection.js';
import { openstackClusterCloud } from '../../../lib/cluster/cloud.js';
import { GLANCE_MAX_PAGES, listImageNames } from '../../../lib/openstack/glance.js';
import { deleteFloatingIp, deleteSecurityGroup, listFloatingIps, listPorts, listSecurityGroups } from '../../../lib/openstack/neutron.js';
import { createServerGroup, deleteServerGroup, findServersByName, listFlavors } from '../../../lib/openstack/nova.js';
import { deleteLoadBalancer, findLoadBalancer, occmLoadBalancerName, occmLoadBalancerPrefix } from '../../../lib/openstack/octavia.js';
import { withScriptedCloud } from '../../support/openstack-fixtures.js';
import type { ScriptStep } from '../../support/scripted-http.js';

const TOKEN = 'gAAAAABservices-token-1';
const SERVICES = { compute: '/compute/v2.1/p1', network: '/network', 'load-balancer': '/lb', image: '/image/v2' };

const withCloud = (steps: ScriptStep[], fn: (c: Connection, base: string) => Promise<void>) => withScriptedCloud(TOKEN, SERVICES, steps, fn);

describe('OpenStack service calls (scripted)', () => {
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

  it('Glance: image names across pages, following `next` until it is absent', async () => {
    await withCloud([
      { method: 'GET', path: '/image/v2/images?limit=1000&status=active', response: { images: [{ id: 'i1', name: 'a' }, { id: 'i2', name: 'b' }], next: '/v2/images?limit=1000&status=active&marker=i2' } },
      { method: 'GET', path: '/image/v2/images?limit=1000&status=active&marker=i2', response: { images: [{ id: 'i3', name: 'c' }], next: '/v2/images?limit=1000&status=active&marker=i3' } },
      { method: 'GET', path: '/image/v2/images?limit=1000&status=active&marker=i3', response: { images: [] } },
    ], async (c, base) => {
      expect(await listImageNames(c, `${base}/image`)).toEqual(['a', 'b', 'c']);
    });
  });

  it(`Glance: stops after ${GLANCE_MAX_PAGES} pages even when \`next\` keeps coming`, async () => {
    const page = (i: number) => ({ method: 'GET', path: `/image/v2/images?limit=1000&status=active${i ? `&marker=m${i}` : ''}`, response: { images: [{ id: `i${i}`, name: `n${i}` }], next: `/v2/images?limit=1000&status=active&marker=m${i + 1}` } });
    await withCloud(Array.from({ length: GLANCE_MAX_PAGES }, (_, i) => page(i)), async (c, base) => {
      expect(await listImageNames(c, `${base}/image`)).toHaveLength(GLANCE_MAX_PAGES);
    });
  });

  it('Octavia: cascade delete; 404 counts as done', async () => {
    await withCloud([
      { method: 'DELETE', path: '/lb/v2/lbaas/loadbalancers/l%201?cascade=true', status: 204 },
      { method: 'DELETE', path: '/lb/v2/lbaas/loadbalancers/gone?cascade=true', status: 404, response: { faultstring: 'not found' } },
    ], async (c, base) => {
      await deleteLoadBalancer(c, `${base}/lb`, 'l 1');
      await deleteLoadBalancer(c, `${base}/lb`, 'gone');
    });
  });

  it('Neutron: security groups with descriptions, and deletes of groups and floating IPs (404 = done)', async () => {
    await withCloud([
      { method: 'GET', path: '/network/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id', response: { security_groups: [{ id: 's1', name: 'lb-sg-x', description: 'd' }] } },
      { method: 'DELETE', path: '/network/v2.0/security-groups/s1', status: 204 },
      { method: 'DELETE', path: '/network/v2.0/floatingips/f1', status: 404, response: { NeutronError: { type: 'FloatingIPNotFound', message: 'gone' } } },
    ], async (c, base) => {
      expect(await listSecurityGroups(c, `${base}/network`)).toEqual([{ id: 's1', name: 'lb-sg-x', description: 'd' }]);
      await deleteSecurityGroup(c, `${base}/network`, 's1');
      await deleteFloatingIp(c, `${base}/network`, 'f1');
    });
  });
});

describe('OCCM load-balancer names (cloud-provider-openstack: kube_service_<cluster-name>_<namespace>_<service>)', () => {
  it.each([
    ['demo', 'ingress-nginx', 'ingress-nginx-controller', 'kube_service_demo_ingress-nginx_ingress-nginx-controller'],
    ['prod-1', 'app', 'web', 'kube_service_prod-1_app_web'],
  ])('%s %s/%s → %s', (cluster, ns, svc, name) => {
    expect(occmLoadBalancerName(cluster, ns, svc)).toBe(name);
    expect(name.startsWith(occmLoadBalancerPrefix(cluster))).toBe(true);
  });
  it('the prefix of one cluster does not match another whose name extends it', () => {
    expect(occmLoadBalancerName('demo2', 'a', 'b').startsWith(occmLoadBalancerPrefix('demo'))).toBe(false);
  });
});

describe('openstackClusterCloud: the management host\'s addresses (scripted Nova + Neutron)', () => {
  const server = (addresses: unknown) => ({
    method: 'GET', path: `/compute/v2.1/p1/servers/detail?name=${encodeURIComponent('^mgmt$')}`, response: { servers: [{ id: 'srv1', name: 'mgmt', addresses }] },
  });
  it('takes the floating IPs Nova lists, without asking Neutron', async () => {
    await withCloud([server({ net: [{ addr: '10.0.0.5', version: 4, 'OS-EXT-IPS:type': 'fixed' }, { addr: '203.0.113.9', version: 4, 'OS-EXT-IPS:type': 'floating' }] })], async (c) => {
      expect(await openstackClusterCloud(c).serverAddresses('mgmt')).toEqual({ found: true, cidrs: ['203.0.113.9'], source: 'floating IP of server mgmt' });
    });
  });
  it('falls back to Neutron (ports of the server, floating IPs of each port) when Nova lists none', async () => {
    await withCloud([
      server({ net: [{ addr: '10.0.0.5', version: 4, 'OS-EXT-IPS:type': 'fixed' }] }),
      { method: 'GET', path: '/network/v2.0/ports?device_id=srv1', response: { ports: [{ id: 'p1' }, { id: 'p2' }] } },
      { anyOrder: [
        { method: 'GET', path: '/network/v2.0/floatingips?port_id=p1', response: { floatingips: [] } },
        { method: 'GET', path: '/network/v2.0/floatingips?port_id=p2', response: { floatingips: [{ id: 'f', floating_ip_address: '198.51.100.4' }] } },
      ] },
    ], async (c) => {
      expect(await openstackClusterCloud(c).serverAddresses('mgmt')).toEqual({ found: true, cidrs: ['198.51.100.4'], source: 'floating IP of server mgmt (Neutron)' });
    });
  });
  it('no floating IP anywhere: not found, with the reason', async () => {
    await withCloud([
      server({}),
      { method: 'GET', path: '/network/v2.0/ports?device_id=srv1', response: { ports: [] } },
    ], async (c) => {
      expect(await openstackClusterCloud(c).serverAddresses('mgmt')).toEqual({ found: false, reason: 'server mgmt has no floating IP (its egress address cannot be known)' });
    });
  });
  it.each([
    [[], 'no Nova server named mgmt in this project'],
    [[{ id: 'a', name: 'mgmt' }, { id: 'b', name: 'mgmt' }], '2 Nova servers are named mgmt'],
  ])('servers %j → not found', async (servers, reason) => {
    await withCloud([{ method: 'GET', path: `/compute/v2.1/p1/servers/detail?name=${encodeURIComponent('^mgmt$')}`, response: { servers } }], async (c) => {
      expect(await openstackClusterCloud(c).serverAddresses('mgmt')).toEqual({ found: false, reason });
    });
  });
  it('image names through the catalog\'s Glance URL (its /v2 suffix stripped)', async () => {
    await withCloud([{ method: 'GET', path: '/image/v2/images?limit=1000&status=active', response: { images: [{ id: 'i', name: 'ubuntu-capi-image-v1.33.4' }] } }], async (c) => {
      expect(await openstackClusterCloud(c).imageNames()).toEqual(['ubuntu-capi-image-v1.33.4']);
    });
  });
});
