import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { memoryLogger } from '../../../lib/log.js';
import { authUrlProblem, normalizeCloudEntry } from '../../../lib/openstack/cloud-config.js';
import { readCaBundle } from '../../../lib/openstack/connection.js';
import { createHttpClient, retryAfterMs } from '../../../lib/openstack/http.js';
import type { HttpError } from '../../../lib/openstack/http-error.js';
import { tempDir } from '../../support/cli.js';

/**
 * Issue 23, also wrong: 409/413/429/redirect/cut-off answers had no hint, Retry-After was ignored,
 * a bad auth_url (no scheme, ftp://, port 99999) was exit 1 without a hint, and a cacert that is not
 * PEM was blamed on the CA.
 */

type Answer = (req: nodeHttp.IncomingMessage, res: nodeHttp.ServerResponse) => void;

/** A loopback server answering each request with the next scripted answer; counts the requests. */
async function scripted(answers: Answer[]): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let n = 0;
  const srv = nodeHttp.createServer((req, res) => answers[Math.min(n++, answers.length - 1)](req, res));
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(srv.address() as AddressInfo).port}`,
    hits: () => n,
    close: () => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}): Answer => (_q, res) => {
  res.writeHead(status, { 'Content-Type': 'application/json', ...headers });
  res.end(JSON.stringify(body));
};

async function failure(p: Promise<unknown>): Promise<HttpError> {
  return p.then(() => { throw new Error('the request succeeded'); }, (e: unknown) => e as HttpError);
}

describe('HTTP answers that need a hint', () => {
  const sleeps: number[] = [];
  const client = (o: { budgetMs?: number } = {}) => createHttpClient({ logger: memoryLogger(), cloud: 'c1', retries: 2, backoffMs: 1, sleep: async (ms) => void sleeps.push(ms), ...o });
  beforeEach(() => (sleeps.length = 0));

  it('409 Conflict says the resource state is in the way and what to do', async () => {
    const srv = await scripted([json(409, { faultstring: 'Load Balancer 1 is immutable and cannot be updated.' })]);
    try {
      const e = await failure(client().send({ method: 'PUT', url: `${srv.url}/v2/lbaas/loadbalancers/1`, service: 'Octavia', body: {} }));
      expect(e.message).toContain('failed with HTTP 409: Load Balancer 1 is immutable');
      expect(e.hint).toMatch(/^Octavia refuses the call because of the resource's current state \(409 Conflict.*wait until it is ACTIVE and retry$/);
    } finally {
      await srv.close();
    }
  });

  it('413 says too large or over a limit', async () => {
    const srv = await scripted([json(413, { message: 'Quota exceeded' })]);
    try {
      const e = await failure(client().send({ method: 'GET', url: `${srv.url}/v2.0/ports`, service: 'Neutron' }));
      expect(e.hint).toContain('Neutron refuses the request as too large or over a limit (413)');
    } finally {
      await srv.close();
    }
  });

  it('429 with Retry-After: waits as asked, once, and the retry succeeds (even for a POST)', async () => {
    const srv = await scripted([json(429, { message: 'slow down' }, { 'Retry-After': '2' }), json(201, { ok: true })]);
    try {
      const r = await client().send({ method: 'POST', url: `${srv.url}/v2/lbaas/loadbalancers`, service: 'Octavia', body: {} });
      expect(r.status).toBe(201);
      expect(sleeps).toEqual([2000]);
      expect(srv.hits()).toBe(2);
    } finally {
      await srv.close();
    }
  });

  it('429 twice: only one wait, then an error saying when to retry', async () => {
    const srv = await scripted([json(429, {}, { 'Retry-After': '1' })]);
    try {
      const e = await failure(client().send({ method: 'GET', url: `${srv.url}/v2/lbaas/providers`, service: 'Octavia' }));
      expect(sleeps).toEqual([1000]);
      expect(srv.hits()).toBe(2);
      expect(e.hint).toMatch(/limits the request rate \(429\) and still did after kaas waited once as asked: retry after \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
    } finally {
      await srv.close();
    }
  });

  it('429 asking for a wait past the run budget: no wait, the hint says when', async () => {
    const srv = await scripted([json(429, {}, { 'Retry-After': '3600' })]);
    try {
      const before = Date.now();
      const e = await failure(client({ budgetMs: 60_000 }).send({ method: 'GET', url: `${srv.url}/v2/lbaas/providers`, service: 'Octavia' }));
      expect(sleeps).toEqual([]);
      const when = Date.parse(/retry after (\S+)$/.exec(e.hint!)![1]);
      expect(when - before).toBeGreaterThanOrEqual(3_599_000);
      expect(e.hint).toContain("past the run's time budget");
    } finally {
      await srv.close();
    }
  });

  it('429 without Retry-After: no wait, a hint to retry later', async () => {
    const srv = await scripted([json(429, {})]);
    try {
      const e = await failure(client().send({ method: 'GET', url: `${srv.url}/`, service: 'Neutron' }));
      expect(sleeps).toEqual([]);
      expect(e.hint).toContain('said no time to retry: retry in a minute');
    } finally {
      await srv.close();
    }
  });

  it('Retry-After as seconds or an HTTP date', () => {
    const now = Date.parse('2026-01-01T00:00:00Z');
    expect(retryAfterMs('5', now)).toBe(5000);
    expect(retryAfterMs('Thu, 01 Jan 2026 00:00:30 GMT', now)).toBe(30_000);
    expect(retryAfterMs('soon', now)).toBeUndefined();
    expect(retryAfterMs(undefined, now)).toBeUndefined();
  });

  it('a redirect to another host is not followed (the credentials would go there) and the hint says where it points', async () => {
    const elsewhere = await scripted([json(200, {})]);
    const srv = await scripted([(_q, res) => { res.writeHead(302, { Location: `${elsewhere.url.replace('127.0.0.1', 'localhost')}/v3/auth/tokens` }); res.end(); }]);
    try {
      const e = await failure(client().send({ method: 'POST', url: `${srv.url}/v3/auth/tokens`, service: 'Keystone', body: { auth: { password: 'x' } } }));
      expect(elsewhere.hits()).toBe(0);
      expect(e.message).toContain(`failed with HTTP 302: redirect to ${elsewhere.url.replace('127.0.0.1', 'localhost')}/v3/auth/tokens, not followed`);
      expect(e.hint).toBe(`Keystone at ${srv.url} redirects to another host, ${elsewhere.url.replace('127.0.0.1', 'localhost')}; kaas does not follow (it would send your credentials there): if that host is the cloud's, set auth_url of cloud "c1" to ${elsewhere.url.replace('127.0.0.1', 'localhost')}/v3/auth/tokens`);
    } finally {
      await srv.close();
      await elsewhere.close();
    }
  });

  it('a redirect on the same host names the URL to set', async () => {
    const srv = await scripted([(_q, res) => { res.writeHead(301, { Location: '/identity/v3/auth/tokens' }); res.end(); }]);
    try {
      const e = await failure(client().send({ method: 'GET', url: `${srv.url}/v2.0/networks`, service: 'Neutron' }));
      expect(e.hint).toBe(`Neutron at ${srv.url} redirects to ${srv.url}/identity/v3/auth/tokens; kaas does not follow redirects: set Neutron's catalog endpoint to that URL`);
    } finally {
      await srv.close();
    }
  });

  it('a body cut off mid-answer is retried, then named as cut off with a hint (not "stream has been aborted")', async () => {
    const cut: Answer = (_q, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json', 'Content-Length': '1000' });
      res.write('{"providers": [');
      setTimeout(() => res.socket?.destroy(), 10);
    };
    const srv = await scripted([cut]);
    try {
      const e = await failure(client().send({ method: 'GET', url: `${srv.url}/v2/lbaas/providers`, service: 'Octavia' }));
      expect(srv.hits()).toBe(3);
      expect(e.code).toBe('ETRUNCATED');
      expect(e.message).toContain('the answer was cut off: the connection closed before the whole body came');
      expect(e.hint).toBe(`Octavia at ${srv.url} closed the connection in the middle of its answer, on every attempt: a proxy or load balancer in between may cut long or slow answers; retry later, or ask the operator`);
    } finally {
      await srv.close();
    }
  });
});

