import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';
import { AUTH_CACHE_MARGIN_MS, authCacheDir, authCacheKey, fileAuthCache, storedSession } from '../../../lib/openstack/auth-cache.js';
import type { CloudAuth, CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { cacheAuthSetting } from '../../../lib/openstack/clouds-files.js';
import { connect } from '../../../lib/openstack/connection.js';
import type { HttpClient, HttpRequest, HttpResponse } from '../../../lib/openstack/http.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import { clearSecrets, redact } from '../../../lib/redact.js';
import { tempDir } from '../../support/temp.js';

afterEach(() => clearSecrets());

const NOW = Date.parse('2026-11-29T10:00:00Z');
const inMinutes = (m: number) => new Date(NOW + m * 60_000).toISOString();
const session = (token: string, expiresAt: string | undefined = inMinutes(60)) => ({
  token, expiresAt, projectId: 'p1', catalog: [{ type: 'load-balancer', endpoints: [{ interface: 'public', url: 'http://lb.example:9876' }] }],
});
const stored = (s: unknown) => JSON.stringify({ kaasAuthCache: 1, session: s });

const password: CloudAuth = { kind: 'password', authUrl: 'https://keystone.example:5000/v3', username: 'demo', password: 'pw-one-7', userDomainName: 'Default', projectName: 'demo', projectDomainName: 'Default' };

describe('a stored token is taken only while it has time left (storedSession)', () => {
  it.each([
    ['an hour left', stored(session('t', inMinutes(60))), 'ok'],
    ['just over the margin', stored(session('t', new Date(NOW + AUTH_CACHE_MARGIN_MS + 1000).toISOString())), 'ok'],
    ['less than the margin left', stored(session('t', inMinutes(4))), 'expires in 240 s'],
    ['expired', stored(session('t', inMinutes(-1))), 'expired'],
    ['no expiry time', stored({ ...session('t'), expiresAt: undefined }), 'no expiry time'],
    ['an expiry that is no time', stored(session('t', 'soon')), 'no expiry time'],
    ['no token', stored({ ...session(''), token: '' }), 'not a kaas token file'],
    ['no catalog', stored({ token: 't', expiresAt: inMinutes(60) }), 'not a kaas token file'],
    ['another format', JSON.stringify({ kaasAuthCache: 2, session: session('t') }), 'not a kaas token file'],
    ['not JSON', '{"kaasAuthCache": 1, "sess', 'not JSON'],
    ['JSON null', 'null', 'not a kaas token file'],
  ])('%s', (_what, text, verdict) => {
    const r = storedSession(text, NOW);
    expect('session' in r ? 'ok' : r.unusable).toBe(verdict);
  });
});

describe('the key of a credential (authCacheKey)', () => {
  it('is the same for the same token request and differs for any other credential, project or Keystone', () => {
    const key = authCacheKey(password);
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(authCacheKey({ ...password })).toBe(key);
    // "/v3" or not is the same token URL.
    expect(authCacheKey({ ...password, authUrl: 'https://keystone.example:5000' })).toBe(key);
    for (const other of [
      { password: 'pw-two-8' }, { username: 'admin' }, { projectName: 'other' }, { userDomainName: 'ldap' },
      { authUrl: 'https://keystone.other:5000/v3' },
    ]) expect(authCacheKey({ ...password, ...other })).not.toBe(key);
    const appcred: CloudAuth = { kind: 'application_credential', authUrl: password.authUrl, applicationCredentialId: 'ac1', applicationCredentialSecret: 's1' };
    expect(authCacheKey(appcred)).not.toBe(authCacheKey({ ...appcred, applicationCredentialSecret: 's2' }));
  });
});

describe("clouds.yaml's cache.auth (openstacksdk's switch)", () => {
  it.each([
    [undefined, false], [null, false], [{}, false], [{ auth: true }, true], [{ auth: false }, false],
    // PyYAML reads YAML 1.1: `auth: yes` is true there, and kaas's YAML 1.2 parser gives the string.
    [{ auth: 'yes' }, true], [{ auth: 'On' }, true], [{ auth: 'true' }, true], [{ auth: 'no' }, false], [{ auth: 'off' }, false],
    [{ auth: null, expiration_time: 3600 }, false],
  ])('%j → %s', (cache, want) => {
    expect(cacheAuthSetting(cache, 'clouds.yaml')).toBe(want);
  });

  it.each([
    [{ auth: 'maybe' }, 'clouds.yaml: cache.auth must be true or false, found "maybe"'],
    [{ auth: 1 }, 'clouds.yaml: cache.auth must be true or false, found 1'],
    // Text to PyYAML, which openstacksdk then reads as false: refused rather than guessed.
    [{ auth: 'y' }, 'clouds.yaml: cache.auth must be true or false, found "y"'],
    [{ auth: 'yEs' }, 'clouds.yaml: cache.auth must be true or false, found "yEs"'],
    [['auth'], 'clouds.yaml: "cache" must be a mapping (e.g. cache: {auth: true}), found a list'],
    ['auth', 'clouds.yaml: "cache" must be a mapping (e.g. cache: {auth: true}), found string'],
  ])('%j is an error naming the file', (cache, message) => {
    let err: unknown;
    try {
      cacheAuthSetting(cache, 'clouds.yaml');
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toBe(message);
  });

  it('is read from the top of clouds.yaml, secure.yaml over it, and gives the cloud its token folder', () => {
    const home = tempDir('kaas-home-');
    const dir = tempDir('kaas-clouds-');
    const cloudsFile = path.join(dir, 'clouds.yaml');
    const secureFile = path.join(dir, 'secure.yaml');
    const entry = 'clouds:\n  lab:\n    auth: {auth_url: "https://k.example/v3", username: u, password: p, project_name: x}\n';
    const resolve = (environ: NodeJS.ProcessEnv) => resolveCloudConfig({ environ: { OS_CLIENT_CONFIG_FILE: cloudsFile, ...environ }, cwd: dir, home, etcDir: tempDir(), cloudFlag: 'lab' });
    fs.writeFileSync(cloudsFile, entry);
    expect(resolve({}).authCacheDir).toBeUndefined();
    fs.writeFileSync(cloudsFile, `cache:\n  auth: true\n${entry}`);
    expect(resolve({}).authCacheDir).toBe(path.join(home, '.cache', 'kaas', 'auth'));
    expect(resolve({ XDG_CACHE_HOME: '/var/cache/me' }).authCacheDir).toBe('/var/cache/me/kaas/auth');
    fs.writeFileSync(secureFile, 'cache:\n  auth: false\n');
    expect(resolve({ OS_CLIENT_SECURE_FILE: secureFile }).authCacheDir).toBeUndefined();
    fs.writeFileSync(secureFile, 'cache:\n  auth: sometimes\n');
    expect(() => resolve({ OS_CLIENT_SECURE_FILE: secureFile })).toThrow(`${cloudsFile} + ${secureFile}: cache.auth must be true or false, found "sometimes"`);
  });

  it('takes XDG_CACHE_HOME only when it is an absolute path (XDG base directories)', () => {
    expect(authCacheDir({ XDG_CACHE_HOME: 'relative/cache' }, '/home/u')).toBe('/home/u/.cache/kaas/auth');
    expect(authCacheDir({ XDG_CACHE_HOME: '' }, '/home/u')).toBe('/home/u/.cache/kaas/auth');
  });
});

/** A cloud whose HTTP client is scripted: token POSTs answer with tokens t1, t2, …; `serve` answers the rest. */
function scriptedCloud(serve: (req: HttpRequest) => HttpResponse | HttpError, expiresAt = () => new Date(Date.now() + 3600_000).toISOString()) {
  const sent: { method: string; url: string; token?: string }[] = [];
  let issued = 0;
  const http: HttpClient = {
    stats: { requests: 0 },
    async send<T>(req: HttpRequest) {
      http.stats.requests++;
      sent.push({ method: req.method, url: req.url, token: req.headers?.['X-Auth-Token'] });
      await new Promise((r) => setImmediate(r));
      if (req.method === 'POST' && req.url.endsWith('/auth/tokens')) {
        issued++;
        return { status: 201, headers: { 'x-subject-token': `t${issued}` }, data: { token: { expires_at: expiresAt(), project: { id: 'p1' }, catalog: session('').catalog } } } as unknown as HttpResponse<T>;
      }
      const r = serve(req);
      if (r instanceof HttpError) throw r;
      return r as HttpResponse<T>;
    },
  };
  return { http, sent, posts: () => sent.filter((s) => s.method === 'POST').length };
}

const ok = (): HttpResponse => ({ status: 200, headers: {}, data: { providers: [] } });
const refused = (req: HttpRequest) => new HttpError({ service: req.service, method: req.method, url: req.url, status: 401, detail: 'The request you have made requires authentication.' });

describe('connect() with a token folder (clouds.yaml cache.auth: true)', () => {
  const cloudIn = (dir: string | undefined, auth: CloudAuth = password): CloudConfig => ({ name: 'lab', source: 'test', interface: 'public', verify: true, auth, ...(dir && { authCacheDir: dir }) });
  const providers = (c: Awaited<ReturnType<typeof connect>>) => c.call('load-balancer', 'http://lb.example:9876', { method: 'GET', path: 'v2/lbaas/providers' });

  it('without one, every run asks Keystone and nothing is written', async () => {
    const s = scriptedCloud(ok);
    await providers(await connect(cloudIn(undefined), { logger: memoryLogger(), http: s.http }));
    await providers(await connect(cloudIn(undefined), { logger: memoryLogger(), http: s.http }));
    expect(s.posts()).toBe(2);
  });

  it('the first run stores its token (0600 in a 0700 folder, no secret in the name or file); the next sends no token request', async () => {
    const dir = path.join(tempDir('kaas-cache-'), 'kaas', 'auth');
    const s = scriptedCloud(ok);
    const first = await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http });
    await providers(first);
    const files = fs.readdirSync(dir);
    expect(files).toEqual([`${authCacheKey(password)}.json`]);
    expect(fs.statSync(dir).mode & 0o777).toBe(0o700);
    expect(fs.statSync(path.join(dir, files[0])).mode & 0o777).toBe(0o600);
    const text = fs.readFileSync(path.join(dir, files[0]), 'utf8');
    expect(text).not.toContain(password.password);
    expect(JSON.parse(text).session.token).toBe('t1');

    const logger = memoryLogger();
    const second = await connect(cloudIn(dir), { logger, http: s.http });
    await providers(second);
    expect(s.posts()).toBe(1);
    expect(s.sent.at(-1)).toEqual({ method: 'GET', url: 'http://lb.example:9876/v2/lbaas/providers', token: 't1' });
    expect(second.session.projectId).toBe('p1');
    expect(logger.lines.join('\n')).toContain('auth cache: using the stored token');
  });

  it('a stored token the services refuse is replaced once for the requests refused together, which are sent again', async () => {
    const dir = tempDir('kaas-cache-');
    const s = scriptedCloud((req) => (req.headers?.['X-Auth-Token'] === 't1' ? refused(req) : ok()));
    await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http }); // stores t1
    const c = await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http });
    const answers = await Promise.all([providers(c), providers(c), providers(c)]);
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(s.posts()).toBe(2);
    expect(s.sent.filter((x) => x.method === 'GET').map((x) => x.token)).toEqual(['t1', 't1', 't1', 't2', 't2', 't2']);
    expect(c.session.token).toBe('t2');
    expect(JSON.parse(fs.readFileSync(path.join(dir, `${authCacheKey(password)}.json`), 'utf8')).session.token).toBe('t2');
  });

  it('a refused token asked for in this run, or a refusal of the new token, is the error (no loop)', async () => {
    const always = scriptedCloud(refused);
    const fresh = await connect(cloudIn(tempDir('kaas-cache-')), { logger: memoryLogger(), http: always.http });
    await expect(providers(fresh)).rejects.toMatchObject({ status: 401 });
    expect(always.posts()).toBe(1);

    const dir = tempDir('kaas-cache-');
    const again = scriptedCloud(refused);
    await connect(cloudIn(dir), { logger: memoryLogger(), http: again.http });
    const c = await connect(cloudIn(dir), { logger: memoryLogger(), http: again.http });
    await expect(providers(c)).rejects.toMatchObject({ status: 401 });
    expect(again.posts()).toBe(2);
    expect(again.sent.filter((x) => x.method === 'GET').map((x) => x.token)).toEqual(['t1', 't2']);
  });

  it('another password, an expiring token, a damaged file or a file others can read: Keystone is asked', async () => {
    const dir = tempDir('kaas-cache-');
    const file = path.join(dir, `${authCacheKey(password)}.json`);
    const s = scriptedCloud(ok);
    await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http });
    await connect(cloudIn(dir, { ...password, password: 'pw-two-8' }), { logger: memoryLogger(), http: s.http });
    expect(s.posts()).toBe(2);

    fs.writeFileSync(file, stored(session('old', new Date(Date.now() + 60_000).toISOString())), { mode: 0o600 });
    expect((await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http })).session.token).toBe('t3');

    fs.writeFileSync(file, '{"kaasAuthCache": 1, "sess');
    expect((await connect(cloudIn(dir), { logger: memoryLogger(), http: s.http })).session.token).toBe('t4');

    const logger = memoryLogger();
    fs.chmodSync(file, 0o644);
    expect((await connect(cloudIn(dir), { logger, http: s.http })).session.token).toBe('t5');
    expect(logger.lines.join('\n')).toContain(`the token file in ${dir} is not a private file of this user (mode 644): not used`);
    // The trace never names the file: its name is a hash of the credentials.
    expect(logger.lines.join('\n')).not.toContain(authCacheKey(password));
    // Stored again by that run, private again.
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
  });

  it('a folder that cannot be written does not fail the run', async () => {
    const parent = tempDir('kaas-cache-');
    fs.writeFileSync(path.join(parent, 'kaas'), 'a file where the folder would be');
    const logger = memoryLogger();
    const s = scriptedCloud(ok);
    const c = await connect(cloudIn(path.join(parent, 'kaas', 'auth')), { logger, http: s.http });
    expect((await providers(c)).status).toBe(200);
    expect(logger.lines.join('\n')).toContain('auth cache: the token was not stored (');
    expect(logger.lines.join('\n')).not.toContain(authCacheKey(password));
  });

  it('a failed write is traced without the file name (a hash of the credentials)', () => {
    const dir = tempDir('kaas-cache-');
    fs.mkdirSync(path.join(dir, `${authCacheKey(password)}.json`));
    const logger = memoryLogger();
    fileAuthCache(dir, logger).store(password, session('never-stored-token'));
    const trace = logger.lines.join('\n');
    expect(trace).toMatch(/auth cache: the token was not stored \(.*<key>\.json/);
    expect(trace).not.toContain(authCacheKey(password));
  });

  it('the store keeps what a load gives back (fileAuthCache round trip)', () => {
    const dir = tempDir('kaas-cache-');
    const cache = fileAuthCache(dir, memoryLogger());
    const s = session('round-trip-token', new Date(Date.now() + 3600_000).toISOString());
    cache.store(password, s);
    clearSecrets();
    expect(cache.load(password, Date.now())).toEqual(s);
    // The stored token is a secret of this run as soon as it is read.
    expect(redact('X-Auth-Token: round-trip-token')).not.toContain('round-trip-token');
    cache.drop(password);
    expect(cache.load(password, Date.now())).toBeUndefined();
  });
});
