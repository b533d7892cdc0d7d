import { UsageError } from '../../errors.js';
import type { KubeObject } from '../../render/documents.js';
import { NGINX, notConvertedReason } from './annotations.js';
import { corsPolicy, durationOf, quantityOf, rewriteFor, type RouteRule } from './features.js';
import { resolveNamedPort, type ServiceIndex } from './ports.js';
import { sharedObjects, slug } from './shared-objects.js';

export { slug };
import { protectionFor, type ClientIps, type Protection, type RequiredSecret } from './security.js';

/**
 * Ingress (ingress-nginx) → Gateway API conversion, pure: Ingress objects in, HTTPRoutes (and
 * GRPCRoutes) attached to the kaas Gateway out, with the Gateway listeners and ReferenceGrants
 * their TLS secrets need, Envoy Gateway policies for CORS, body size and connect timeouts, and
 * every annotation that could not be converted with the reason.
 */

/** The Gateway routes attach to. */
export interface GatewayRef {
  name: string;
  namespace: string;
  /** Its plain-HTTP listener (apply-gateway creates `http`). */
  httpListener: string;
  /** Its GatewayClass (gateway_class), repeated in the listener patch. */
  className: string;
}

/** One annotation (or Ingress feature) not converted. */
export interface NotConverted {
  /** namespace/name of the Ingress. */
  ingress: string;
  annotation: string;
  reason: string;
}

/** A backend that names its Service port where the name could not be resolved to a number. */
export interface UnresolvedPort {
  /** namespace/name of the Ingress. */
  ingress: string;
  /** The Ingress's namespace (where the Service must be). */
  namespace: string;
  /** Which backend: `host h path /p (spec.rules[0].http.paths[1])` or `spec.defaultBackend`. */
  where: string;
  service: string;
  portName: string;
  problem: string;
}

/**
 * The result: objects for review (and --apply), what was not converted, and Ingresses skipped whole.
 * The objects are only fit to write when `unresolvedPorts` is empty: a backendRef to a Service
 * without a port is refused by the API server.
 */
export interface Conversion {
  objects: KubeObject[];
  notConverted: NotConverted[];
  /**
   * Protection (auth, IP lists, client certificates) of an Ingress that the objects do not enforce, one
   * entry per annotation (also in notConverted). Its routes carry no parentRefs unless `attachUnprotected`.
   */
  unprotected: NotConverted[];
  /** The `.htpasswd` Secrets converted basic auth reads: to be created from the ingress-nginx auth Secrets first. */
  secrets: RequiredSecret[];
  skipped: { ingress: string; reason: string }[];
  unresolvedPorts: UnresolvedPort[];
}

interface IngressBackend { service?: { name: string; port?: { number?: number; name?: string } }; resource?: unknown }
export interface IngressPath { path?: string; pathType?: string; backend: IngressBackend }
interface IngressSpec {
  ingressClassName?: string;
  defaultBackend?: IngressBackend;
  tls?: { hosts?: string[]; secretName?: string }[];
  rules?: { host?: string; http?: { paths: IngressPath[] } }[];
}
type Ingress = KubeObject & { spec?: IngressSpec };
type Obj = Record<string, unknown>;

const ROUTE_API = 'gateway.networking.k8s.io/v1';
const EG_API = 'gateway.envoyproxy.io/v1alpha1';


/** The ingress class an Ingress asks for (spec, else the deprecated annotation). */
export function ingressClass(i: Ingress): string | undefined {
  return i.spec?.ingressClassName ?? i.metadata.annotations?.['kubernetes.io/ingress.class'];
}

const id = (i: Ingress) => `${i.metadata.namespace ?? 'default'}/${i.metadata.name}`;
const ann = (i: Ingress, key: string) => i.metadata.annotations?.[NGINX + key]?.trim();
const isTrue = (v: string | undefined) => v !== undefined && /^true$/i.test(v);

/** Whether a TLS host (possibly `*.example.org`) covers a rule host. */
function covers(tlsHost: string, host: string): boolean {
  if (tlsHost === host) return true;
  return tlsHost.startsWith('*.') && host.endsWith(tlsHost.slice(1)) && !host.slice(0, -tlsHost.length + 1).includes('.');
}

