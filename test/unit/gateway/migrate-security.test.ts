import { clientIpsFor } from '../../../lib/gateway/migrate/client-ips.js';
import { convertIngresses, DETACHED_ANNOTATION } from '../../../lib/gateway/migrate/convert.js';
import { authService, cidrsOf, htpasswdCommand, protectionFor, type ClientIps } from '../../../lib/gateway/migrate/security.js';
import { validateGatewayObjects } from '../../../lib/gateway/schema.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../../../lib/plan/gateway-versions.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import type { Settings } from '../../../lib/settings/types.js';

/**
 * Access protection of ingress-nginx Ingresses in migrate-ingress: per annotation, converted (a
 * SecurityPolicy that enforces it, schema-valid), or not (the route is detached unless attaching is asked).
 */
const GW = { name: 'kaas', namespace: 'envoy-gateway-system', httpListener: 'http', className: 'kaas' };
const KEPT: ClientIps = { kept: true, why: 'the plan keeps them' };
const LOST: ClientIps = { kept: false, why: 'the plan loses them' };
const N = 'nginx.ingress.kubernetes.io/';
const ingress = (annotations: Record<string, string>, tls = false): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'app', namespace: 'team', annotations: Object.fromEntries(Object.entries(annotations).map(([k, v]) => [N + k, v])) },
  spec: {
    ingressClassName: 'nginx', ...(tls ? { tls: [{ hosts: ['app.example.org'], secretName: 'app-tls' }] } : {}),
    rules: [{ host: 'app.example.org', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'app', port: { number: 80 } } } }] } }],
  },
} as KubeObject);
const routes = (objects: KubeObject[]) => objects.filter((o) => o.kind === 'HTTPRoute');
const policy = (objects: KubeObject[]) => objects.find((o) => o.kind === 'SecurityPolicy')?.spec as Record<string, unknown> | undefined;

type Row = [string, Record<string, string>, ClientIps, Record<string, unknown> | undefined, string[]];
const ROWS: Row[] = [
  ['basic auth (auth-file)', { 'auth-type': 'basic', 'auth-secret': 'htp' }, KEPT, { basicAuth: { users: { name: 'htp-htpasswd' } } }, []],
  ['basic auth (auth-map, Secret in another namespace)', { 'auth-type': 'basic', 'auth-secret': 'sec/users', 'auth-secret-type': 'auth-map' }, KEPT, { basicAuth: { users: { name: 'users-htpasswd' } } }, []],
  ['digest auth', { 'auth-type': 'digest', 'auth-secret': 'htp' }, KEPT, undefined, ['auth-type']],
  ['basic auth without a Secret', { 'auth-type': 'basic' }, KEPT, undefined, ['auth-type']],
  ['auth-url to an in-cluster Service', { 'auth-url': 'http://oauth2-proxy.auth.svc.cluster.local:4180/oauth2/auth', 'auth-response-headers': 'X-User' }, KEPT,
    { extAuth: { http: { backendRefs: [{ name: 'oauth2-proxy', namespace: 'auth', port: 4180 }], pathOverride: '/oauth2/auth', headersToBackend: ['X-User'] } } }, []],
  ['auth-url outside the cluster', { 'auth-url': 'http://auth.example.com/check' }, KEPT, undefined, ['auth-url']],
  ['auth-url over https', { 'auth-url': 'https://oauth2-proxy.auth.svc:443/oauth2/auth' }, KEPT, undefined, ['auth-url']],
  ['auth-url with a query', { 'auth-url': 'http://oauth2-proxy.auth.svc/oauth2/auth?allowed_groups=admins' }, KEPT, undefined, ['auth-url']],
  ['auth-url with an auth-snippet', { 'auth-url': 'http://oauth2-proxy.auth.svc/oauth2/auth', 'auth-snippet': 'return 200;' }, KEPT, undefined, ['auth-snippet']],
  ['whitelist-source-range, client IPs kept', { 'whitelist-source-range': '10.0.0.0/8,192.0.2.7' }, KEPT,
    { authorization: { defaultAction: 'Deny', rules: [{ name: 'allowlist-source-range', action: 'Allow', principal: { clientCIDRs: ['10.0.0.0/8', '192.0.2.7/32'] } }] } }, []],
  ['allowlist-source-range, client IPs lost', { 'allowlist-source-range': '10.0.0.0/8' }, LOST, undefined, ['allowlist-source-range']],
  ['denylist-source-range, client IPs kept', { 'denylist-source-range': '203.0.113.0/24' }, KEPT,
    { authorization: { defaultAction: 'Allow', rules: [{ name: 'denylist-source-range', action: 'Deny', principal: { clientCIDRs: ['203.0.113.0/24'] } }] } }, []],
  ['denylist-source-range, client IPs not known', { 'denylist-source-range': '203.0.113.0/24' }, { kept: undefined, why: 'not known' }, undefined, ['denylist-source-range']],
  ['deny and allow: deny first, then allow, else deny', { 'denylist-source-range': '10.1.0.0/16', 'whitelist-source-range': '10.0.0.0/8' }, KEPT,
    { authorization: { defaultAction: 'Deny', rules: [{ name: 'denylist-source-range', action: 'Deny', principal: { clientCIDRs: ['10.1.0.0/16'] } }, { name: 'allowlist-source-range', action: 'Allow', principal: { clientCIDRs: ['10.0.0.0/8'] } }] } }, []],
  ['an allow-list that is not a list of addresses', { 'whitelist-source-range': 'office' }, KEPT, undefined, ['whitelist-source-range']],
  ['auth-tls-secret (client certificates)', { 'auth-tls-secret': 'team/ca', 'auth-tls-verify-client': 'on' }, KEPT, undefined, ['auth-tls-secret', 'auth-tls-verify-client']],
  ['auth-tls with verification off protects nothing', { 'auth-tls-secret': 'team/ca', 'auth-tls-verify-client': 'off' }, KEPT, undefined, []],
  ['satisfy any with basic auth and an allow-list: both required (stricter)', { 'auth-type': 'basic', 'auth-secret': 'htp', 'whitelist-source-range': '10.0.0.0/8', satisfy: 'any' }, KEPT,
    { basicAuth: { users: { name: 'htp-htpasswd' } }, authorization: { defaultAction: 'Deny', rules: [{ name: 'allowlist-source-range', action: 'Allow', principal: { clientCIDRs: ['10.0.0.0/8'] } }] } }, []],
  ['satisfy any with basic auth and a lost allow-list', { 'auth-type': 'basic', 'auth-secret': 'htp', 'whitelist-source-range': '10.0.0.0/8', satisfy: 'any' }, LOST,
    { basicAuth: { users: { name: 'htp-htpasswd' } } }, ['whitelist-source-range']],
];

