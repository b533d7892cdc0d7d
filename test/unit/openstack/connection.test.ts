import { UsageError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect, readCaBundle, SERVICES, type ServiceType } from '../../../lib/openstack/connection.js';
import { createHttpClient } from '../../../lib/openstack/http.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import { authenticate, buildAuthBody } from '../../../lib/openstack/keystone.js';
import { clearSecrets, redact } from '../../../lib/redact.js';
import { tokenCall } from '../../support/openstack-fixtures.js';
import { scriptedServer, type ScriptStep } from '../../support/scripted-http.js';

const TOKEN = 'gAAAAABconnection-token-77';
const cloud = (authUrl: string, more: Partial<CloudConfig> = {}): CloudConfig => ({
  name: 'lab', source: 'test', interface: 'public', verify: true, ...more,
  auth: { kind: 'application_credential', authUrl, applicationCredentialId: 'ac', applicationCredentialSecret: 'ac-secret-1' },
});

afterEach(() => clearSecrets());

/** Runs `fn` with the scripted server; every step must be used. */
async function withServer(steps: ScriptStep[], fn: (base: string) => Promise<void>): Promise<void> {
  const srv = await scriptedServer(steps);
  try {
    await fn(srv.url);
  } finally {
    await srv.finish();
  }
}

describe('the CA bundle of a cloud (cacert)', () => {
  const files: Record<string, string> = { '/etc/ssl/lab-ca.pem': '-----BEGIN CERTIFICATE-----\nlab\n-----END CERTIFICATE-----\n' };
  const reads: string[] = [];
  const readFile = (p: string) => {
    reads.push(p);
    if (!(p in files)) throw new Error(`ENOENT: no such file or directory, open '${p}'`);
    return files[p];
  };
  beforeEach(() => reads.splice(0));

  it('is read from the cacert path', () => {
    expect(readCaBundle(cloud('x', { cacert: '/etc/ssl/lab-ca.pem' }), readFile)).toBe(files['/etc/ssl/lab-ca.pem']);
  });

  it.each([
    ['no cacert', {}],
    ['verify: false (nothing is checked, so the bundle is not even read)', { cacert: '/missing.pem', verify: false }],
  ])('none with %s', (_title, more) => {
    expect(readCaBundle(cloud('x', more), readFile)).toBeUndefined();
    expect(reads).toEqual([]);
  });

  it('an unreadable cacert is a usage error naming the file, the cloud and the fix', () => {
    const run = () => readCaBundle(cloud('x', { cacert: '/missing.pem' }), readFile);
    expect(run).toThrow(UsageError);
    expect(run).toThrow(`cacert /missing.pem of cloud "lab" cannot be read: ENOENT: no such file or directory, open '/missing.pem'`);
    try {
      run();
    } catch (e) {
      expect((e as UsageError).hint).toBe('point cacert (or OS_CACERT) at a readable PEM file');
    }
  });

  it('connect reads cacert through the injected reader before any request', async () => {
    await expect(connect(cloud('http://127.0.0.1:1/v3', { cacert: '/missing.pem' }), { logger: memoryLogger(), readFile })).rejects.toThrow(/cacert \/missing.pem/);
  });
});

describe('connect: one token, the catalog, authenticated calls', () => {
  it('--verbose shows the project, the region and the catalog (the token body itself is redacted in the trace)', async () => {
    const token = tokenCall(TOKEN, { network: '/network' });
    await withServer([token], async (base) => {
      const logger = memoryLogger(true);
      await connect(cloud(`${base}/v3`, { regionName: 'RegionOne' }), { logger });
      const lines = logger.lines.join('\n');
      expect(lines).toContain('authenticated to lab (project admin, region RegionOne)');
      expect(lines).toContain(`  catalog network: public@RegionOne ${base}/network, internal@RegionOne ${base}/network`);
      expect(lines).not.toContain(TOKEN);
    });
  });

  it('without a project name the log names the project id; without a region, "any"; endpoints without region "?"', async () => {
    const token = { ...tokenCall(TOKEN, {}), response: () => ({ token: { project: { id: 'p-id' }, catalog: [{ type: 'image', endpoints: [{ interface: 'public', url: 'http://g' }] }, { type: 'dns' }] } }) };
    await withServer([token], async (base) => {
      const logger = memoryLogger(true);
      await connect(cloud(`${base}/v3`), { logger });
      const lines = logger.lines.join('\n');
      expect(lines).toContain('authenticated to lab (project p-id, region any)');
      expect(lines).toContain('  catalog image: public@? http://g');
      expect(lines).toMatch(/ {2}catalog dns: $/m);
    });
  });

  it('endpoints are looked up for the cloud\'s interface and region', async () => {
    const token = tokenCall(TOKEN, { 'load-balancer': '/lb' });
    await withServer([token], async (base) => {
      const internal = await connect(cloud(`${base}/v3`, { interface: 'internal', regionName: 'RegionOne' }), { logger: memoryLogger() });
      expect(internal.endpoint('load-balancer')).toEqual({ found: true, url: `${base}/lb` });
      expect(internal.endpoint('network')).toEqual({ found: false, reason: 'the catalog has no "network" service' });
    });
    await withServer([tokenCall(TOKEN, { 'load-balancer': '/lb' })], async (base) => {
      const elsewhere = await connect(cloud(`${base}/v3`, { regionName: 'RegionTwo' }), { logger: memoryLogger() });
      expect(elsewhere.endpoint('load-balancer')).toEqual({ found: false, reason: 'the "load-balancer" service has no public endpoint in region RegionTwo (regions: RegionOne)' });
    });
  });

  it.each(Object.entries(SERVICES) as [ServiceType, string][])('a failed %s call names %s, and carries the token', async (type, name) => {
    await withServer([
      tokenCall(TOKEN, { [type]: '/svc' }),
      { method: 'GET', path: '/svc/things', headers: { 'x-auth-token': TOKEN, 'x-extra': 'e' }, status: 404, response: { message: 'no things' } },
    ], async (base) => {
      const c = await connect(cloud(`${base}/v3`), { logger: memoryLogger() });
      const err = (await c.call(type, `${base}/svc/`, { method: 'GET', path: '/things', headers: { 'X-Extra': 'e' } }).catch((e) => e)) as HttpError;
      expect(err).toBeInstanceOf(HttpError);
      expect(err.message).toBe(`${name}: GET ${base}/svc/things failed with HTTP 404: no things`);
      expect(err.hint).toBe(`${name} does not know this URL: is the catalog endpoint ${base} right?`);
    });
  });

  it('an injected HTTP client is used for the token and every call (shared request count)', async () => {
    await withServer([tokenCall(TOKEN, { network: '/n' }), { method: 'GET', path: '/n/x', response: {} }], async (base) => {
      const http = createHttpClient({ logger: memoryLogger(), retries: 0 });
      const c = await connect(cloud(`${base}/v3`, { cacert: '/never/read.pem' }), { logger: memoryLogger(), http, readFile: () => { throw new Error('read'); } });
      await c.call('network', `${base}/n`, { method: 'GET', path: 'x' });
      expect(c.http).toBe(http);
      expect(http.stats.requests).toBe(2);
    });
  });
});