describe('a bad auth_url is a settings problem naming auth.auth_url and the fix', () => {
  const entry = (authUrl: string) => ({ auth: { auth_url: authUrl, username: 'u', password: 'kaas-secret-pw', project_name: 'p' } });
  const problems = (authUrl: string): string[] => {
    try {
      normalizeCloudEntry('c', 'clouds.yaml', entry(authUrl));
    } catch (e) {
      return (e as { problems?: string[] }).problems ?? [];
    }
    return [];
  };

  it.each([
    ['no scheme', 'keystone.example:5000/v3', 'auth.auth_url "keystone.example:5000/v3" has no http:// or https:// in front: write it as https://keystone.example:5000/v3'],
    ['ftp', 'ftp://keystone.example/v3', 'auth.auth_url "ftp://keystone.example/v3" uses ftp://; Keystone speaks https:// (or http://)'],
    ['port 99999', 'https://keystone.example:99999/v3', 'auth.auth_url "https://keystone.example:99999/v3" has port 99999; a port is 1 to 65535'],
    ['no host', 'https:///v3', 'auth.auth_url "https:///v3" has no host name'],
  ])('%s', (_what, url, said) => {
    expect(problems(url).join('\n')).toContain(said);
  });

  it('a good one has no problem; a password in it is never shown', () => {
    expect(authUrlProblem('https://keystone.example:5000/v3')).toBeUndefined();
    expect(authUrlProblem('http://[fd00::1]:5000/v3')).toBeUndefined();
    expect(problems('ftp://user:kaas-secret-url@keystone.example/v3').join('\n')).not.toContain('kaas-secret-url');
  });
});

