import type { Connection } from '../../../lib/openstack/connection.js';
import { glanceRoot, listImageNames } from '../../../lib/openstack/glance.js';
import {
  deleteFloatingIp, deleteSecurityGroup, listExternalNetworks, listFloatingIps, listPorts, listProjectFloatingIps, listSecurityGroups, neutronRoot, serverFloatingIps,
} from '../../../lib/openstack/neutron.js';
import { createServerGroup, deleteServerGroup, findServersByName, listFlavors, listServerGroups } from '../../../lib/openstack/nova.js';
import {
  deleteLoadBalancer, findLoadBalancer, listHealthMonitors, listListeners, listLoadBalancers, listMembers, listPools, listProviders, listVersions, octaviaRoot,
} from '../../../lib/openstack/octavia.js';
import { neutronQuotaDetails, octaviaQuota } from '../../../lib/openstack/quota.js';
import { withScriptedCloud } from '../../support/openstack-fixtures.js';
import type { ScriptStep } from '../../support/scripted-http.js';

/** The list calls of each service: exact paths and filters, and what an answer without the collection means. */

const SERVICES = { compute: '/compute/v2.1/p1', network: '/network', 'load-balancer': '/lb', image: '/image/v2' };
const MICROVERSION = { 'openstack-api-version': 'compute 2.64', 'x-openstack-nova-api-version': '2.64' };

const withCloud = (steps: ScriptStep[], fn: (c: Connection, base: string) => Promise<void>) => withScriptedCloud('gAAAAABlists-token', SERVICES, steps, fn);

