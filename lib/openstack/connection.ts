import fs from 'node:fs';
import { UsageError } from '../errors.js';
import { readTextCapped } from '../fs/read-capped.js';
import type { Logger } from '../log.js';
import { findEndpoint, joinUrl, type EndpointLookup } from './catalog.js';
import type { CloudConfig } from './cloud-config.js';
import { createHttpClient, type HttpClient, type HttpRequest, type HttpResponse } from './http.js';
import { authenticate, type KeystoneSession } from './keystone.js';

/** Catalog service types kaas uses, with the names used in messages. */
export const SERVICES = {
  'load-balancer': 'Octavia',
  network: 'Neutron',
  compute: 'Nova',
  image: 'Glance',
} as const;
export type ServiceType = keyof typeof SERVICES;

/** An authenticated connection to one cloud: one token, one HTTP client, endpoint lookup. */
export interface Connection {
  cloud: CloudConfig;
  session: KeystoneSession;
  http: HttpClient;
  /** The catalog endpoint of a service for the cloud's interface and region, or why there is none. */
  endpoint(type: ServiceType): EndpointLookup;
  /** Sends an authenticated request to `path` under a service's endpoint root. */
  call<T>(type: ServiceType, root: string, req: Omit<HttpRequest, 'url' | 'service'> & { path: string }): Promise<HttpResponse<T>>;
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
  const session = await authenticate(http, cloud.auth);
  opts.logger.debug(`authenticated to ${cloud.name} (project ${session.projectName ?? session.projectId ?? '?'}, region ${cloud.regionName ?? 'any'})`);
  // The token body is redacted as a whole in the HTTP trace, so the catalog is shown here.
  for (const s of session.catalog) {
    opts.logger.debug(`  catalog ${s.type}: ${(s.endpoints ?? []).map((e) => `${e.interface}@${e.region_id ?? e.region ?? '?'} ${e.url}`).join(', ')}`);
  }
  return {
    cloud,
    session,
    http,
    endpoint: (type) => findEndpoint(session.catalog, type, cloud.interface, cloud.regionName),
    call: (type, root, req) =>
      http.send({
        ...req,
        url: joinUrl(root, req.path),
        service: SERVICES[type],
        headers: { 'X-Auth-Token': session.token, ...req.headers },
      }),
  };
}