interface Ctx {
  gw: GatewayRef;
  clientIps: ClientIps;
  /** Services named by extAuth from another namespace: service namespace → policy namespace → names. */
  serviceGrants: Map<string, Map<string, Set<string>>>;
  services: ServiceIndex;
  listeners: Map<string, Obj>;
  grants: Map<string, Set<string>>;
  out: Conversion;
  /** What cannot be converted faithfully and must be fixed in the Ingress first. */
  refused: string[];
}

function note(ctx: Ctx, i: Ingress, annotation: string, reason: string) {
  ctx.out.notConverted.push({ ingress: id(i), annotation, reason });
}

/** Adds an HTTPS listener for a TLS host (or reuses it); undefined on a conflicting secret. */
function httpsListener(ctx: Ctx, i: Ingress, host: string | undefined, secret: string): string | undefined {
  const ns = i.metadata.namespace ?? 'default';
  const name = `https-${host ? slug(host) : `${slug(ns)}-${slug(secret)}`}`;
  const ref = { group: '', kind: 'Secret', name: secret, namespace: ns };
  const existing = ctx.listeners.get(name);
  if (existing) {
    const have = ((existing.tls as Obj).certificateRefs as Obj[])[0];
    if (have.name !== secret || have.namespace !== ns) {
      note(ctx, i, `spec.tls (${host ?? secret})`, `host ${host} already has a listener with secret ${have.namespace}/${have.name}; one certificate per listener`);
      return undefined;
    }
    return name;
  }
  ctx.listeners.set(name, {
    name, protocol: 'HTTPS', port: 443, ...(host ? { hostname: host } : {}),
    tls: { mode: 'Terminate', certificateRefs: [ref] },
    allowedRoutes: { namespaces: { from: 'All' } },
  });
  if (ns !== ctx.gw.namespace) {
    if (!ctx.grants.has(ns)) ctx.grants.set(ns, new Set());
    ctx.grants.get(ns)!.add(secret);
  }
  return name;
}

/** Where a backend stands in its Ingress, for messages. */
function whereIs(rule: { host?: string }, ri: number, p: IngressPath, pi: number): string {
  return `${rule.host ? `host ${rule.host} ` : ''}path ${p.path || '/'} (spec.rules[${ri}].http.paths[${pi}])`;
}

function backendRef(ctx: Ctx, i: Ingress, b: IngressBackend, where: string): Obj | undefined {
  if (!b.service) {
    note(ctx, i, 'resource backend', 'an Ingress resource backend has no HTTPRoute equivalent (backendRefs name Services)');
    return undefined;
  }
  const number = b.service.port?.number;
  if (number !== undefined) return { name: b.service.name, port: number };
  const ns = i.metadata.namespace ?? 'default';
  const portName = b.service.port?.name ?? '';
  const r = resolveNamedPort(ctx.services, ns, b.service.name, portName);
  if ('port' in r) return { name: b.service.name, port: r.port };
  ctx.out.unresolvedPorts.push({ ingress: id(i), namespace: ns, where, service: b.service.name, portName, problem: r.problem });
  return { name: b.service.name };
}

/** The path match of an Ingress path, as ingress-nginx reads it. */
function pathMatch(p: IngressPath, regex: boolean): Obj {
  const value = p.path || '/';
  if (regex) return { type: 'RegularExpression', value: `${value}.*` };
  if (p.pathType === 'Exact') return { type: 'Exact', value };
  return { type: 'PathPrefix', value };
}

/**
 * A route being built; `paths[n]` is the Ingress path of `rules[n]` as written (before features add rules);
 * `origin` maps each rule made from an Ingress path to that path (canaries merge by it).
 */
interface Built { route: Obj; rules: RouteRule[]; paths: string[]; origin: Map<RouteRule, IngressPath>; host?: string; ingress: Ingress; redirect?: Obj }