describe('migrate-ingress access protection, per annotation', () => {
  it.each(ROWS)('%s', (_, annotations, clientIps, spec, lost) => {
    const c = convertIngresses([ingress(annotations)], GW, { clientIps });
    expect(policy(c.objects) && { ...policy(c.objects), targetRefs: undefined }).toEqual(spec && { ...spec, targetRefs: undefined });
    expect(c.unprotected.map((u) => u.annotation)).toEqual(lost.map((k) => N + k));
    // Converted protection: the route stays on the Gateway. Lost protection: detached, and it says why.
    const [route] = routes(c.objects);
    expect((route.spec as { parentRefs?: unknown[] }).parentRefs === undefined).toBe(lost.length > 0);
    expect(route.metadata.annotations?.[DETACHED_ANNOTATION] !== undefined).toBe(lost.length > 0);
    if (spec) expect((policy(c.objects)!.targetRefs as object[])).toEqual([{ group: 'gateway.networking.k8s.io', kind: 'HTTPRoute', name: 'app' }]);
    expect(validateGatewayObjects(BUNDLED_GATEWAY_VERSIONS[0], c.objects, 'row').skipped).toEqual([]);
  });

  it('attachUnprotected keeps the route and its redirect on the Gateway (what --allow-unprotected asks for)', () => {
    const c = convertIngresses([ingress({ 'auth-tls-secret': 'team/ca' }, true)], GW, { clientIps: KEPT, attachUnprotected: true });
    expect(routes(c.objects).map((r) => (r.spec as { parentRefs?: unknown[] }).parentRefs?.length)).toEqual([1, 1]);
    expect(c.unprotected.map((u) => u.annotation)).toEqual([`${N}auth-tls-secret`]);
  });

  it('detaches the https redirect route of an unprotected Ingress too', () => {
    const c = convertIngresses([ingress({ 'auth-tls-secret': 'team/ca' }, true)], GW, { clientIps: KEPT });
    expect(routes(c.objects).map((r) => [r.metadata.name, (r.spec as { parentRefs?: unknown[] }).parentRefs])).toEqual([['app', undefined], ['app-https-redirect', undefined]]);
  });

  it('an extAuth Service in another namespace gets a ReferenceGrant there for the SecurityPolicy', () => {
    const c = convertIngresses([ingress({ 'auth-url': 'http://oauth2-proxy.auth.svc:4180/oauth2/auth' })], GW, { clientIps: KEPT });
    expect(c.objects.find((o) => o.kind === 'ReferenceGrant')).toEqual({
      apiVersion: 'gateway.networking.k8s.io/v1', kind: 'ReferenceGrant', metadata: { name: 'kaas-extauth-from-team', namespace: 'auth' },
      spec: { from: [{ group: 'gateway.envoyproxy.io', kind: 'SecurityPolicy', namespace: 'team' }], to: [{ group: '', kind: 'Service', name: 'oauth2-proxy' }] },
    });
  });

  it('CORS and protection share one SecurityPolicy (Envoy Gateway applies only one per route)', () => {
    const c = convertIngresses([ingress({ 'enable-cors': 'true', 'auth-type': 'basic', 'auth-secret': 'htp' })], GW, { clientIps: KEPT });
    expect(c.objects.filter((o) => o.kind === 'SecurityPolicy').map((o) => [o.metadata.name, Object.keys(o.spec as object).sort()])).toEqual([['app-auth', ['basicAuth', 'cors', 'targetRefs']]]);
  });
});

