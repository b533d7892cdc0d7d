import { didYouMeanIn } from './suggest.js';

/**
 * The checks of `registry_mirrors` item by item, with the precise reason and the way to fix it
 * (the JSON Schema in ./schema.ts only says "is not a list of …"). The field meanings follow
 * containerd's hosts.toml (containerd/containerd docs/hosts.md, v1.7 and v2.x): `endpoints` are the
 * `[host."…"]` sections tried in order, `server` the fallback, `capabilities`, `override_path`,
 * `skip_verify` and `ca` their options.
 */

/** The fields an entry may have, in the order `settings show` and the docs list them. */
export const REGISTRY_MIRROR_FIELDS = ['registry', 'endpoints', 'server', 'capabilities', 'override_path', 'skip_verify', 'ca_file', 'ca'] as const;

/** containerd's host capabilities (docs/hosts.md "capabilities field"). */
export const REGISTRY_CAPABILITIES = ['pull', 'resolve', 'push'] as const;

// A registry host as in image names: DNS name or IPv4, or [IPv6], with an optional port.
const HOST = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*|\[[0-9A-Fa-f:.]+\])(?::(\d{1,5}))?$/;

const show = (v: unknown) => JSON.stringify(v) ?? String(v);

/** Problems of the `registry` field: a host[:port] as written in image names, or "_default". */
function registryProblems(v: unknown, at: string): string[] {
  if (typeof v !== 'string' || v === '') return [`${at}: ${show(v)} is not a registry host; write it as in image names, e.g. docker.io or harbor.example:5000 (or _default for every registry)`];
  if (v === '_default') return [];
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(v);
  if (scheme) return [`${at}: ${show(v)} has a scheme; write the registry host as in image names: ${show(v.slice(scheme[0].length).replace(/\/.*$/, ''))}`];
  if (v.includes('/')) return [`${at}: ${show(v)} has a path; containerd keys its config by registry host only: ${show(v.replace(/\/.*$/, ''))}`];
  const m = HOST.exec(v);
  if (!m || (m[1] !== undefined && Number(m[1]) > 65535)) return [`${at}: ${show(v)} is not a registry host[:port] like docker.io or harbor.example:5000`];
  return [];
}

/** Problems of one URL (an endpoint or the server): absolute http(s), a host, no query or fragment. */
export function endpointProblem(v: unknown, at: string): string | undefined {
  if (typeof v !== 'string') return `${at}: ${show(v)} is not a URL; write it as "https://mirror.example:5000"`;
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return `${at}: ${show(v)} is not a URL; write it with its scheme, e.g. "https://${v.replace(/^\/+/, '')}"`;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return `${at}: ${show(v)} is not an http or https URL (containerd talks to registries over HTTP(S) only)`;
  if (u.username || u.password) return `${at}: ${show(v)} carries credentials; containerd's hosts.toml has no place for them: remove them (registry credentials are image pull secrets)`;
  if (u.search || u.hash) return `${at}: ${show(v)} has a query or fragment, which containerd does not use: remove it`;
  return undefined;
}

function boolProblem(v: unknown, at: string): string[] {
  return v === undefined || typeof v === 'boolean' ? [] : [`${at}: ${show(v)} is not a boolean (true or false)`];
}