function convertOne(ctx: Ctx, i: Ingress): Built[] {
  const ns = i.metadata.namespace ?? 'default';
  const spec = i.spec ?? {};
  const tls = (spec.tls ?? []).filter((t) => t.secretName);
  for (const t of spec.tls ?? []) if (!t.secretName) note(ctx, i, 'spec.tls', `TLS for ${(t.hosts ?? []).join(', ') || 'all hosts'} without secretName (ingress-nginx's default certificate): a Gateway listener needs its own certificate`);
  const sslRedirect = ann(i, 'ssl-redirect') === undefined ? true : isTrue(ann(i, 'ssl-redirect'));
  const forceRedirect = isTrue(ann(i, 'force-ssl-redirect'));
  const protocol = (ann(i, 'backend-protocol') ?? 'HTTP').toUpperCase();
  const grpc = protocol === 'GRPC' || protocol === 'GRPCS';
  if (protocol === 'HTTPS' || protocol === 'GRPCS') {
    note(ctx, i, `${NGINX}backend-protocol`, `${protocol} to the backend needs a BackendTLSPolicy with a CA and hostname; ingress-nginx did not verify backend certificates (proxy-ssl-verify off): write the BackendTLSPolicy${grpc ? ' (the route itself is a GRPCRoute)' : ''}`);
  } else if (protocol === 'FCGI' || protocol === 'AUTO_HTTP') {
    note(ctx, i, `${NGINX}backend-protocol`, `${protocol}: no Gateway API equivalent`);
  }
  const rewrite = rewriteFor(i.metadata.annotations ?? {});
  const regex = isTrue(ann(i, 'use-regex')) || rewrite.regexPaths;
  const aliases = (ann(i, 'server-alias') ?? '').split(/[\s,]+/).filter(Boolean);

  const hosts = new Map<string, IngressPath[]>();
  const where = new Map<IngressPath, string>();
  for (const [ri, r] of (spec.rules ?? []).entries()) {
    const h = r.host ?? '';
    hosts.set(h, [...(hosts.get(h) ?? []), ...(r.http?.paths ?? [])]);
    for (const [pi, p] of (r.http?.paths ?? []).entries()) where.set(p, whereIs(r, ri, p, pi));
  }
  if (spec.defaultBackend) {
    const p = { path: '/', pathType: 'Prefix', backend: spec.defaultBackend };
    hosts.set('\0default', [p]);
    where.set(p, 'spec.defaultBackend');
  }
  const built: Built[] = [];
  for (const [hostKey, paths] of hosts) {
    const host = hostKey === '\0default' || hostKey === '' ? undefined : hostKey;
    const name = hosts.size === 1 ? i.metadata.name : hostKey === '\0default' ? `${i.metadata.name}-default-backend` : `${i.metadata.name}-${host ? slug(host) : 'any-host'}`;
    const t = host ? tls.find((x) => (x.hosts ?? []).some((th) => covers(th, host))) : tls.find((x) => !(x.hosts ?? []).length);
    const tlsHost = t && host ? (t.hosts ?? []).find((th) => covers(th, host)) : undefined;
    const listener = t ? httpsListener(ctx, i, tlsHost, t.secretName!) : undefined;
    const parents: Obj[] = [];
    const parent = (section: string) => ({ group: 'gateway.networking.k8s.io', kind: 'Gateway', name: ctx.gw.name, namespace: ctx.gw.namespace, sectionName: section });
    if (listener) parents.push(parent(listener));
    if (!listener || !(sslRedirect || forceRedirect)) parents.push(parent(ctx.gw.httpListener));
    let redirect: Obj | undefined;
    if (listener && (sslRedirect || forceRedirect)) {
      redirect = {
        apiVersion: ROUTE_API, kind: 'HTTPRoute',
        metadata: { name: `${name}-https-redirect`, namespace: ns, labels: { 'kaas.io/migrated-from': i.metadata.name } },
        spec: {
          parentRefs: [parent(ctx.gw.httpListener)], ...(host ? { hostnames: [host, ...aliases] } : {}),
          rules: [{ filters: [{ type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 308 } }] }],
        },
      };
      ctx.out.objects.push(redirect as KubeObject);
    } else if (!listener && forceRedirect) {
      note(ctx, i, `${NGINX}force-ssl-redirect`, `no TLS secret for ${host ?? 'this Ingress'} here: the Gateway gets no HTTPS listener to redirect to; add one, then a RequestRedirect route`);
    }
    const rules: RouteRule[] = [];
    const written: string[] = [];
    const origin = new Map<RouteRule, IngressPath>();
    for (const p of paths) {
      const ref = backendRef(ctx, i, p.backend, where.get(p)!);
      if (!ref) continue;
      const rule: RouteRule = { matches: [{ path: pathMatch(p, regex) }], backendRefs: [ref] };
      rules.push(rule);
      origin.set(rule, p);
      written.push(p.path || '/');
    }
    const route: Obj = {
      apiVersion: ROUTE_API, kind: grpc ? 'GRPCRoute' : 'HTTPRoute',
      metadata: { name, namespace: ns, labels: { 'kaas.io/migrated-from': i.metadata.name } },
      spec: { parentRefs: parents, ...(host ? { hostnames: [host, ...aliases] } : {}), rules },
    };
    built.push({ route, rules, paths: written, origin, host, ingress: i, redirect });
  }
  return built;
}

