import { NGINX } from './annotations.js';

/**
 * ingress-nginx's access protection (basic auth, external auth, client-IP allow/deny lists, client
 * certificates, `satisfy`) → an Envoy Gateway SecurityPolicy, pure. What Envoy Gateway v1.9 can enforce
 * is converted (SecurityPolicy basicAuth, extAuth.http, authorization with clientCIDRs: the bundled CRD
 * templates/gateway/envoy-gateway-v1.9.0/crds/gateway.envoyproxy.io_securitypolicies.yaml); what it
 * cannot is named per annotation, and the caller keeps the route away from the Gateway unless told.
 */

type Obj = Record<string, unknown>;

/** Whether client source addresses reach Envoy (the gateway plan's clientIpKept), and why. */
export interface ClientIps {
  /** undefined: not known (no plan could be made offline). */
  kept: boolean | undefined;
  why: string;
}

/** A Secret the user must create before the converted policy can work (kaas never copies secret values). */
export interface RequiredSecret {
  /** namespace/name of the Ingress. */
  ingress: string;
  namespace: string;
  name: string;
  /** The ingress-nginx auth Secret it is made from. */
  from: { namespace: string; name: string };
  /** ingress-nginx auth-secret-type: the `auth` key (htpasswd file), or one key per user. */
  format: 'auth-file' | 'auth-map';
}

/** What the protection annotations of one Ingress become. */
export interface Protection {
  /** SecurityPolicy spec fields (basicAuth, extAuth, authorization); empty when nothing converts. */
  spec: Obj;
  /** A Service the extAuth backendRef names in another namespace (needs a ReferenceGrant there). */
  crossNamespaceService?: { namespace: string; name: string };
  secrets: RequiredSecret[];
  /** Protection that is not enforced by the converted objects: annotation → why. */
  unprotected: Map<string, string>;
  /** Converted, with what is not carried over: annotation → what. */
  caveats: Map<string, string>;
  /** Every protection annotation this decided on (the generic not-converted list skips them). */
  handled: Set<string>;
}

const PROTECTION_KEYS = [
  'auth-type', 'auth-secret', 'auth-secret-type', 'auth-realm', 'auth-url', 'auth-method', 'auth-signin', 'auth-signin-redirect-param',
  'auth-response-headers', 'auth-request-redirect', 'auth-cache-key', 'auth-cache-duration', 'auth-keepalive', 'auth-keepalive-requests',
  'auth-keepalive-timeout', 'auth-keepalive-share-vars', 'auth-proxy-set-headers', 'auth-always-set-cookie', 'auth-snippet',
  'whitelist-source-range', 'allowlist-source-range', 'denylist-source-range', 'satisfy',
  'auth-tls-secret', 'auth-tls-verify-client', 'auth-tls-verify-depth', 'auth-tls-error-page', 'auth-tls-pass-certificate-to-upstream', 'auth-tls-match-cn',
];

/** A comma list of IPs/CIDRs as CIDRs (a bare address is one host: /32, /128); undefined when one is not an address. */
export function cidrsOf(v: string): string[] | undefined {
  const out: string[] = [];
  for (const x of v.split(',').map((s) => s.trim()).filter(Boolean)) {
    const m = /^([0-9.]+|[0-9a-fA-F:]+)(?:\/(\d{1,3}))?$/.exec(x);
    if (!m) return undefined;
    const v6 = m[1].includes(':');
    if (!v6 && !/^(\d{1,3})(\.\d{1,3}){3}$/.test(m[1])) return undefined;
    if (!v6 && m[1].split('.').some((o) => Number(o) > 255)) return undefined;
    const bits = m[2] === undefined ? (v6 ? 128 : 32) : Number(m[2]);
    if (bits > (v6 ? 128 : 32)) return undefined;
    out.push(`${m[1]}/${bits}`);
  }
  return out.length ? out : undefined;
}

/** An auth-url naming an in-cluster Service (`http://<svc>.<ns>[.svc[.cluster.local]][:port]/path`), or why it cannot be an extAuth backendRef. */
export function authService(url: string): { namespace: string; name: string; port: number; path: string } | { problem: string } {
  if (url.includes('$')) return { problem: 'it uses nginx variables, which Envoy does not expand' };
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return { problem: 'it is not an absolute URL' };
  }
  if (u.protocol === 'https:') return { problem: 'https to the auth service needs a BackendTLSPolicy (CA, hostname) kaas cannot know' };
  if (u.protocol !== 'http:') return { problem: `scheme ${u.protocol} is not http` };
  if (u.search) return { problem: `its query string (${u.search}) cannot be sent: extAuth.http has a path, no query, and auth services read options from it (e.g. oauth2-proxy allowed_groups)` };
  const m = /^([a-z0-9]([-a-z0-9]*[a-z0-9])?)\.([a-z0-9]([-a-z0-9]*[a-z0-9])?)(\.svc(\.cluster\.local)?)?$/.exec(u.hostname);
  if (!m) return { problem: `host ${u.hostname} is not an in-cluster Service (<service>.<namespace>.svc): extAuth sends to a Service (or an Envoy Gateway Backend, which must be enabled in its config)` };
  return { name: m[1], namespace: m[3], port: u.port ? Number(u.port) : 80, path: u.pathname || '/' };
}

