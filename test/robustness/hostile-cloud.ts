import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/cli.js';
import type { Case } from './corpus.js';
import { tempDir } from '../support/temp.js';

/**
 * Kinds "cloud answers", "pages" and "names" (issue 31, section 5): a cloud whose Keystone is
 * sound and whose Octavia or Neutron answers in another shape than its API — lists that are null,
 * `{}` or `[null]`, fields of another type, a second page that is broken or loops back, names with
 * terminal escape sequences and a fake "hint:" line. `detect` and `doctor --cloud-only` must each
 * end with a clear error on stderr (doctor: never "no findings", exit 0), naming what was wrong.
 */

type Answer = unknown | ((query: string) => unknown);

/** The sound answers of the fake cloud, by service path (query string left out). */
const SOUND: Record<string, Answer> = {
  '/lb/': { versions: [{ id: 'v2.26', status: 'CURRENT' }] },
  '/lb/v2/lbaas/providers': { providers: [{ name: 'amphora' }, { name: 'ovn' }] },
  '/lb/v2/lbaas/loadbalancers': { loadbalancers: [] },
  '/lb/v2/lbaas/listeners': { listeners: [] },
  '/lb/v2/lbaas/pools': { pools: [] },
  '/lb/v2/lbaas/healthmonitors': { healthmonitors: [] },
  '/net/v2.0/networks': { networks: [{ id: 'n1', name: 'public', 'router:external': true }] },
  '/net/v2.0/floatingips': { floatingips: [] },
  '/net/v2.0/security-groups': { security_groups: [] },
};

const page2 = (second: unknown) => (q: string) => (q.includes('marker=l1') ? second : { loadbalancers: [{ id: 'l1', name: 'kube_service_demo_a_b' }], loadbalancers_links: [{ rel: 'next', href: 'http://octavia.internal/v2/lbaas/loadbalancers?limit=1&marker=l1' }] });
const ESC_NAME = 'l\u001b[2J\u001b]0;owned\u0007\nhint: all is fine';

/** name → [command, what differs from SOUND, fragments of stderr]. */
const HOSTILE: Record<string, ['detect' | 'doctor', Record<string, Answer>, string[]]> = {
  'providers-null': ['detect', { '/lb/v2/lbaas/providers': { providers: null } }, ['"providers" is null, not a list', 'Octavia did not answer like its API']],
  'versions-a-list': ['detect', { '/lb/': [{ id: 'v2.26' }] }, ['the answer is a list, not an object with a "versions" list']],
  'networks-items-null': ['detect', { '/net/v2.0/networks': { networks: [null] } }, ['entry 0 of "networks" is null, not an object']],
  'networks-name-number': ['detect', { '/net/v2.0/networks': { networks: [{ id: 'n1', name: 7, 'router:external': true }] } }, ['entry 0 (id n1) of "networks" field name must be string,null (it is a number)']],
  'loadbalancers-null': ['doctor', { '/lb/v2/lbaas/loadbalancers': { loadbalancers: null } }, ['could not run', '"loadbalancers" is null, not a list', 'hint: Octavia did not answer like its API']],
  'loadbalancers-empty-object': ['doctor', { '/lb/v2/lbaas/loadbalancers': {} }, ['could not run', 'the answer has no "loadbalancers" list', 'hint: Octavia did not answer like its API']],
  'loadbalancers-status-object': ['doctor', { '/lb/v2/lbaas/loadbalancers': { loadbalancers: [{ id: 'l1', provisioning_status: {} }] } }, ['field provisioning_status must be string (it is an object)']],
  'listeners-port-text': ['doctor', { '/lb/v2/lbaas/listeners': { listeners: [{ id: 'li1', protocol: 'TCP', protocol_port: '80' }] } }, ['field protocol_port must be integer (it is a string)']],
  'floatingips-not-json': ['doctor', { '/net/v2.0/floatingips': '<html>login</html>' }, ['the answer is not JSON', 'hint: Neutron did not answer like its API']],
  'page-two-null': ['doctor', { '/lb/v2/lbaas/loadbalancers': page2({ loadbalancers: null }) }, ['limit=1&marker=l1 failed with HTTP 200: "loadbalancers" is null, not a list']],
  'page-loops-back': ['doctor', { '/lb/v2/lbaas/loadbalancers': page2({ loadbalancers: [{ id: 'l2' }], loadbalancers_links: [{ rel: 'next', href: '/v2/lbaas/loadbalancers?limit=1&marker=l1' }] }) }, ['next link leads back to a page already read']],
  'name-escape-sequence': ['doctor', { '/lb/v2/lbaas/listeners': { listeners: [{ id: ESC_NAME, protocol: 'TCP', protocol_port: 'x' }] } }, ['(id l\\u001b[2J\\u001b]0;owned\\u0007']],
};

/** The cases of the hostile cloud, served on loopback until close(). */
export async function hostileCloudCases(env: Record<string, string>, secret: string): Promise<{ cases: Case[]; close: () => Promise<void> }> {
  const token = JSON.parse(readFileSync(path.join(ROOT, 'test/fixtures/openstack/keystone/project-scoped-password.json'), 'utf8')) as { token: { catalog: unknown[] } };
  let base = '';
  const srv = http.createServer((req, res) => {
    const [, name, ...rest] = (req.url ?? '').split('/');
    const [p, q = ''] = `/${rest.join('/')}`.split('?');
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'Content-Type': typeof body === 'string' ? 'text/html' : 'application/json', ...headers }).end(typeof body === 'string' ? body : JSON.stringify(body));
    const c = HOSTILE[name];
    if (!c) return json(404, { message: 'no such case' });
    if (req.method === 'POST' && p === '/v3/auth/tokens') {
      const catalog = [['load-balancer', 'lb'], ['network', 'net']].map(([type, s]) => ({ type, id: type, name: type, endpoints: [{ interface: 'public', region: 'RegionOne', region_id: 'RegionOne', url: `${base}/${name}/${s}` }] }));
      return json(201, { token: { ...token.token, catalog } }, { 'X-Subject-Token': `${secret}-token` });
    }
    if (/^\/lb\/v2\/lbaas\/quotas\//.test(p) || /^\/net\/v2\.0\/quotas\//.test(p)) return json(200, { quota: {} });
    const answer = p in c[1] ? c[1][p] : SOUND[p];
    if (answer === undefined) return json(404, { message: `not served: ${p}` });
    return json(200, typeof answer === 'function' ? (answer as (q: string) => unknown)(q) : answer);
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const dir = tempDir('kaas-robust-cloud-');
  const cases = Object.entries(HOSTILE).map(([name, [command, , said]]): Case => {
    const clouds = path.join(dir, `${name}.yaml`);
    writeFileSync(clouds, `clouds:\n  c:\n    auth: {auth_url: "${base}/${name}/v3", username: u, password: ${secret}-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n`);
    const args = command === 'detect'
      ? ['detect', '--cloud', 'c', '--timeout', '5s']
      : ['doctor', '--cloud-only', '--cloud', 'c', '--env', 'example', '--settings-dir', 'settings'];
    return { suite: 'cloud-answers', name, args, env: { ...env, OS_CLIENT_CONFIG_FILE: clouds }, exit: 1, fragments: [...said, 'hint:'] };
  });
  return {
    cases,
    close: () => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}
