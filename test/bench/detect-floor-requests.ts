/**
 * What the library floors of `kaas detect` do once their libraries are loaded (detect-floor-libs.ts,
 * detect-floor-cached.ts): read the cloud from clouds.yaml with `yaml`, then send detect-floor.ts's four
 * requests through an `axios` instance set up as kaas's (lib/openstack/http.ts) — a Keystone password
 * token, then at once Octavia `GET /`, `GET /v2/lbaas/providers` and Neutron's external networks — and
 * print what they got as JSON. The cloud needs password auth and Default domains.
 */
import { readFileSync } from 'node:fs';
import http from 'node:http';
import type { AxiosStatic } from 'axios';

interface CatalogEntry {
  type: string;
  endpoints: { interface: string; region_id?: string; url: string }[];
}

interface Cloud {
  auth: { auth_url: string; username: string; password: string; project_name: string; user_domain_name: string; project_domain_name: string };
  region_name: string;
  interface?: string;
}

export async function detectRequests(axios: AxiosStatic, parse: (text: string) => unknown, cloudsFile: string, cloudName: string): Promise<void> {
  const clouds = parse(readFileSync(cloudsFile, 'utf8')) as { clouds: Record<string, Cloud> };
  const cloud = clouds.clouds[cloudName];
  const ax = axios.create({ timeout: 30_000, maxRedirects: 0, proxy: false, httpAgent: new http.Agent(), headers: { Accept: 'application/json' } });
  const a = cloud.auth;
  const token = await ax.post(`${a.auth_url.replace(/\/$/, '')}/auth/tokens`, {
    auth: {
      identity: { methods: ['password'], password: { user: { name: a.username, domain: { name: a.user_domain_name }, password: a.password } } },
      scope: { project: { name: a.project_name, domain: { name: a.project_domain_name } } },
    },
  });
  const catalog = (token.data as { token: { catalog: CatalogEntry[] } }).token.catalog;
  const iface = cloud.interface ?? 'public';
  const endpoint = (type: string) => catalog.find((s) => s.type === type)!.endpoints.find((e) => e.interface === iface && e.region_id === cloud.region_name)!.url;
  const headers = { 'X-Auth-Token': String(token.headers['x-subject-token']) };
  const octavia = new URL(endpoint('load-balancer')).origin;
  const neutron = new URL(endpoint('network')).origin;
  const [versions, providers, networks] = await Promise.all([
    ax.get(`${octavia}/`, { headers }),
    ax.get(`${octavia}/v2/lbaas/providers`, { headers }),
    ax.get(`${neutron}/v2.0/networks?router%3Aexternal=true`, { headers }),
  ]);
  process.stdout.write(`${JSON.stringify({ versions: versions.data, providers: providers.data, networks: networks.data })}\n`);
}
