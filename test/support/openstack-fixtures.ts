import fs from 'node:fs';
import path from 'node:path';
import type { ScriptedCall } from './scripted-http.js';

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
