import fs from 'node:fs';
import { UsageError } from '../errors.js';
import { readTextCapped } from '../fs/read-capped.js';
import type { Logger } from '../log.js';
import { findEndpoint, joinUrl, type EndpointLookup } from './catalog.js';
import type { CloudConfig } from './cloud-config.js';
import { createHttpClient, type HttpClient, type HttpRequest, type HttpResponse } from './http.js';
import { fileAuthCache } from './auth-cache.js';
import { HttpError } from './http-error.js';
import { authenticate, type KeystoneSession } from './keystone.js';

/** Catalog service types kaas uses, with the names used in messages. */
export const SERVICES = {
  'load-balancer': 'Octavia',
  network: 'Neutron',
  compute: 'Nova',
  image: 'Glance',
} as const;
export type ServiceType = keyof typeof SERVICES;

/** A request to a service, by its path under the service's endpoint root. */
export type ServiceRequest = Omit<HttpRequest, 'url' | 'service'> & { path: string };

/** An authenticated connection to one cloud: one token, one HTTP client, endpoint lookup. */
export interface Connection {
  cloud: CloudConfig;
  session: KeystoneSession;
  http: HttpClient;
  /** The catalog endpoint of a service for the cloud's interface and region, or why there is none. */
  endpoint(type: ServiceType): EndpointLookup;
  /** Sends an authenticated request to `path` under a service's endpoint root. */
  call<T>(type: ServiceType, root: string, req: ServiceRequest): Promise<HttpResponse<T>>;
}

/** Options of connect(); `http` may be injected (tests, shared counters). */
export interface ConnectOptions {
  logger: Logger;
  timeoutMs?: number;
  http?: HttpClient;
  readFile?: (p: string) => string;
}

/** A CA bundle is a few KiB; a system bundle of every public CA about 200 KiB. */
export const MAX_CACERT_BYTES = 4 * 1024 * 1024;

/** Reads a cacert file, capped. */
export function readCaFile(p: string): string {
  return readTextCapped(p, { maxBytes: MAX_CACERT_BYTES, expect: 'a CA bundle (PEM) is a few KiB' });
}

/**
 * Reads the CA bundle named by clouds.yaml `cacert`, with a clear error when it is missing or is not
 * PEM: Node ignores what it cannot parse as a certificate, so a DER file or a key used to fail later as
 * "not signed by the CA in cacert", blaming the CA.
 */
export function readCaBundle(cloud: CloudConfig, readFile: (p: string) => string): string | undefined {
  if (!cloud.cacert || !cloud.verify) return undefined;
  let text: string;
  try {
    text = readFile(cloud.cacert);
  } catch (err) {
    throw new UsageError(`cacert ${cloud.cacert} of cloud "${cloud.name}" cannot be read: ${(err as Error).message}`, {
      hint: 'point cacert (or OS_CACERT) at a readable PEM file',
    });
  }
  if (!/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.test(text)) {
    const what = text.includes('PRIVATE KEY-----') ? 'it holds a private key, no certificate'
      : text.trim() === '' ? 'it is empty'
      : /[\x00-\x08\x0e-\x1f\ufffd]/.test(text.slice(0, 64)) ? 'it looks binary (DER?)'
      : 'no -----BEGIN CERTIFICATE----- block';
    throw new UsageError(`cacert ${cloud.cacert} of cloud "${cloud.name}" is not a PEM certificate (${what})`, {
      hint: `point cacert (or OS_CACERT) at the CA bundle in PEM form; a DER file converts with: openssl x509 -inform der -in ${cloud.cacert} -out ca.pem`,
    });
  }
  return text;
}

/** Authenticates against Keystone and returns the connection every service module uses. */
export async function connect(cloud: CloudConfig, opts: ConnectOptions): Promise<Connection> {
  const http =
    opts.http ??
    createHttpClient({
      logger: opts.logger,
      cloud: cloud.name,
      cloudFile: cloud.source,
      timeoutMs: opts.timeoutMs,
      ca: readCaBundle(cloud, opts.readFile ?? readCaFile),
      verify: cloud.verify,
    });
  const cache = cloud.authCacheDir ? fileAuthCache(cloud.authCacheDir, opts.logger) : undefined;
  const fresh = async () => {
    const s = await authenticate(http, cloud.auth);
    if (s.expiresAt) cache?.store(cloud.auth, s);
    return s;
  };
  const stored = cache?.load(cloud.auth, Date.now());
  // One object for the whole run: a token refused by a service is replaced in it (see call below).
  const session = stored ?? (await fresh());
  opts.logger.debug(`authenticated to ${cloud.name} (project ${session.projectName ?? session.projectId ?? '?'}, region ${cloud.regionName ?? 'any'})`);
  // The token body is redacted as a whole in the HTTP trace, so the catalog is shown here.
  for (const s of session.catalog) {
    opts.logger.debug(`  catalog ${s.type}: ${(s.endpoints ?? []).map((e) => `${e.interface}@${e.region_id ?? e.region ?? '?'} ${e.url}`).join(', ')}`);
  }
  // A stored token a service refuses (401: revoked, or expired during a long run) is replaced once
  // by a new one, shared by the requests that were refused together; the refused request is sent
  // again (a 401 comes before the service acts). A token asked for in this run is never replaced.
  const storedToken = stored?.token;
  let renewal: Promise<void> | undefined;
  const renew = () => (renewal ??= (async () => {
    opts.logger.debug('auth cache: a service refused the stored token (401): asking Keystone for a new one');
    cache?.drop(cloud.auth);
    Object.assign(session, await fresh());
  })());
  const send = <T>(type: ServiceType, root: string, req: ServiceRequest, token: string) =>
    http.send<T>({
      ...req,
      url: joinUrl(root, req.path),
      service: SERVICES[type],
      headers: { 'X-Auth-Token': token, ...req.headers },
    });
  return {
    cloud,
    session,
    http,
    endpoint: (type) => findEndpoint(session.catalog, type, cloud.interface, cloud.regionName),
    call: async <T>(type: ServiceType, root: string, req: ServiceRequest) => {
      const token = session.token;
      try {
        return await send<T>(type, root, req, token);
      } catch (err) {
        if (!(err instanceof HttpError) || err.status !== 401 || token !== storedToken) throw err;
        await renew();
        return send<T>(type, root, req, session.token);
      }
    },
  };
}