/** Applies the per-Ingress annotations to its routes' rules; adds the policies they need. */
function applyFeatures(ctx: Ctx, i: Ingress, built: Built[], prot: Protection) {
  const a = i.metadata.annotations ?? {};
  const ns = i.metadata.namespace ?? 'default';
  const rewrite = rewriteFor(a);
  for (const b of built) {
    const grpc = b.route.kind === 'GRPCRoute';
    for (const [n, r] of b.rules.entries()) {
      const filters: Obj[] = [];
      const path = b.paths[n];
      if (rewrite.filter && !grpc) {
        const f = rewrite.filter(path ?? '/', `${(b.route.metadata as Obj).name}${b.rules.length > 1 ? `-${n}` : ''}`);
        if (f.missingGroup) ctx.refused.push(`Ingress ${id(i)}, path ${path ?? '/'}, annotation ${NGINX}rewrite-target: ${f.missingGroup}`);
        if (f.filter) filters.push(f.filter);
        if (f.object) ctx.out.objects.push({ ...f.object, metadata: { ...(f.object.metadata as Obj), namespace: ns } } as KubeObject);
        if (f.path) r.matches![0].path = f.path;
      }
      const vhost = a[`${NGINX}upstream-vhost`];
      if (vhost) {
        const existing = filters.find((f) => f.type === 'URLRewrite');
        if (existing) (existing.urlRewrite as Obj).hostname = vhost;
        else filters.push({ type: 'URLRewrite', urlRewrite: { hostname: vhost } });
      }
      const prefix = a[`${NGINX}x-forwarded-prefix`];
      if (prefix) filters.push({ type: 'RequestHeaderModifier', requestHeaderModifier: { set: [{ name: 'X-Forwarded-Prefix', value: prefix }] } });
      const perm = a[`${NGINX}permanent-redirect`] ?? a[`${NGINX}temporal-redirect`];
      if (perm) {
        const code = Number(a[`${NGINX}permanent-redirect`] ? a[`${NGINX}permanent-redirect-code`] ?? 301 : a[`${NGINX}temporal-redirect-code`] ?? 302);
        const redirect = redirectTo(perm, code);
        if (redirect) {
          filters.splice(0, filters.length, { type: 'RequestRedirect', requestRedirect: redirect });
          delete r.backendRefs;
        } else note(ctx, i, a[`${NGINX}permanent-redirect`] ? `${NGINX}permanent-redirect` : `${NGINX}temporal-redirect`, `"${perm}" is not an absolute http(s) URL, or the code is not one of 301, 302, 303, 307, 308`);
      }
      if (filters.length && !grpc) r.filters = filters;
      const read = durationOf(a[`${NGINX}proxy-read-timeout`]);
      const send = durationOf(a[`${NGINX}proxy-send-timeout`]);
      if ((read !== undefined || send !== undefined) && !grpc) r.timeouts = { backendRequest: `${Math.max(read ?? 0, send ?? 0)}s` };
      if (grpc) {
        const m = /^\/([A-Za-z_][\w.]*)\/?(?:\.\*)?$/.exec(path ?? '/');
        if (path && path !== '/' && path !== '/.*' && !m) note(ctx, i, `path ${path}`, 'a GRPCRoute matches gRPC service and method, not paths; only "/" and "/<package.Service>/" convert');
        r.matches = m ? [{ method: { service: m[1] } }] : undefined;
        if (!r.matches) delete r.matches;
      }
    }
    const appRoot = a[`${NGINX}app-root`];
    if (appRoot && !grpc) b.rules.unshift({ matches: [{ path: { type: 'Exact', value: '/' } }], filters: [{ type: 'RequestRedirect', requestRedirect: { path: { type: 'ReplaceFullPath', replaceFullPath: appRoot }, statusCode: 302 } }] });
    const md = b.route.metadata as Obj;
    const target = { group: 'gateway.networking.k8s.io', kind: b.route.kind, name: md.name };
    // One SecurityPolicy per route (Envoy Gateway applies only the oldest of several on one target): CORS and the protection.
    const cors = isTrue(a[`${NGINX}enable-cors`]) ? { cors: corsPolicy(a) } : {};
    const guarded = Object.keys(prot.spec).length > 0;
    if (guarded || Object.keys(cors).length) {
      ctx.out.objects.push({ apiVersion: EG_API, kind: 'SecurityPolicy', metadata: { name: `${md.name}-${guarded ? 'auth' : 'cors'}`, namespace: ns, labels: { 'kaas.io/migrated-from': i.metadata.name } }, spec: { targetRefs: [target], ...cors, ...structuredClone(prot.spec) } } as KubeObject);
    }
    const btp: Obj = {};
    const size = a[`${NGINX}proxy-body-size`];
    if (size !== undefined) {
      const q = quantityOf(size);
      if (q === undefined) note(ctx, i, `${NGINX}proxy-body-size`, `"${size}" is not an nginx size (e.g. 8m, 512k)`);
      else if (q !== '0') btp.requestBuffer = { limit: q };
    }
    const connect = durationOf(a[`${NGINX}proxy-connect-timeout`]);
    if (connect !== undefined) btp.timeout = { tcp: { connectTimeout: `${connect}s` } };
    if (Object.keys(btp).length) {
      ctx.out.objects.push({ apiVersion: EG_API, kind: 'BackendTrafficPolicy', metadata: { name: md.name as string, namespace: ns }, spec: { targetRefs: [target], ...btp } } as KubeObject);
    }
  }
}