describe('a cacert that is not PEM is named as such, not blamed on the CA', () => {
  const dir = tempDir('kaas-cacert-');
  const cloud = (file: string) => ({ name: 'c', cacert: file, verify: true }) as Parameters<typeof readCaBundle>[0];
  const read = (f: string) => fs.readFileSync(f, 'latin1');

  it.each([
    ['DER', () => {
      const pem = path.join(dir, 'ca.pem');
      execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:1024', '-nodes', '-keyout', path.join(dir, 'ca.key'), '-out', pem, '-days', '1', '-subj', '/CN=t'], { stdio: 'pipe' });
      execFileSync('openssl', ['x509', '-in', pem, '-outform', 'der', '-out', path.join(dir, 'ca.der')], { stdio: 'pipe' });
      return path.join(dir, 'ca.der');
    }, 'is not a PEM certificate (it looks binary (DER?))'],
    ['a private key', () => {
      fs.writeFileSync(path.join(dir, 'k.pem'), '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
      return path.join(dir, 'k.pem');
    }, 'is not a PEM certificate (it holds a private key, no certificate)'],
    ['text', () => {
      fs.writeFileSync(path.join(dir, 't.pem'), 'hello\n');
      return path.join(dir, 't.pem');
    }, 'is not a PEM certificate (no -----BEGIN CERTIFICATE----- block)'],
  ])('%s', (_what, make, said) => {
    const file = make();
    let err: { message: string; hint?: string; exitCode?: number } | undefined;
    try {
      readCaBundle(cloud(file), (f) => Buffer.from(read(f), 'latin1').toString('utf8'));
    } catch (e) {
      err = e as typeof err;
    }
    expect(err?.message).toBe(`cacert ${file} of cloud "c" ${said}`);
    expect(err?.hint).toContain('in PEM form');
    expect(err?.hint).not.toContain('signed');
  });

  it('a PEM bundle is read as it is', () => {
    const file = path.join(dir, 'ca.pem');
    if (!fs.existsSync(file)) execFileSync('openssl', ['req', '-x509', '-newkey', 'rsa:1024', '-nodes', '-keyout', path.join(dir, 'ca.key'), '-out', file, '-days', '1', '-subj', '/CN=t'], { stdio: 'pipe' });
    expect(readCaBundle(cloud(file), (f) => fs.readFileSync(f, 'utf8'))).toContain('-----BEGIN CERTIFICATE-----');
  });
});