/**
 * The protection of one Ingress (its annotations) as SecurityPolicy fields. `namespace` is the Ingress's;
 * `clientIps` decides whether allow/deny lists can be enforced (Envoy must see the client's address).
 */
export function protectionFor(annotations: Record<string, string>, namespace: string, ingress: string, clientIps: ClientIps): Protection {
  const get = (k: string) => annotations[NGINX + k]?.trim();
  const p: Protection = { spec: {}, secrets: [], unprotected: new Map(), caveats: new Map(), handled: new Set() };
  for (const k of PROTECTION_KEYS) if (get(k) !== undefined) p.handled.add(NGINX + k);
  const lost = (k: string, why: string) => p.unprotected.set(NGINX + k, why);
  const caveat = (k: string, why: string) => { if (get(k) !== undefined) p.caveats.set(NGINX + k, why); };

  // Basic auth (ingress-nginx internal/ingress/annotations/auth): auth-type basic|digest with auth-secret.
  const type = get('auth-type');
  let mechanisms = 0;
  if (type !== undefined) {
    mechanisms++;
    const secret = get('auth-secret');
    const format = get('auth-secret-type') ?? 'auth-file';
    if (type !== 'basic') lost('auth-type', type === 'digest' ? 'digest auth: Envoy Gateway has only basic auth' : `"${type}" is neither basic nor digest (ingress-nginx denies the location)`);
    else if (!secret) lost('auth-type', 'basic auth without auth-secret (ingress-nginx denies the location)');
    else if (format !== 'auth-file' && format !== 'auth-map') lost('auth-secret-type', `"${format}" is neither auth-file nor auth-map`);
    else {
      const [fromNs, fromName] = secret.includes('/') ? secret.split('/', 2) : [namespace, secret];
      const name = `${fromName}-htpasswd`.slice(0, 253);
      p.spec.basicAuth = { users: { name } };
      p.secrets.push({ ingress, namespace, name, from: { namespace: fromNs, name: fromName }, format });
      caveat('auth-realm', 'Envoy Gateway basicAuth has no realm (browsers show their default prompt)');
    }
  }

  // External auth: auth-url as extAuth.http to the Service it names.
  const url = get('auth-url');
  if (url !== undefined) {
    mechanisms++;
    const svc = authService(url);
    if ('problem' in svc) lost('auth-url', `"${url}" cannot be an extAuth backend: ${svc.problem}`);
    else if (get('auth-snippet') !== undefined) lost('auth-snippet', 'raw nginx in the auth location: no Envoy equivalent');
    else {
      const headers = (get('auth-response-headers') ?? '').split(',').map((h) => h.trim()).filter(Boolean);
      p.spec.extAuth = {
        http: {
          backendRefs: [{ name: svc.name, ...(svc.namespace !== namespace ? { namespace: svc.namespace } : {}), port: svc.port }],
          pathOverride: svc.path,
          ...(headers.length ? { headersToBackend: headers } : {}),
        },
      };
      if (svc.namespace !== namespace) p.crossNamespaceService = { namespace: svc.namespace, name: svc.name };
      p.caveats.set(NGINX + 'auth-url', `sent as Envoy ext_authz to Service ${svc.namespace}/${svc.name}:${svc.port} path ${svc.path}: the auth service gets the client's method and headers, but no X-Original-URL/X-Original-Method (ingress-nginx's); a failing auth service answers 403 (ingress-nginx: 500)`);
      caveat('auth-signin', 'not carried: an unauthenticated client gets the auth service\'s 401 instead of a redirect to the sign-in page (access stays denied); for a login flow use SecurityPolicy oidc, or let the auth service redirect');
      caveat('auth-signin-redirect-param', 'not carried: see auth-signin');
      caveat('auth-method', 'not carried: Envoy sends the client\'s own method to the auth service');
      caveat('auth-request-redirect', 'not carried: no X-Auth-Request-Redirect header');
      caveat('auth-cache-key', 'not carried: Envoy asks the auth service on every request');
      caveat('auth-cache-duration', 'not carried: see auth-cache-key');
      caveat('auth-proxy-set-headers', 'not carried: extra headers to the auth service need headersToExtAuth by hand');
      caveat('auth-always-set-cookie', 'not carried: no equivalent');
      for (const k of ['auth-keepalive', 'auth-keepalive-requests', 'auth-keepalive-timeout', 'auth-keepalive-share-vars']) caveat(k, 'connection tuning: Envoy pools connections itself');
    }
  } else if (get('auth-snippet') !== undefined) caveat('auth-snippet', 'without auth-url ingress-nginx ignores it');

  // Client-IP lists (ingress-nginx ipallowlist/ipdenylist: deny lines first, then allow, then deny all).
  const allow = [get('whitelist-source-range'), get('allowlist-source-range')].filter((x): x is string => x !== undefined);
  const deny = get('denylist-source-range');
  if (allow.length || deny !== undefined) {
    mechanisms++;
    const allowCidrs = allow.length ? cidrsOf(allow.join(',')) : [];
    const denyCidrs = deny !== undefined ? cidrsOf(deny) : [];
    const keys = [...(get('whitelist-source-range') !== undefined ? ['whitelist-source-range'] : []), ...(get('allowlist-source-range') !== undefined ? ['allowlist-source-range'] : []), ...(deny !== undefined ? ['denylist-source-range'] : [])];
    if (!allowCidrs || !denyCidrs) keys.forEach((k) => lost(k, 'not a comma list of IP addresses or CIDRs'));
    else if (clientIps.kept !== true) keys.forEach((k) => lost(k, `a client-IP list needs the client's address at Envoy, and ${clientIps.why}`));
    else {
      p.spec.authorization = {
        defaultAction: allow.length ? 'Deny' : 'Allow',
        rules: [
          ...(denyCidrs.length ? [{ name: 'denylist-source-range', action: 'Deny', principal: { clientCIDRs: denyCidrs } }] : []),
          ...(allowCidrs.length ? [{ name: 'allowlist-source-range', action: 'Allow', principal: { clientCIDRs: allowCidrs } }] : []),
        ],
      };
      keys.forEach((k) => p.caveats.set(NGINX + k, `enforced on the client address Envoy sees: ${clientIps.why}`));
    }
  }

  // Client certificates: per listener in Envoy Gateway, not per route.
  const tls = get('auth-tls-secret');
  if (tls !== undefined && (get('auth-tls-verify-client') ?? 'on') !== 'off') {
    mechanisms++;
    lost('auth-tls-secret', 'client-certificate verification is per listener in Envoy Gateway (ClientTrafficPolicy tls.clientValidation on the host\'s https listener), not per route; kaas does not generate it: a listener\'s own ClientTrafficPolicy replaces the Gateway-wide one for that listener (kaas\'s PROXY protocol, where the plan uses it)');
    for (const k of ['auth-tls-verify-client', 'auth-tls-verify-depth', 'auth-tls-error-page', 'auth-tls-pass-certificate-to-upstream', 'auth-tls-match-cn']) if (get(k) !== undefined) lost(k, 'client certificates: see auth-tls-secret');
  } else if (tls !== undefined) caveat('auth-tls-secret', 'auth-tls-verify-client is off: ingress-nginx verified no client certificate, nothing to carry over');

  const satisfy = get('satisfy');
  if (satisfy !== undefined && satisfy !== 'all') {
    if (satisfy === 'any' && mechanisms > 1) caveat('satisfy', 'satisfy any (one of auth or the IP list sufficed) becomes all: a SecurityPolicy requires every check, so clients in the IP list now also need to authenticate (stricter, never more open)');
    else if (satisfy !== 'any') caveat('satisfy', `"${satisfy}" is neither all nor any: ingress-nginx ignores it`);
  }
  // What belongs to a mechanism that is not converted: said, not silently dropped.
  const parts: [string, string[]][] = [
    ['auth-type', ['auth-secret', 'auth-secret-type', 'auth-realm']],
    ['auth-url', ['auth-signin', 'auth-signin-redirect-param', 'auth-method', 'auth-response-headers', 'auth-request-redirect', 'auth-cache-key', 'auth-cache-duration', 'auth-proxy-set-headers', 'auth-always-set-cookie', 'auth-keepalive', 'auth-keepalive-requests', 'auth-keepalive-timeout', 'auth-keepalive-share-vars']],
  ];
  for (const [parent, keys] of parts) {
    if (p.spec[parent === 'auth-type' ? 'basicAuth' : 'extAuth'] !== undefined) continue;
    const why = get(parent) !== undefined ? `not converted: part of ${parent}, which is not` : `ingress-nginx ignores it without ${parent}`;
    for (const k of keys) if (get(k) !== undefined && !p.unprotected.has(NGINX + k) && !p.caveats.has(NGINX + k)) p.caveats.set(NGINX + k, why);
  }
  return p;
}

/**
 * How to make the `.htpasswd` Secret Envoy Gateway's basicAuth reads from an ingress-nginx auth Secret,
 * as a shell command (bash: process substitution, so the value never lands in a file or argv).
 */
export function htpasswdCommand(s: RequiredSecret): string {
  const read = s.format === 'auth-file'
    ? `kubectl -n ${s.from.namespace} get secret ${s.from.name} -o jsonpath='{.data.auth}' | base64 -d`
    : `kubectl -n ${s.from.namespace} get secret ${s.from.name} -o json | jq -r '.data | to_entries[] | "\\(.key):\\(.value | @base64d)"'`;
  return `kubectl -n ${s.namespace} create secret generic ${s.name} --from-file=.htpasswd=<(${read})`;
}

/** Why a copied htpasswd may still not work with Envoy (its basic auth verifies only SHA-1 hashes). */
export const HTPASSWD_HASHES = 'Envoy Gateway v1.9 basicAuth verifies only {SHA} hashes (htpasswd -s); lines hashed otherwise (apr1 $apr1$, bcrypt $2y$, crypt: htpasswd\'s defaults) must be re-hashed with the passwords, or those users cannot log in';