/** A RequestRedirect filter body for an absolute URL; undefined when it does not parse or the code is not allowed. */
function redirectTo(url: string, code: number): Obj | undefined {
  if (![301, 302, 303, 307, 308].includes(code)) return undefined;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'http:' && u.protocol !== 'https:') return undefined;
  return {
    scheme: u.protocol.slice(0, -1), hostname: u.hostname, ...(u.port ? { port: Number(u.port) } : {}),
    path: { type: 'ReplaceFullPath', replaceFullPath: u.pathname || '/' }, statusCode: code,
  };
}

/** An Ingress path's pathType as ingress-nginx compares it (the API server requires one; absent reads as ImplementationSpecific). */
const pathTypeOf = (p: IngressPath) => p.pathType ?? 'ImplementationSpecific';

/**
 * Whether a canary path merges into a primary's path: ingress-nginx merges an alternative backend only
 * into the location with the same path and the same pathType (internal/ingress/controller/controller.go,
 * mergeAlternativeBackends: `loc.Path == path.Path && *loc.PathType == *path.PathType`), never into a longer one.
 */
export function canaryMatches(canary: IngressPath, primary: IngressPath): boolean {
  return (canary.path || '/') === (primary.path || '/') && pathTypeOf(canary) === pathTypeOf(primary);
}