describe('Octavia list calls', () => {
  it('versions, providers, load balancers (all and by name), listeners, pools, monitors and members with their filters', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/', response: { versions: [{ id: 'v2.0', status: 'SUPPORTED' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/providers', response: { providers: [{ name: 'amphora' }, { name: 'ovn' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers', response: { loadbalancers: [{ id: 'l1', name: 'a' }, { id: 'l2', name: 'b' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers?name=kube_service_demo_a%2Fb', response: { loadbalancers: [] } },
      { method: 'GET', path: '/lb/v2/lbaas/listeners?loadbalancer_id=l1', response: { listeners: [{ id: 'li1', protocol: 'TCP', protocol_port: 80 }] } },
      { method: 'GET', path: '/lb/v2/lbaas/listeners?loadbalancer_id=l1&name=x', response: { listeners: [] } },
      { method: 'GET', path: '/lb/v2/lbaas/pools?name=p', response: { pools: [{ id: 'po1', protocol: 'PROXY', lb_algorithm: 'ROUND_ROBIN' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/pools', response: { pools: [] } },
      { method: 'GET', path: '/lb/v2/lbaas/healthmonitors', response: { healthmonitors: [{ id: 'h1', type: 'HTTP' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/pools/po%201/members', response: { members: [{ id: 'm1', address: '10.0.0.5', protocol_port: 31000 }] } },
      { method: 'GET', path: '/lb/v2/lbaas/pools/po2/members', response: { members: [] } },
    ], async (c, base) => {
      const root = `${base}/lb`;
      expect(await listVersions(c, root)).toEqual([{ id: 'v2.0', status: 'SUPPORTED' }]);
      expect(await listProviders(c, root)).toEqual([{ name: 'amphora' }, { name: 'ovn' }]);
      expect((await listLoadBalancers(c, root)).map((l) => l.id)).toEqual(['l1', 'l2']);
      expect(await findLoadBalancer(c, root, 'kube_service_demo_a/b')).toBeUndefined();
      expect(await listListeners(c, root, { loadbalancerId: 'l1' })).toEqual([{ id: 'li1', protocol: 'TCP', protocol_port: 80 }]);
      expect(await listListeners(c, root, { loadbalancerId: 'l1', name: 'x' })).toEqual([]);
      expect((await listPools(c, root, { name: 'p' }))[0].id).toBe('po1');
      expect(await listPools(c, root)).toEqual([]);
      expect(await listHealthMonitors(c, root)).toEqual([{ id: 'h1', type: 'HTTP' }]);
      expect(await listMembers(c, root, 'po 1')).toEqual([{ id: 'm1', address: '10.0.0.5', protocol_port: 31000 }]);
      expect(await listMembers(c, root, 'po2')).toEqual([]);
    });
  });

  it('answers without the collection are errors naming the call, not empty lists (issue 31: doctor said "no findings" for `{}`)', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/', response: {} },
      { method: 'GET', path: '/lb/v2/lbaas/providers', response: {} },
      { method: 'GET', path: '/lb/v2/lbaas/providers', response: '<html>proxy login</html>', responseHeaders: { 'content-type': 'text/html' } },
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers', response: {} },
    ], async (c, base) => {
      await expect(listVersions(c, `${base}/lb`)).rejects.toThrow(/GET .*\/lb\/ failed with HTTP 200: the answer has no "versions" list/);
      // Issue 23, item 6: providers are what the plan rests on; missing or HTML is an error, not "none".
      await expect(listProviders(c, `${base}/lb`)).rejects.toThrow(/GET .*\/lb\/v2\/lbaas\/providers failed with HTTP 200: the answer has no "providers" list/);
      await expect(listProviders(c, `${base}/lb`)).rejects.toThrow(/the answer is not JSON \(text\/html/);
      await expect(listLoadBalancers(c, `${base}/lb`)).rejects.toThrow(/GET .*\/lb\/v2\/lbaas\/loadbalancers failed with HTTP 200: the answer has no "loadbalancers" list/);
    });
  });

  it('several load balancers of one name: the error lists their ids and how to fix it', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/v2/lbaas/loadbalancers?name=dup', response: { loadbalancers: [{ id: 'a', name: 'dup' }, { id: 'b', name: 'dup' }, { id: 'c', name: 'dup' }] } },
    ], async (c, base) => {
      await expect(findLoadBalancer(c, `${base}/lb`, 'dup')).rejects.toMatchObject({
        message: '3 Octavia load balancers are named "dup" (ids a, b, c)',
        hint: 'delete the stray ones (openstack loadbalancer delete ID) or rename them',
      });
    });
  });

  it.each([
    ['https://lb.example:9876', 'https://lb.example:9876'],
    ['https://lb.example:9876/', 'https://lb.example:9876'],
    ['https://lb.example:9876/v2', 'https://lb.example:9876'],
    ['https://lb.example:9876/v2.0/', 'https://lb.example:9876'],
    ['https://cloud.example/load-balancer/v2.0', 'https://cloud.example/load-balancer'],
  ])('API root of %s is %s (Octavia, Neutron, Glance alike)', (url, root) => {
    expect(octaviaRoot(url)).toBe(root);
    expect(neutronRoot(url)).toBe(root);
    expect(glanceRoot(url)).toBe(root);
  });
});

describe('Neutron list calls', () => {
  it('external networks, floating IPs by port and address, ports by device and network, the project\'s floating IPs with their fields', async () => {
    await withCloud([
      { method: 'GET', path: '/network/v2.0/networks?router%3Aexternal=true', response: { networks: [{ id: 'n1', name: 'public', 'router:external': true }] } },
      { method: 'GET', path: '/network/v2.0/floatingips', response: { floatingips: [] } },
      { method: 'GET', path: '/network/v2.0/floatingips?floating_ip_address=203.0.113.7', response: { floatingips: [{ id: 'f1', floating_ip_address: '203.0.113.7' }] } },
      { method: 'GET', path: '/network/v2.0/floatingips?port_id=p1&floating_ip_address=203.0.113.7', response: { floatingips: [] } },
      { method: 'GET', path: '/network/v2.0/ports', response: { ports: [] } },
      { method: 'GET', path: '/network/v2.0/ports?network_id=n1', response: { ports: [{ id: 'p1' }] } },
      { method: 'GET', path: '/network/v2.0/ports?device_id=d+1&network_id=n1', response: { ports: [] } },
      {
        method: 'GET', path: '/network/v2.0/floatingips?fields=id&fields=floating_ip_address&fields=port_id&fields=fixed_ip_address&fields=description&fields=status',
        response: { floatingips: [{ id: 'f2', floating_ip_address: '198.51.100.2', description: 'Floating IP for Kubernetes external service x' }] },
      },
      { method: 'GET', path: '/network/v2.0/floatingips?fields=id&fields=floating_ip_address&fields=port_id&fields=fixed_ip_address&fields=description&fields=status', response: { floatingips: [] } },
      { method: 'GET', path: '/network/v2.0/networks?router%3Aexternal=true', response: { networks: [] } },
      { method: 'GET', path: '/network/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id', response: { security_groups: [] } },
    ], async (c, base) => {
      const root = `${base}/network`;
      expect(await listExternalNetworks(c, root)).toEqual([{ id: 'n1', name: 'public', 'router:external': true }]);
      expect(await listFloatingIps(c, root)).toEqual([]);
      expect((await listFloatingIps(c, root, { address: '203.0.113.7' }))[0].id).toBe('f1');
      expect(await listFloatingIps(c, root, { portId: 'p1', address: '203.0.113.7' })).toEqual([]);
      expect(await listPorts(c, root)).toEqual([]);
      expect(await listPorts(c, root, { networkId: 'n1' })).toEqual([{ id: 'p1' }]);
      expect(await listPorts(c, root, { deviceId: 'd 1', networkId: 'n1' })).toEqual([]);
      expect(await listProjectFloatingIps(c, root)).toEqual([{ id: 'f2', floating_ip_address: '198.51.100.2', description: 'Floating IP for Kubernetes external service x' }]);
      expect(await listProjectFloatingIps(c, root)).toEqual([]);
      expect(await listExternalNetworks(c, root)).toEqual([]);
      expect(await listSecurityGroups(c, root)).toEqual([]);
    });
  });

  it('a server\'s floating IPs: Nova\'s addresses of type floating (fixed ones left out), across networks', async () => {
    await withCloud([], async (c, base) => {
      const got = await serverFloatingIps(c, `${base}/network`, {
        id: 's1',
        addresses: {
          a: [{ addr: '10.0.0.5', 'OS-EXT-IPS:type': 'fixed' }, { addr: '203.0.113.9', 'OS-EXT-IPS:type': 'floating' }],
          b: [{ addr: '198.51.100.3', 'OS-EXT-IPS:type': 'floating' }, { addr: '10.1.0.5' }],
        },
      });
      expect(got).toEqual({ addresses: ['203.0.113.9', '198.51.100.3'], from: 'nova' });
    });
  });

  it('a server without addresses: Neutron, every floating IP of every port', async () => {
    await withCloud([
      { method: 'GET', path: '/network/v2.0/ports?device_id=s1', response: { ports: [{ id: 'p1' }, { id: 'p2' }] } },
      { anyOrder: [
        { method: 'GET', path: '/network/v2.0/floatingips?port_id=p1', response: { floatingips: [{ id: 'f1', floating_ip_address: '203.0.113.1' }] } },
        { method: 'GET', path: '/network/v2.0/floatingips?port_id=p2', response: { floatingips: [{ id: 'f2', floating_ip_address: '203.0.113.2' }, { id: 'f3', floating_ip_address: '203.0.113.3' }] } },
      ] },
    ], async (c, base) => {
      expect(await serverFloatingIps(c, `${base}/network`, { id: 's1' })).toEqual({ addresses: ['203.0.113.1', '203.0.113.2', '203.0.113.3'], from: 'neutron' });
    });
  });
});

describe('Nova and Glance list calls', () => {
  it('server groups and flavors with the 2.64 microversion; empty collections are empty lists', async () => {
    await withCloud([
      { method: 'GET', path: '/compute/v2.1/p1/os-server-groups', headers: MICROVERSION, response: { server_groups: [{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }] } },
      { method: 'GET', path: '/compute/v2.1/p1/os-server-groups', headers: MICROVERSION, response: { server_groups: [] } },
      { method: 'GET', path: '/compute/v2.1/p1/flavors/detail', headers: MICROVERSION, response: { flavors: [] } },
      { method: 'GET', path: `/compute/v2.1/p1/servers/detail?name=${encodeURIComponent('^a\\.b\\*\\(c\\)\\[d\\]\\$$')}`, headers: MICROVERSION, response: { servers: [] } },
    ], async (c, base) => {
      const root = `${base}/compute/v2.1/p1`;
      expect(await listServerGroups(c, root)).toEqual([{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }]);
      expect(await listServerGroups(c, root)).toEqual([]);
      expect(await listFlavors(c, root)).toEqual([]);
      expect(await findServersByName(c, root, 'a.b*(c)[d]$')).toEqual([]);
    });
  });

  it('Glance: a page without images adds none and paging goes on while `next` is there', async () => {
    await withCloud([
      { method: 'GET', path: '/image/v2/images?limit=1000&status=active', response: { next: '/v2/images?limit=1000&status=active&marker=x' } },
      { method: 'GET', path: '/image/v2/images?limit=1000&status=active&marker=x', response: { images: [{ id: 'i', name: 'only' }] } },
    ], async (c, base) => {
      expect(await listImageNames(c, `${base}/image`)).toEqual(['only']);
    });
  });
});

describe('quotas', () => {
  it('Octavia limits and Neutron limits with use, of one project; answers without a quota are empty', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/v2/lbaas/quotas/p%201', response: { quota: { load_balancer: 10, listener: -1 } } },
      { method: 'GET', path: '/network/v2.0/quotas/p%201/details', response: { quota: { floatingip: { limit: 5, used: 2, reserved: 0 } } } },
      { method: 'GET', path: '/lb/v2/lbaas/quotas/p2', response: {} },
      { method: 'GET', path: '/network/v2.0/quotas/p2/details', response: {} },
    ], async (c, base) => {
      expect(await octaviaQuota(c, `${base}/lb`, 'p 1')).toEqual({ load_balancer: 10, listener: -1 });
      expect(await neutronQuotaDetails(c, `${base}/network`, 'p 1')).toEqual({ floatingip: { limit: 5, used: 2, reserved: 0 } });
      expect(await octaviaQuota(c, `${base}/lb`, 'p2')).toEqual({});
      expect(await neutronQuotaDetails(c, `${base}/network`, 'p2')).toEqual({});
    });
  });
});

