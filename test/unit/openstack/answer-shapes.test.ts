import type { Connection } from '../../../lib/openstack/connection.js';
import { listPorts, listSecurityGroups } from '../../../lib/openstack/neutron.js';
import { getLoadBalancer, listListeners, listLoadBalancers, listMembers } from '../../../lib/openstack/octavia.js';
import { nextPagePath } from '../../../lib/openstack/list-pages.js';
import { withScriptedCloud } from '../../support/openstack-fixtures.js';
import type { ScriptStep } from '../../support/scripted-http.js';

/**
 * Issue 31, section 5: answers are checked at the boundary (each a clear HttpError naming service,
 * method, URL and what was wrong), and every list follows its `<key>_links` next pages.
 */

const SERVICES = { network: '/network', 'load-balancer': '/lb' };
const withCloud = (steps: ScriptStep[], fn: (c: Connection, base: string) => Promise<void>) => withScriptedCloud('gAAAAABshapes-token', SERVICES, steps, fn);
const LBS = '/lb/v2/lbaas/loadbalancers';

describe('Octavia answers of the wrong shape are refused, naming what was wrong', () => {
  it.each([
    ['the list is null', { loadbalancers: null }, '"loadbalancers" is null, not a list'],
    ['the list is an object', { loadbalancers: {} }, '"loadbalancers" is an object, not a list'],
    ['the list is a string', { loadbalancers: 'none' }, '"loadbalancers" is a string, not a list'],
    ['the answer is a list', [{ id: 'a' }], 'the answer is a list, not an object with a "loadbalancers" list'],
    ['the answer is a number', 42, 'the answer is a number, not an object with a "loadbalancers" list'],
    ['an entry is null', { loadbalancers: [null] }, 'entry 0 of "loadbalancers" is null, not an object'],
    ['an entry is a list', { loadbalancers: [{ id: 'a', name: 'x' }, []] }, 'entry 1 of "loadbalancers" is a list, not an object'],
    ['an entry has no id', { loadbalancers: [{ name: 'x' }] }, `entry 0 of "loadbalancers" it must have required property 'id'`],
    ['an id is a number', { loadbalancers: [{ id: 7 }] }, 'entry 0 of "loadbalancers" field id must be string (it is a number)'],
    ['a status is an object', { loadbalancers: [{ id: 'l1', provisioning_status: {} }] }, 'entry 0 (id l1) of "loadbalancers" field provisioning_status must be string (it is an object)'],
    ['the links are an object', { loadbalancers: [], loadbalancers_links: {} }, '"loadbalancers_links" is an object, not a list'],
    ['a link has no href', { loadbalancers: [], loadbalancers_links: [{ rel: 'next' }] }, `"loadbalancers_links" field 0 must have required property 'href'`],
  ])('load balancers: %s', async (_what, response, said) => {
    await withCloud([{ method: 'GET', path: LBS, response }], async (c, base) => {
      const err = await listLoadBalancers(c, `${base}/lb`).then(() => undefined, (e: unknown) => e as { message: string; hint?: string });
      expect(err?.message).toContain(`Octavia: GET ${base}${LBS} failed with HTTP 200: `);
      expect(err?.message).toContain(said);
      expect(err?.hint).toContain('Octavia did not answer like its API');
    });
  });

  it('a listener port that is text and a member without an address are named with their entry', async () => {
    await withCloud([
      { method: 'GET', path: '/lb/v2/lbaas/listeners', response: { listeners: [{ id: 'li1', protocol: 'TCP', protocol_port: '80' }] } },
      { method: 'GET', path: '/lb/v2/lbaas/pools/p1/members', response: { members: [{ id: 'm1', protocol_port: 80 }] } },
      { method: 'GET', path: `${LBS}/l1`, response: { loadbalancer: null } },
    ], async (c, base) => {
      await expect(listListeners(c, `${base}/lb`)).rejects.toThrow('entry 0 (id li1) of "listeners" field protocol_port must be integer (it is a string)');
      await expect(listMembers(c, `${base}/lb`, 'p1')).rejects.toThrow(`entry 0 (id m1) of "members" it must have required property 'address'`);
      await expect(getLoadBalancer(c, `${base}/lb`, 'l1')).rejects.toThrow('"loadbalancer" is null, not an object');
    });
  });

  it('a load balancer listed with a null name reads as unnamed, not as a crash later', async () => {
    await withCloud([{ method: 'GET', path: LBS, response: { loadbalancers: [{ id: 'l1', name: null }] } }], async (c, base) => {
      expect(await listLoadBalancers(c, `${base}/lb`)).toEqual([{ id: 'l1', name: '' }]);
    });
  });
});

