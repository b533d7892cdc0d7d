import fs from 'node:fs';
import path from 'node:path';
import { memoryLogger } from '../../lib/log.js';
import type { CloudConfig } from '../../lib/openstack/cloud-config.js';
import { connect, type Connection } from '../../lib/openstack/connection.js';
import { scriptedServer, type ScriptedCall, type ScriptStep } from './scripted-http.js';

/** Reads a JSON fixture under test/fixtures/openstack/ (jest runs from the repo root). */
export function fixture<T = any>(rel: string): T {
  return JSON.parse(fs.readFileSync(path.resolve(process.cwd(), 'test/fixtures/openstack', rel), 'utf8')) as T;
}

/** A catalog whose endpoints point at `base` (the scripted server), in region RegionOne. */
export function catalogFor(base: string, services: Record<string, string>) {
  return Object.entries(services).map(([type, suffix]) => ({
    type,
    id: `${type}-id`,
    name: type,
    endpoints: ['public', 'internal'].map((iface) => ({ interface: iface, region: 'RegionOne', region_id: 'RegionOne', url: `${base}${suffix}` })),
  }));
}

/** The scripted Keystone answer: token in X-Subject-Token, the catalog in the body. */
export function tokenCall(token: string, services: Record<string, string>, body?: unknown): ScriptedCall {
  return {
    method: 'POST',
    path: '/v3/auth/tokens',
    body,
    status: 201,
    responseHeaders: { 'x-subject-token': token, 'x-openstack-request-id': 'req-auth' },
    response: (base: string) => {
      const t = fixture('keystone/project-scoped-password.json');
      t.token.catalog = catalogFor(base, services);
      return t;
    },
  };
}

/**
 * Runs `fn` against a connection to a scripted cloud: the token call (catalog of `services`) and
 * then `steps`; every step must be used (the server is finished afterwards).
 */
export async function withScriptedCloud(
  token: string, services: Record<string, string>, steps: ScriptStep[], fn: (c: Connection, base: string) => Promise<void>,
): Promise<void> {
  const srv = await scriptedServer([tokenCall(token, services), ...steps]);
  const cloud: CloudConfig = { name: 's', source: 't', interface: 'public', verify: true, auth: { kind: 'application_credential', authUrl: `${srv.url}/v3`, applicationCredentialId: 'a', applicationCredentialSecret: 'b-secret' } };
  const c = await connect(cloud, { logger: memoryLogger() });
  try {
    await fn(c, srv.url);
  } finally {
    await srv.finish();
  }
}