/** Merges a canary Ingress into the primary routes with the same host, path and pathType (weight, header, cookie). */
function mergeCanary(ctx: Ctx, i: Ingress, primaries: Map<string, Built[]>) {
  const ns = i.metadata.namespace ?? 'default';
  let merged = false;
  for (const [ri, r] of (i.spec?.rules ?? []).entries()) {
    for (const [pi, p] of (r.http?.paths ?? []).entries()) {
      const mark = ctx.out.unresolvedPorts.length;
      const ref = backendRef(ctx, i, p.backend, whereIs(r, ri, p, pi));
      if (!ref) continue;
      let used = false;
      for (const b of primaries.get(ns) ?? []) {
        if ((b.host ?? '') !== (r.host ?? '')) continue;
        const idx = b.rules.findIndex((x) => b.origin.has(x) && canaryMatches(p, b.origin.get(x)!) && x.backendRefs);
        if (idx < 0) continue;
        const rule = b.rules[idx];
        merged = true;
        used = true;
        const header = ann(i, 'canary-by-header');
        const cookie = ann(i, 'canary-by-cookie');
        const extra: RouteRule[] = [];
        if (header) {
          const value = ann(i, 'canary-by-header-value');
          const pattern = ann(i, 'canary-by-header-pattern');
          const match = value ? { name: header, value } : pattern ? { type: 'RegularExpression', name: header, value: pattern } : { name: header, value: 'always' };
          extra.push({ ...structuredClone(rule), matches: [{ ...structuredClone(rule.matches![0]), headers: [match] }], backendRefs: [ref] });
        }
        if (cookie) {
          const rx = { type: 'RegularExpression', name: 'Cookie', value: `(^|.*;\\s*)${cookie.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}=always(;.*|$)` };
          extra.push({ ...structuredClone(rule), matches: [{ ...structuredClone(rule.matches![0]), headers: [rx] }], backendRefs: [ref] });
        }
        const weight = ann(i, 'canary-weight');
        if (weight !== undefined && Number(weight) > 0) {
          const total = Number(ann(i, 'canary-weight-total') ?? 100);
          const w = Math.min(Number(weight), total);
          rule.backendRefs = [...rule.backendRefs!.map((x) => ({ ...x, weight: total - w })), { ...ref, weight: w }];
        }
        b.rules.splice(idx, 0, ...extra);
      }
      // A canary path no primary takes is written nowhere: its port need not resolve.
      if (!used) ctx.out.unresolvedPorts.splice(mark);
    }
  }
  if (!merged) note(ctx, i, `${NGINX}canary`, 'no primary Ingress (without the canary annotation) with the same host, path and pathType in this namespace: nothing to split traffic with');
  for (const k of Object.keys(i.metadata.annotations ?? {})) {
    if (k.startsWith(`${NGINX}canary`) || !k.startsWith(NGINX)) continue;
    note(ctx, i, k, 'on a canary Ingress ingress-nginx applies the primary Ingress\'s annotations, not this one');
  }
}

/** What convertIngresses reads besides the Ingresses. */
export interface ConvertOptions {
  /** The ingress class converted (others are skipped with the reason); default `nginx`. */
  className?: string;
  /** The Services named ports are resolved against (serviceIndex of the input files and/or the live cluster). */
  services?: ServiceIndex;
  /** Whether the gateway plan keeps client IPs (client-IP lists convert only then); default: not known. */
  clientIps?: ClientIps;
  /** Attach the routes of an Ingress whose protection is not (wholly) converted; default: emitted without parentRefs. */
  attachUnprotected?: boolean;
}

/** The annotation a detached route carries: why it has no parentRefs and how to attach it. */
export const DETACHED_ANNOTATION = 'kaas.io/detached';

/** Takes the routes of an Ingress whose protection is not converted off the Gateway (no parentRefs), saying why on each. */
function detach(built: Built[], unprotected: string[]) {
  for (const r of built.flatMap((b) => [b.route, ...(b.redirect ? [b.redirect] : [])])) {
    delete (r.spec as Obj).parentRefs;
    const md = r.metadata as { annotations?: Record<string, string> };
    md.annotations = { ...md.annotations, [DETACHED_ANNOTATION]: `not attached to the Gateway: the Ingress's ${unprotected.join(', ')} ${unprotected.length === 1 ? 'is' : 'are'} not enforced here; add the protection, then the parentRefs` };
  }
}

