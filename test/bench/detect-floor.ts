/**
 * The floor of `kaas detect`: a bare Node script (node:http, no dependencies) sending the same four
 * HTTP requests — a Keystone password token, then at once Octavia `GET /`, `GET /v2/lbaas/providers`
 * and Neutron's external networks — and printing what it got as JSON. Reads FLOOR_AUTH_URL,
 * FLOOR_USER, FLOOR_PASSWORD, FLOOR_PROJECT, FLOOR_REGION (Default domains, public interface).
 */
import http from 'node:http';

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: unknown;
}

function request(method: string, url: string, headers: Record<string, string>, body?: unknown): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const data = body === undefined ? undefined : JSON.stringify(body);
    const req = http.request(url, { method, headers: { Accept: 'application/json', ...(data && { 'Content-Type': 'application/json' }), ...headers } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const status = res.statusCode ?? 0;
        if (status >= 300) reject(new Error(`${method} ${url}: ${status}`));
        else resolve({ status, headers: res.headers, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) });
      });
    });
    req.on('error', reject);
    req.end(data);
  });
}

interface CatalogEntry {
  type: string;
  endpoints: { interface: string; region_id?: string; url: string }[];
}

const env = (k: string) => process.env[k] ?? '';
const token = await request('POST', `${env('FLOOR_AUTH_URL').replace(/\/$/, '')}/auth/tokens`, {}, {
  auth: {
    identity: { methods: ['password'], password: { user: { name: env('FLOOR_USER'), domain: { name: 'Default' }, password: env('FLOOR_PASSWORD') } } },
    scope: { project: { name: env('FLOOR_PROJECT'), domain: { name: 'Default' } } },
  },
});
const catalog = (token.body as { token: { catalog: CatalogEntry[] } }).token.catalog;
const endpoint = (type: string) => catalog.find((s) => s.type === type)!.endpoints.find((e) => e.interface === 'public' && e.region_id === env('FLOOR_REGION'))!.url;
const auth = { 'X-Auth-Token': String(token.headers['x-subject-token']) };
const octavia = new URL(endpoint('load-balancer')).origin;
const neutron = new URL(endpoint('network')).origin;
const [versions, providers, networks] = await Promise.all([
  request('GET', `${octavia}/`, auth),
  request('GET', `${octavia}/v2/lbaas/providers`, auth),
  request('GET', `${neutron}/v2.0/networks?router%3Aexternal=true`, auth),
]);
process.stdout.write(`${JSON.stringify({ versions: versions.body, providers: providers.body, networks: networks.body })}\n`);