describe('every list follows its next links (Octavia and Neutron pagination)', () => {
  it('Octavia: the load balancer on page two is read; the link\'s host is not used (the token stays with the catalog endpoint)', async () => {
    await withCloud([
      { method: 'GET', path: `${LBS}?project_id=p1`, response: { loadbalancers: [{ id: 'l1', name: 'a' }], loadbalancers_links: [{ href: `http://octavia.internal:9876/v2/lbaas/loadbalancers?limit=1&marker=l1&project_id=p1`, rel: 'next' }] } },
      { method: 'GET', path: `${LBS}?limit=1&marker=l1&project_id=p1`, response: { loadbalancers: [{ id: 'l2', name: 'b', provisioning_status: 'ERROR' }], loadbalancers_links: [{ href: 'http://octavia.internal:9876/v2/lbaas/loadbalancers?limit=1&marker=l1&page_reverse=True', rel: 'previous' }] } },
    ], async (c, base) => {
      expect((await listLoadBalancers(c, `${base}/lb`, undefined, 'p1')).map((l) => l.id)).toEqual(['l1', 'l2']);
    });
  });

  it('Neutron: ports of a network and security groups with their fields, over three pages', async () => {
    await withCloud([
      { method: 'GET', path: '/network/v2.0/ports?network_id=n1', response: { ports: [{ id: 'p1', name: 'ovn-lb-vip-x' }], ports_links: [{ href: '/v2.0/ports?network_id=n1&limit=1&marker=p1', rel: 'next' }] } },
      { method: 'GET', path: '/network/v2.0/ports?network_id=n1&limit=1&marker=p1', response: { ports: [{ id: 'p2' }], ports_links: [{ rel: 'previous', href: '/v2.0/ports?marker=p2&page_reverse=True' }, { href: '/v2.0/ports?network_id=n1&limit=1&marker=p2', rel: 'next' }] } },
      { method: 'GET', path: '/network/v2.0/ports?network_id=n1&limit=1&marker=p2', response: { ports: [] } },
      { method: 'GET', path: '/network/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id', response: { security_groups: [{ id: 's1', name: 'a' }], security_groups_links: [{ href: 'https://neutron/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id&limit=1&marker=s1', rel: 'next' }] } },
      { method: 'GET', path: '/network/v2.0/security-groups?fields=id&fields=name&fields=description&fields=project_id&limit=1&marker=s1', response: { security_groups: [{ id: 's2', name: 'b' }] } },
    ], async (c, base) => {
      expect((await listPorts(c, `${base}/network`, { networkId: 'n1' })).map((p) => p.id)).toEqual(['p1', 'p2']);
      expect((await listSecurityGroups(c, `${base}/network`)).map((g) => g.id)).toEqual(['s1', 's2']);
    });
  });

  it('a next link back to a page already read is an error, not an endless loop', async () => {
    await withCloud([
      { method: 'GET', path: LBS, response: { loadbalancers: [{ id: 'l1' }], loadbalancers_links: [{ href: `${LBS}?marker=l1`, rel: 'next' }] } },
      { method: 'GET', path: `${LBS}?marker=l1`, response: { loadbalancers: [{ id: 'l2' }], loadbalancers_links: [{ href: `${LBS}?marker=l1`, rel: 'next' }] } },
    ], async (c, base) => {
      await expect(listLoadBalancers(c, `${base}/lb`)).rejects.toThrow(`its "loadbalancers_links" next link leads back to a page already read (${LBS}?marker=l1)`);
    });
  });

  it.each([
    ['/v2.0/ports', '/v2.0/ports?marker=a&limit=2', '/v2.0/ports?marker=a&limit=2'],
    ['/v2.0/ports?network_id=n1&marker=a', 'https://x/v2.0/ports?marker=b', '/v2.0/ports?network_id=n1&marker=b'],
    ['/x?fields=id&fields=name', '/x?fields=id&fields=name&marker=c', '/x?fields=id&fields=name&marker=c'],
    ['/x?name=a', 'not a url at all', '/x?name=a'],
  ])('next page of %s after link %s is %s', (path, href, want) => {
    expect(nextPagePath(path, href)).toBe(want);
  });
});