/** Problems of one entry, each starting with its path. */
function entryProblems(e: unknown, at: string): string[] {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) {
    return [`${at}: ${show(e)} is not a map; write {registry: docker.io, endpoints: ["https://mirror.example"]}`];
  }
  const o = e as Record<string, unknown>;
  const out: string[] = [];
  for (const k of Object.keys(o)) {
    if (!(REGISTRY_MIRROR_FIELDS as readonly string[]).includes(k)) out.push(`${at}.${k}: not a registry_mirrors field${didYouMeanIn(k, [...REGISTRY_MIRROR_FIELDS])} (known: ${REGISTRY_MIRROR_FIELDS.join(', ')})`);
  }
  out.push(...registryProblems(o.registry, `${at}.registry`));
  if (o.endpoints !== undefined) {
    if (!Array.isArray(o.endpoints)) out.push(`${at}.endpoints: ${show(o.endpoints)} is not a list of URLs; write ["https://mirror.example:5000"]`);
    else {
      o.endpoints.forEach((u, i) => {
        const p = endpointProblem(u, `${at}.endpoints[${i}]`);
        if (p) out.push(p);
      });
      const dup = o.endpoints.find((u, i) => (o.endpoints as unknown[]).indexOf(u) !== i);
      if (dup !== undefined) out.push(`${at}.endpoints: ${show(dup)} is listed twice`);
    }
  }
  if (o.server !== undefined) {
    const p = endpointProblem(o.server, `${at}.server`);
    if (p) out.push(p);
  }
  const noEndpoints = !Array.isArray(o.endpoints) || o.endpoints.length === 0;
  const nothing = noEndpoints && o.server === undefined && o.ca === undefined && o.ca_file === undefined && o.skip_verify === undefined;
  if (nothing) out.push(`${at}: says nothing about ${typeof o.registry === 'string' ? o.registry : 'this registry'}: give the mirrors to try (endpoints), a server to send its pulls to, or the CA of its certificate (ca_file)`);
  if (o.capabilities !== undefined) {
    const caps = o.capabilities;
    if (!Array.isArray(caps) || caps.length === 0) out.push(`${at}.capabilities: ${show(caps)} is not a non-empty list of ${REGISTRY_CAPABILITIES.join(', ')}`);
    else {
      caps.forEach((c, i) => {
        if (!(REGISTRY_CAPABILITIES as readonly unknown[]).includes(c)) out.push(`${at}.capabilities[${i}]: ${show(c)} is not a containerd capability${typeof c === 'string' ? didYouMeanIn(c, [...REGISTRY_CAPABILITIES]) : ''} (one of ${REGISTRY_CAPABILITIES.join(', ')})`);
      });
      const dup = caps.find((c, i) => caps.indexOf(c) !== i);
      if (dup !== undefined) out.push(`${at}.capabilities: ${show(dup)} is listed twice`);
    }
  }
  out.push(...boolProblem(o.override_path, `${at}.override_path`), ...boolProblem(o.skip_verify, `${at}.skip_verify`));
  if (o.ca_file !== undefined && (typeof o.ca_file !== 'string' || o.ca_file.trim() === '')) out.push(`${at}.ca_file: ${show(o.ca_file)} is not a file path; write the path of the CA's PEM file, e.g. ./registry-ca.pem`);
  if (o.ca !== undefined && (typeof o.ca !== 'string' || !/-----BEGIN CERTIFICATE-----[\s\S]+-----END CERTIFICATE-----/.test(o.ca))) {
    out.push(`${at}.ca: not a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----); paste the CA's PEM text, or use ca_file with its path`);
  }
  if (o.ca !== undefined && o.ca_file !== undefined) out.push(`${at}: both ca and ca_file are set; keep one`);
  if (o.skip_verify === true && (o.ca !== undefined || o.ca_file !== undefined)) out.push(`${at}: skip_verify: true ignores the CA; remove skip_verify (the CA is the safe way) or the CA`);
  return out;
}

/** Every problem of a `registry_mirrors` value at `path` (empty when it is valid). */
export function registryMirrorProblems(value: unknown, path: string): string[] {
  if (!Array.isArray(value)) return [`${path}: ${show(value)} is not a list; write [{registry: docker.io, endpoints: ["https://mirror.example:5000"]}] (or [] for none)`];
  const out = value.flatMap((e, i) => entryProblems(e, `${path}[${i}]`));
  const names = value.map((e) => (e && typeof e === 'object' ? (e as Record<string, unknown>).registry : undefined));
  names.forEach((n, i) => {
    if (typeof n === 'string' && names.indexOf(n) !== i) out.push(`${path}[${i}].registry: ${n} is also configured in ${path}[${names.indexOf(n)}]; one hosts.toml per registry: merge the two entries`);
  });
  return out;
}