describe('the .htpasswd Secret basic auth needs', () => {
  it('is asked for once per namespace and name, however many Ingresses share it', () => {
    const two = [ingress({ 'auth-type': 'basic', 'auth-secret': 'htp' }), { ...ingress({ 'auth-type': 'basic', 'auth-secret': 'htp' }), metadata: { name: 'app2', namespace: 'team', annotations: { [`${N}auth-type`]: 'basic', [`${N}auth-secret`]: 'htp' } } } as KubeObject];
    expect(convertIngresses(two, GW, { clientIps: KEPT }).secrets.map((x) => `${x.namespace}/${x.name}`)).toEqual(['team/htp-htpasswd']);
  });

  it('is named with a command that never puts the value in a file or argv', () => {
    const p = protectionFor({ [`${N}auth-type`]: 'basic', [`${N}auth-secret`]: 'sec/users', [`${N}auth-secret-type`]: 'auth-map' }, 'team', 'team/app', KEPT);
    expect(p.secrets).toEqual([{ ingress: 'team/app', namespace: 'team', name: 'users-htpasswd', from: { namespace: 'sec', name: 'users' }, format: 'auth-map' }]);
    expect(htpasswdCommand(p.secrets[0])).toBe(`kubectl -n team create secret generic users-htpasswd --from-file=.htpasswd=<(kubectl -n sec get secret users -o json | jq -r '.data | to_entries[] | "\\(.key):\\(.value | @base64d)"')`);
  });
});

describe('helpers', () => {
  it.each<[string, string[] | undefined]>([
    ['10.0.0.0/8, 192.0.2.7', ['10.0.0.0/8', '192.0.2.7/32']],
    ['2001:db8::/32,2001:db8::1', ['2001:db8::/32', '2001:db8::1/128']],
    ['10.0.0.0/33', undefined],
    ['300.1.1.1', undefined],
    ['office', undefined],
    ['', undefined],
  ])('cidrsOf(%j)', (v, want) => expect(cidrsOf(v)).toEqual(want));

  it.each<[string, object]>([
    ['http://oauth2-proxy.auth.svc.cluster.local:4180/oauth2/auth', { name: 'oauth2-proxy', namespace: 'auth', port: 4180, path: '/oauth2/auth' }],
    ['http://authz.team/check', { name: 'authz', namespace: 'team', port: 80, path: '/check' }],
    ['http://authz/check', { problem: expect.stringMatching(/not an in-cluster Service/) }],
    ['https://$host/auth', { problem: expect.stringMatching(/nginx variables/) }],
  ])('authService(%s)', (url, want) => expect(authService(url)).toEqual(want));

  const s = (o: Partial<Settings>) => ({ use_ovn_lb_provider: false, nginx_use_proxy: true, node_cidr: '10.8.0.0/20', occm_loadbalancer: {}, ...o }) as Settings;
  it.each<[string, Partial<Settings>, boolean | undefined]>([
    ['amphora with PROXY protocol', {}, true],
    ['amphora without PROXY protocol', { nginx_use_proxy: false }, false],
    ['OVN (use_ovn_lb_provider true)', { use_ovn_lb_provider: true }, true],
    ['auto without the cloud\'s capabilities', { use_ovn_lb_provider: 'auto' }, undefined],
  ])('client IPs kept: %s', (_, o, kept) => expect(clientIpsFor(s(o)).kept).toBe(kept));
});