describe('Keystone token', () => {
  const http = () => createHttpClient({ logger: memoryLogger(), retries: 1, backoffMs: 1, sleep: async () => {} });
  const appcred = (authUrl: string) => cloud(authUrl).auth;

  it('the session carries project, user, expiry and catalog from the token body; the token is redacted from then on', async () => {
    await withServer([tokenCall(TOKEN, { network: '/n' })], async (base) => {
      const s = await authenticate(http(), appcred(`${base}/v3`));
      expect(s).toMatchObject({
        token: TOKEN, expiresAt: '2015-11-07T02:58:43.578887Z', projectId: 'a6944d763bf64ee6a275f1263fae0352', projectName: 'admin',
        userId: 'ee4dfb6e5540447cb3741905149d9b6e',
      });
      expect(s.catalog.map((e) => e.type)).toEqual(['network']);
      expect(redact(`token ${TOKEN}`)).toBe('token ***');
    });
  });

  it('HTTP 200 is accepted as well as 201; a body without catalog gives an empty catalog', async () => {
    await withServer([{ method: 'POST', path: '/v3/auth/tokens', status: 200, responseHeaders: { 'x-subject-token': TOKEN }, response: { token: { catalog: 'none' } } }], async (base) => {
      expect((await authenticate(http(), appcred(`${base}/v3`))).catalog).toEqual([]);
    });
  });

  it('the token POST is retried after a 503 (asking for a token twice is harmless)', async () => {
    await withServer([{ method: 'POST', path: '/v3/auth/tokens', status: 503 }, tokenCall(TOKEN, {})], async (base) => {
      expect((await authenticate(http(), appcred(`${base}/v3`))).token).toBe(TOKEN);
    });
  });

  it('an answer without X-Subject-Token is an error that asks whether auth_url is Keystone', async () => {
    await withServer([{ method: 'POST', path: '/v3/auth/tokens', status: 201, response: { token: {} } }], async (base) => {
      await expect(authenticate(http(), appcred(`${base}/v3`))).rejects.toMatchObject({
        message: `Keystone at ${base}/v3 answered without an X-Subject-Token header`,
        hint: 'is auth_url really a Keystone v3 endpoint?',
      });
    });
  });

  it.each([
    ['user and project by name, no domains: the "default" domain id', { username: 'u', projectName: 'p' },
      { user: { name: 'u', domain: { id: 'default' }, password: 'pw-1' } }, { project: { name: 'p', domain: { id: 'default' } } }],
    ['domains by name', { username: 'u', userDomainName: 'UD', projectName: 'p', projectDomainName: 'PD' },
      { user: { name: 'u', domain: { name: 'UD' }, password: 'pw-1' } }, { project: { name: 'p', domain: { name: 'PD' } } }],
    ['domain ids beat domain names', { username: 'u', userDomainId: 'ud', userDomainName: 'UD', projectName: 'p', projectDomainId: 'pd', projectDomainName: 'PD' },
      { user: { name: 'u', domain: { id: 'ud' }, password: 'pw-1' } }, { project: { name: 'p', domain: { id: 'pd' } } }],
    ['ids beat names (no domain needed)', { userId: 'uid', username: 'u', projectId: 'pid', projectName: 'p' },
      { user: { id: 'uid', password: 'pw-1' } }, { project: { id: 'pid' } }],
  ])('password body: %s', (_title, auth, user, scope) => {
    expect(buildAuthBody({ kind: 'password', authUrl: 'x', password: 'pw-1', ...auth })).toEqual({ auth: { identity: { methods: ['password'], password: user }, scope } });
  });

  it('application credential by name with a user name: the user with its domain, no scope', () => {
    expect(buildAuthBody({ kind: 'application_credential', authUrl: 'x', applicationCredentialName: 'mon', username: 'u', userDomainName: 'UD', applicationCredentialSecret: 's' })).toEqual({
      auth: { identity: { methods: ['application_credential'], application_credential: { secret: 's', name: 'mon', user: { name: 'u', domain: { name: 'UD' } } } } },
    });
  });
});