describe('every call names its service, method and URL when it fails; a JSON null answer is refused, not read as empty', () => {
  type Call = (c: Connection, base: string) => Promise<unknown>;
  const LF = '/network/v2.0/floatingips?fields=id&fields=floating_ip_address&fields=port_id&fields=fixed_ip_address&fields=description&fields=status';
  const LIST_KEY: Record<string, string> = {
    'Octavia versions': 'versions', 'Octavia load balancers': 'loadbalancers', 'Octavia listeners': 'listeners', 'Octavia members': 'members',
    'Neutron external networks': 'networks', 'Neutron floating IPs': 'floatingips', 'Neutron ports': 'ports', 'Neutron project floating IPs': 'floatingips',
    'Neutron security groups': 'security_groups', 'Nova servers': 'servers', 'Nova flavors': 'flavors', 'Nova server groups': 'server_groups',
  };
  const calls: [string, Call, string, string, string, unknown][] = [
    ['Octavia versions', (c, b) => listVersions(c, `${b}/lb`), 'GET', '/lb/', 'Octavia', []],
    // Issue 23, item 6: a providers answer without its list is an error (it read as "providers: none", exit 0).
    ['Octavia providers', (c, b) => listProviders(c, `${b}/lb`), 'GET', '/lb/v2/lbaas/providers', 'Octavia', undefined],
    ['Octavia load balancers', (c, b) => listLoadBalancers(c, `${b}/lb`), 'GET', '/lb/v2/lbaas/loadbalancers', 'Octavia', []],
    ['Octavia listeners', (c, b) => listListeners(c, `${b}/lb`), 'GET', '/lb/v2/lbaas/listeners', 'Octavia', []],
    ['Octavia members', (c, b) => listMembers(c, `${b}/lb`, 'p1'), 'GET', '/lb/v2/lbaas/pools/p1/members', 'Octavia', []],
    ['Octavia quota', (c, b) => octaviaQuota(c, `${b}/lb`, 'p1'), 'GET', '/lb/v2/lbaas/quotas/p1', 'Octavia', {}],
    ['Octavia delete', (c, b) => deleteLoadBalancer(c, `${b}/lb`, 'l1'), 'DELETE', '/lb/v2/lbaas/loadbalancers/l1?cascade=true', 'Octavia', undefined],
    ['Neutron external networks', (c, b) => listExternalNetworks(c, `${b}/network`), 'GET', '/network/v2.0/networks?router%3Aexternal=true', 'Neutron', []],
    ['Neutron floating IPs', (c, b) => listFloatingIps(c, `${b}/network`), 'GET', '/network/v2.0/floatingips', 'Neutron', []],
    ['Neutron ports', (c, b) => listPorts(c, `${b}/network`), 'GET', '/network/v2.0/ports', 'Neutron', []],
    ['Neutron project floating IPs', (c, b) => listProjectFloatingIps(c, `${b}/network`), 'GET', LF, 'Neutron', []],
    ['Neutron security groups', (c, b) => listSecurityGroups(c, `${b}/network`), 'GET', '/network/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id', 'Neutron', []],
    ['Neutron quota', (c, b) => neutronQuotaDetails(c, `${b}/network`, 'p1'), 'GET', '/network/v2.0/quotas/p1/details', 'Neutron', {}],
    ['Neutron security group delete', (c, b) => deleteSecurityGroup(c, `${b}/network`, 's1'), 'DELETE', '/network/v2.0/security-groups/s1', 'Neutron', undefined],
    ['Neutron floating IP delete', (c, b) => deleteFloatingIp(c, `${b}/network`, 'f1'), 'DELETE', '/network/v2.0/floatingips/f1', 'Neutron', undefined],
    ['Nova servers', (c, b) => findServersByName(c, `${b}/compute/v2.1/p1`, 'x'), 'GET', `/compute/v2.1/p1/servers/detail?name=${encodeURIComponent('^x$')}`, 'Nova', []],
    ['Nova flavors', (c, b) => listFlavors(c, `${b}/compute/v2.1/p1`), 'GET', '/compute/v2.1/p1/flavors/detail', 'Nova', []],
    ['Nova server groups', (c, b) => listServerGroups(c, `${b}/compute/v2.1/p1`), 'GET', '/compute/v2.1/p1/os-server-groups', 'Nova', []],
    ['Nova server group create', (c, b) => createServerGroup(c, `${b}/compute/v2.1/p1`, 'g', 'anti-affinity'), 'POST', '/compute/v2.1/p1/os-server-groups', 'Nova', undefined],
    ['Nova server group delete', (c, b) => deleteServerGroup(c, `${b}/compute/v2.1/p1`, 'g1'), 'DELETE', '/compute/v2.1/p1/os-server-groups/g1', 'Nova', undefined],
    ['Glance images', (c, b) => listImageNames(c, `${b}/image`), 'GET', '/image/v2/images?limit=1000&status=active', 'Glance', undefined],
  ];

  it.each(calls)('%s: HTTP 403 → "%s %s …" named in the error', async (_title, call, method, path, service) => {
    await withCloud([{ method, path, status: 403, response: { message: 'denied' } }], async (c, base) => {
      await expect(call(c, base)).rejects.toMatchObject({ message: `${service}: ${method} ${base}${path} failed with HTTP 403: denied`, status: 403 });
    });
  });

  // Issue 31: a list answered as JSON null read as "none" (doctor exit 0); quotas stay lenient (absent = no limit known).
  it.each(calls.filter((row) => Array.isArray(row[5])))('%s: an answer of JSON null is an error naming the call', async (_title, call, method, path, service) => {
    await withCloud([{ method, path, response: 'null' }], async (c, base) => {
      await expect(call(c, base)).rejects.toMatchObject({ message: `${service}: ${method} ${base}${path} failed with HTTP 200: the answer is null, not an object with a ${'"'}${LIST_KEY[_title]}" list (application/json, 4 chars: "null")` });
    });
  });
});
