import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect, requestToken } from '../../../lib/openstack/connection.js';
import { memoryLogger } from '../../../lib/log.js';
import { clearSecrets } from '../../../lib/redact.js';
import { catalogFor, fixture, tokenCall } from '../../support/openstack-fixtures.js';
import { scriptedServer } from '../../support/scripted-http.js';

// The early token (requestToken) is a head start for `kaas detect`: connect() must take it over for
// exactly the same cloud and timeout, and otherwise drop it and behave as if it never existed.

const TOKEN = 'gAAAAABearly-token-5678';
const cloud = (authUrl: string, over: Partial<CloudConfig> = {}, auth: Partial<CloudConfig['auth']> = {}): CloudConfig => ({
  name: 'scripted', source: 'test', interface: 'public', regionName: 'RegionOne', verify: true,
  auth: { kind: 'password', authUrl, username: 'demo', password: 'demo-pw-123', projectName: 'demo', ...auth },
  ...over,
});
const SERVICES = { 'load-balancer': '/load-balancer' };

/**
 * A Keystone whose first token request gets no answer (it stays open until the client gives up), and
 * whose later ones get a token: the early request is the first.
 */
async function keystoneHoldingFirst() {
  const held: http.ServerResponse[] = [];
  let requests = 0;
  let closedUnanswered = 0;
  const server = http.createServer((req, res) => {
    requests++;
    if (requests === 1) {
      held.push(res);
      res.on('close', () => { if (!res.writableEnded) closedUnanswered++; });
      return;
    }
    req.resume();
    req.on('end', () => {
      const t = fixture('keystone/project-scoped-password.json');
      t.token.catalog = catalogFor(base, SERVICES);
      res.writeHead(201, { 'content-type': 'application/json', 'x-subject-token': TOKEN });
      res.end(JSON.stringify(t));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: base,
    get requests() { return requests; },
    get closedUnanswered() { return closedUnanswered; },
    close: () => new Promise<void>((r) => { held.forEach((res) => res.destroy()); server.close(() => r()); }),
  };
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 200 && !ok(); i++) await new Promise((r) => setTimeout(r, 10));
};

afterEach(() => clearSecrets());

describe('an early token taken over by connect()', () => {
  it('the same cloud and timeout: no second token request, the count and the trace include the early one', async () => {
    const srv = await scriptedServer([tokenCall(TOKEN, SERVICES), { method: 'GET', path: '/load-balancer/', response: { versions: [] } }]);
    const c = cloud(`${srv.url}/v3`);
    const early = requestToken(c, { timeoutMs: 5000 });
    // The early request has reached Keystone before connect() runs: a dropped one would show as a second.
    await until(() => srv.received.length === 1);
    const logger = memoryLogger();
    const conn = await connect(cloud(`${srv.url}/v3`), { logger, timeoutMs: 5000, early });
    // Dropping it now (as the entry point does at the end of every run) must not abort the run's own requests.
    early.drop();
    expect((await conn.call('load-balancer', `${srv.url}/load-balancer`, { method: 'GET', path: '/' })).data).toEqual({ versions: [] });
    await srv.finish();
    expect(srv.received).toEqual(['POST /v3/auth/tokens', 'GET /load-balancer/']);
    expect(conn.session.token).toBe(TOKEN);
    expect(conn.http.stats.requests).toBe(2);
    expect(conn.endpoint('load-balancer')).toMatchObject({ found: true, url: `${srv.url}/load-balancer` });
    // The trace of the early request reaches the run's logger, redacted as any other.
    expect(logger.lines.filter((l) => l.includes('/v3/auth/tokens'))).toEqual([
      expect.stringMatching(/^→ POST .*\/v3\/auth\/tokens .*"password":"\*\*\*"/),
      expect.stringMatching(/^← 201 POST .*\/v3\/auth\/tokens/),
    ]);
    expect(logger.lines.join('\n')).not.toMatch(/demo-pw-123|gAAAAABearly/);
    expect(early.take(c, 5000, logger)).toBeUndefined(); // taken over only once
  });

  it('its failure is the run\'s failure, with the same message, and Keystone sees one attempt, not two', async () => {
    const reject = { method: 'POST', path: '/v3/auth/tokens', status: 401, response: { error: { code: 401, message: 'The request you have made requires authentication.' } } };
    const plain = await scriptedServer([reject]);
    const without = await connect(cloud(`${plain.url}/v3`), { logger: memoryLogger() }).catch((e: Error) => e);
    await plain.finish();
    const srv = await scriptedServer([reject]);
    const early = requestToken(cloud(`${srv.url}/v3`));
    await until(() => srv.received.length === 1);
    const withEarly = await connect(cloud(`${srv.url}/v3`), { logger: memoryLogger(), early }).catch((e: Error) => e);
    await srv.finish();
    expect(srv.received).toEqual(['POST /v3/auth/tokens']);
    expect(withEarly).toBeInstanceOf(Error);
    expect((withEarly as Error).message.replaceAll(srv.url, 'URL')).toBe((without as Error).message.replaceAll(plain.url, 'URL'));
    expect(withEarly).toMatchObject({ status: 401, hint: expect.stringMatching(/check the credentials/) });
  });
});

describe('an early token for another cloud is dropped', () => {
  it.each([
    ['another region', { regionName: 'RegionTwo' }, {}, 5000],
    ['another password', {}, { password: 'other-pw-456' }, 5000],
    ['another project', {}, { projectName: 'other' }, 5000],
    ['another interface', { interface: 'internal' as const }, {}, 5000],
    ['TLS checks off', { verify: false }, {}, 5000],
    ['another clouds.yaml entry', { name: 'other' }, {}, 5000],
    ['another timeout', {}, {}, 6000],
  ])('%s: its request is aborted at once, connect() asks for its own token', async (_, over, auth, timeoutMs) => {
    const ks = await keystoneHoldingFirst();
    try {
      // Had the unanswered early request not been aborted, it would hold the test until its timeout.
      const early = requestToken(cloud(`${ks.url}/v3`), { timeoutMs: 5000 });
      await until(() => ks.requests === 1);
      const logger = memoryLogger();
      const conn = await connect(cloud(`${ks.url}/v3`, over, auth), { logger, timeoutMs, early });
      expect(conn.session.token).toBe(TOKEN);
      expect(ks.requests).toBe(2);
      expect(conn.http.stats.requests).toBe(1);
      await until(() => ks.closedUnanswered === 1);
      expect(ks.closedUnanswered).toBe(1);
      expect(logger.lines).toContain('the token requested at start (cloud "scripted") is not used: this run\'s cloud or timeout differs');
      // Only the run's own request is in its trace.
      expect(logger.lines.filter((l) => l.startsWith('→ POST'))).toHaveLength(1);
    } finally {
      await ks.close();
    }
  });

  it('the same cloud, timeout and all: taken over (the check above is not "always drop")', async () => {
    const ks = await keystoneHoldingFirst();
    try {
      const early = requestToken(cloud(`${ks.url}/v3`), { timeoutMs: 300 });
      await until(() => ks.requests === 1);
      // Taken over, the held request is the run's: it times out as the run's own would, once (a
      // dropped one would make the run ask again, and the second request gets its token).
      const err = await connect(cloud(`${ks.url}/v3`), { logger: memoryLogger(), timeoutMs: 300, early }).catch((e: Error) => e);
      expect(err).toBeInstanceOf(Error);
      expect((err as Error).message).toMatch(/Keystone/);
      expect(ks.requests).toBe(1);
    } finally {
      await ks.close();
    }
  });

  it('drop() with nothing to take it over: the request in flight ends at once', async () => {
    const ks = await keystoneHoldingFirst();
    try {
      const early = requestToken(cloud(`${ks.url}/v3`), { timeoutMs: 60_000 });
      await until(() => ks.requests === 1);
      early.drop();
      await until(() => ks.closedUnanswered === 1);
      expect(ks.closedUnanswered).toBe(1);
      expect(early.take(cloud(`${ks.url}/v3`), 60_000, memoryLogger())).toBeUndefined();
    } finally {
      await ks.close();
    }
  });

  it('an injected HTTP client (tests, shared counters) wins: the early token is dropped', async () => {
    const srv = await scriptedServer([tokenCall(TOKEN, SERVICES), tokenCall(TOKEN, SERVICES)]);
    const { createHttpClient } = await import('../../../lib/openstack/http.js');
    const httpClient = createHttpClient({ logger: memoryLogger() });
    const early = requestToken(cloud(`${srv.url}/v3`));
    for (let i = 0; i < 100 && srv.received.length < 1; i++) await new Promise((r) => setTimeout(r, 10));
    // Same cloud, but the caller brings its own client: the early token is not taken over.
    const conn = await connect(cloud(`${srv.url}/v3`), { logger: memoryLogger(), http: httpClient, early });
    await srv.finish();
    expect(conn.http).toBe(httpClient);
    expect(httpClient.stats.requests).toBe(1);
    expect(early.take(cloud(`${srv.url}/v3`), undefined, memoryLogger())).toBeUndefined();
  });
});