/** Converts Ingresses of class `className` (others are skipped with the reason). */
export function convertIngresses(ingresses: KubeObject[], gw: GatewayRef, opts: ConvertOptions = {}): Conversion {
  const className = opts.className ?? 'nginx';
  const out: Conversion = { objects: [], notConverted: [], unprotected: [], secrets: [], skipped: [], unresolvedPorts: [] };
  const clientIps = opts.clientIps ?? { kept: undefined, why: 'it is not known whether the gateway plan keeps them' };
  const ctx: Ctx = { gw, clientIps, serviceGrants: new Map(), services: opts.services ?? new Map(), listeners: new Map(), grants: new Map(), out, refused: [] };
  const detached: [Built[], string[]][] = [];
  const mine: Ingress[] = [];
  for (const o of ingresses as Ingress[]) {
    if (o.apiVersion !== 'networking.k8s.io/v1') {
      out.skipped.push({ ingress: id(o), reason: `${o.apiVersion} Ingress: convert it to networking.k8s.io/v1 first (the old APIs were removed in Kubernetes 1.22)` });
      continue;
    }
    const cls = ingressClass(o);
    if (cls !== className) {
      out.skipped.push({ ingress: id(o), reason: cls ? `ingress class ${cls}, not ${className}` : `no ingress class: ingress-nginx serves it only with --watch-ingress-without-class; set spec.ingressClassName: ${className} to convert it` });
      continue;
    }
    mine.push(o);
  }
  const primaries = new Map<string, Built[]>();
  const canaries = mine.filter((i) => isTrue(ann(i, 'canary')));
  for (const i of mine.filter((x) => !canaries.includes(x))) {
    const ns = i.metadata.namespace ?? 'default';
    const prot = protectionFor(i.metadata.annotations ?? {}, ns, id(i), clientIps);
    const built = convertOne(ctx, i);
    applyFeatures(ctx, i, built, prot);
    primaries.set(ns, [...(primaries.get(ns) ?? []), ...built]);
    // One Secret serves every Ingress of the namespace that names the same auth Secret.
    out.secrets.push(...prot.secrets.filter((x) => !out.secrets.some((y) => y.namespace === x.namespace && y.name === x.name)));
    if (prot.crossNamespaceService && built.length) {
      const { namespace: to, name } = prot.crossNamespaceService;
      if (!ctx.serviceGrants.has(to)) ctx.serviceGrants.set(to, new Map());
      const from = ctx.serviceGrants.get(to)!;
      from.set(ns, new Set([...(from.get(ns) ?? []), name]));
    }
    for (const k of Object.keys(i.metadata.annotations ?? {}).sort()) {
      const lost = prot.unprotected.get(k);
      if (lost) out.unprotected.push({ ingress: id(i), annotation: k, reason: lost });
      const reason = lost ?? prot.caveats.get(k) ?? (prot.handled.has(k) ? undefined : notConvertedReason(k));
      if (reason) note(ctx, i, k, reason);
    }
    if (prot.unprotected.size && !opts.attachUnprotected) detached.push([built, [...prot.unprotected.keys()].map((k) => k.slice(NGINX.length))]);
  }
  for (const i of canaries) mergeCanary(ctx, i, primaries);
  for (const [built, keys] of detached) detach(built, keys);
  if (ctx.refused.length) {
    throw new UsageError(`${ctx.refused.length} Ingress path${ctx.refused.length === 1 ? '' : 's'} cannot be converted as written; nothing was written or applied`, {
      problems: ctx.refused,
      hint: 'fix the rewrite-target or the path of each Ingress named above (kubectl edit ingress), then run migrate-ingress again',
    });
  }
  const routes = [...primaries.values()].flat().map((b) => b.route as KubeObject);
  const extra = sharedObjects(gw, ctx.listeners, ctx.grants, ctx.serviceGrants);
  out.objects = [...extra, ...routes, ...out.objects];
  return out;
}
