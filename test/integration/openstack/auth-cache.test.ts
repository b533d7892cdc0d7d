import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../support/cli.js';
import { kaasOnPeer, peer } from '../../support/peer.js';

/** A Keystone request of the test itself (never through kaas): a new token of the demo user, or the revocation of one. */
async function keystone(method: 'POST' | 'DELETE', token?: string): Promise<string> {
  const p = peer();
  const url = `${p.authUrl.replace(/\/$/, '')}/auth/tokens`;
  if (method === 'DELETE') {
    const res = await fetch(url, { method, headers: { 'X-Auth-Token': token!, 'X-Subject-Token': token! } });
    if (res.status !== 204) throw new Error(`revoking a token: HTTP ${res.status}`);
    return '';
  }
  const res = await fetch(url, {
    method, headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ auth: {
      identity: { methods: ['password'], password: { user: { name: 'demo', domain: { name: 'Default' }, password: p.demoPassword } } },
      scope: { project: { name: 'demo', domain: { name: 'Default' } } },
    } }),
  });
  if (res.status !== 201) throw new Error(`a token for the test: HTTP ${res.status}`);
  return res.headers.get('x-subject-token')!;
}

/**
 * clouds.yaml `cache: {auth: true}` (openstacksdk's switch) as a user sets it, against the peer's real
 * Keystone, Octavia and Neutron: the token is kept between runs, and a kept token Keystone no longer
 * honours is replaced.
 */
describe('kaas keeps its Keystone token between runs when clouds.yaml says cache.auth: true (real peer)', () => {
  const dir = tempDir('kaas-authcache-');
  const clouds = path.join(dir, 'clouds.yaml');
  const tokens = path.join(dir, 'cache', 'kaas', 'auth');
  const env = { OS_CLIENT_CONFIG_FILE: clouds, XDG_CACHE_HOME: path.join(dir, 'cache') };
  const detect = () => kaasOnPeer(['detect', '--cloud', 'peer-demo', '-o', 'json', '--verbose'], env);
  const tokenPosts = (stderr: string) => stderr.split('\n').filter((l) => /^→ POST \S+\/v3\/auth\/tokens/.test(l)).length;
  const storedFile = () => path.join(tokens, fs.readdirSync(tokens)[0]);
  const storedToken = () => JSON.parse(fs.readFileSync(storedFile(), 'utf8')).session.token as string;

  beforeAll(() => {
    fs.writeFileSync(clouds, `cache:\n  auth: true\n${fs.readFileSync(peer().cloudsFile, 'utf8')}`);
  });

  it('the first run asks Keystone and keeps the token (0600); the next sends no token request and finds the same cloud', () => {
    const first = detect();
    expect(first.code).toBe(0);
    expect(tokenPosts(first.stderr)).toBe(1);
    expect(first.stderr).toContain('openstack: 4 HTTP requests');
    expect(fs.readdirSync(tokens)).toHaveLength(1);
    expect(fs.statSync(storedFile()).mode & 0o777).toBe(0o600);
    expect(fs.statSync(tokens).mode & 0o777).toBe(0o700);
    const token = storedToken();
    expect(token).toMatch(/^gAAAA/);

    const second = detect();
    expect(second.code).toBe(0);
    expect(tokenPosts(second.stderr)).toBe(0);
    expect(second.stderr).toContain('auth cache: using the stored token');
    expect(second.stderr).toContain('openstack: 3 HTTP requests');
    const facts = (stdout: string) => ({ ...JSON.parse(stdout), detectedAt: undefined });
    expect(facts(second.stdout)).toEqual(facts(first.stdout));
    for (const r of [first, second]) expect(`${r.stdout}${r.stderr}`).not.toContain(token);
  });

  it('a kept token that Keystone revoked: the services refuse it (401), kaas asks for a new one once, keeps it and succeeds', async () => {
    // A token the services have not validated yet (they keep validations for minutes), revoked at once.
    const revoked = await keystone('POST');
    await keystone('DELETE', revoked);
    const file = storedFile();
    const doc = JSON.parse(fs.readFileSync(file, 'utf8'));
    doc.session.token = revoked;
    fs.writeFileSync(file, JSON.stringify(doc), { mode: 0o600 });

    const r = detect();
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/← 401 GET \S+\/v2\/lbaas\/providers/);
    expect(r.stderr).toContain('auth cache: a service refused the stored token (401): asking Keystone for a new one');
    expect(tokenPosts(r.stderr)).toBe(1);
    const fresh = storedToken();
    expect(fresh).not.toBe(revoked);
    expect(`${r.stdout}${r.stderr}`).not.toContain(fresh);
    expect(`${r.stdout}${r.stderr}`).not.toContain(revoked);
    expect(JSON.parse(r.stdout).octavia.providers).toEqual(['amphora', 'ovn']);
  });

  it('a bad cache.auth value is a usage error naming the file (exit 2), before any request', () => {
    const badDir = tempDir('kaas-authcache-');
    const bad = path.join(badDir, 'clouds.yaml');
    fs.writeFileSync(bad, `cache:\n  auth: sometimes\n${fs.readFileSync(peer().cloudsFile, 'utf8')}`);
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo', '--verbose'], { OS_CLIENT_CONFIG_FILE: bad, XDG_CACHE_HOME: path.join(badDir, 'cache') });
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${bad}: cache.auth must be true or false, found "sometimes"`);
    expect(r.stderr).not.toContain('→ POST');
    expect(fs.existsSync(path.join(badDir, 'cache'))).toBe(false);
  });
});
