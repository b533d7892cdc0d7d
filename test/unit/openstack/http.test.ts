import nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient } from '../../../lib/openstack/http.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import { memoryLogger } from '../../../lib/log.js';
import { clearSecrets, registerSecret } from '../../../lib/redact.js';
import { scriptedServer } from '../../support/scripted-http.js';

const noSleep = async () => {};
const client = (logger = memoryLogger()) => createHttpClient({ logger, retries: 2, backoffMs: 1, sleep: noSleep, cloud: 'c1' });

afterEach(() => clearSecrets());

describe('HTTP client retries', () => {
  it('retries a GET on 503 and on a connection reset, then succeeds', async () => {
    const srv = await scriptedServer([
      { method: 'GET', path: '/x', status: 503 },
      { method: 'GET', path: '/x', reset: true },
      { method: 'GET', path: '/x', response: { ok: 1 } },
    ]);
    const http = client();
    const res = await http.send({ method: 'GET', url: `${srv.url}/x`, service: 'Octavia' });
    expect(res.data).toEqual({ ok: 1 });
    expect(http.stats.requests).toBe(3);
    await srv.finish();
  });

  it.each([400, 401, 403, 404, 409])('never retries HTTP %i', async (status) => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', status, response: { faultstring: 'nope' } }]);
    await expect(client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Octavia' })).rejects.toBeInstanceOf(HttpError);
    await srv.finish();
  });

  it('does not retry 501 Not Implemented (a definite answer)', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', status: 501 }]);
    await expect(client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Octavia' })).rejects.toMatchObject({ status: 501 });
    await srv.finish();
  });

  it.each(['POST', 'PATCH'] as const)('does not retry a %s unless told so', async (method) => {
    const srv = await scriptedServer([{ method, path: '/x', status: 500 }, { method, path: '/y', status: 500 }, { method, path: '/y', status: 201 }]);
    await expect(client().send({ method, url: `${srv.url}/x`, service: 'Nova', body: {} })).rejects.toMatchObject({ status: 500 });
    await expect(client().send({ method, url: `${srv.url}/y`, service: 'Nova', body: {}, retry: true })).resolves.toMatchObject({ status: 201 });
    await srv.finish();
  });

  it.each(['PUT', 'DELETE'] as const)('retries a %s (idempotent)', async (method) => {
    const srv = await scriptedServer([{ method, path: '/x', status: 502 }, { method, path: '/x', status: 204 }]);
    await expect(client().send({ method, url: `${srv.url}/x`, service: 'Nova' })).resolves.toMatchObject({ status: 204 });
    await srv.finish();
  });

  it('gives up after the configured retries with the last status', async () => {
    const srv = await scriptedServer([1, 2, 3].map(() => ({ method: 'GET', path: '/x', status: 502 })));
    await expect(client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Neutron' })).rejects.toMatchObject({ status: 502 });
    await srv.finish();
  });
});

describe('HTTP errors that help', () => {
  it('401 carries status, method, URL, request id and a credentials hint', async () => {
    const srv = await scriptedServer([{
      method: 'POST', path: '/v3/auth/tokens', status: 401, responseHeaders: { 'x-openstack-request-id': 'req-123' },
      response: { error: { code: 401, message: 'The request you have made requires authentication.', title: 'Unauthorized' } },
    }]);
    const err = (await client().send({ method: 'POST', url: `${srv.url}/v3/auth/tokens`, service: 'Keystone', body: {} }).catch((e) => e)) as HttpError;
    expect(err).toMatchObject({ status: 401, method: 'POST', url: `${srv.url}/v3/auth/tokens`, requestId: 'req-123', exitCode: 1 });
    expect(err.message).toBe(`Keystone: POST ${srv.url}/v3/auth/tokens failed with HTTP 401 (request id req-123): The request you have made requires authentication.`);
    expect(err.hint).toMatch(/^check the credentials of cloud "c1"/);
    await srv.finish();
  });

  it('403 from Octavia names the load-balancer role', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/v2/lbaas/providers', status: 403, response: { faultstring: 'Policy does not allow this request to be performed.' } }]);
    const err = (await client().send({ method: 'GET', url: `${srv.url}/v2/lbaas/providers`, service: 'Octavia' }).catch((e) => e)) as HttpError;
    expect(err.hint).toMatch(/load-balancer_member/);
    expect(err.message).toMatch(/Policy does not allow/);
    await srv.finish();
  });

  it('connection refused names the endpoint and the service', async () => {
    const srv = await scriptedServer([]);
    await srv.finish(); // closed: nothing listens on its port any more
    const err = (await client().send({ method: 'GET', url: `${srv.url}/`, service: 'Octavia' }).catch((e) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.code).toBe('ECONNREFUSED');
    expect(err.hint).toBe(`nothing listens at ${srv.url}: is Octavia running, and is its catalog endpoint right?`);
  });
});

describe('HTTP trace', () => {
  it('shows method, URL, status and bodies with tokens and passwords redacted', async () => {
    registerSecret('tok-abcdef-123');
    const srv = await scriptedServer([{ method: 'POST', path: '/p', responseHeaders: { 'x-subject-token': 'tok-abcdef-123' }, response: { echo: 'tok-abcdef-123' } }]);
    const logger = memoryLogger(true);
    await client(logger).send({
      method: 'POST', url: `${srv.url}/p`, service: 'Keystone', headers: { 'X-Auth-Token': 'tok-abcdef-123' },
      body: { auth: { password: 'pw-very-secret' }, application_credential_secret: 'ac-very-secret' }, retry: true,
    });
    const text = logger.lines.join('\n');
    expect(text).toContain(`→ POST ${srv.url}/p`);
    expect(text).toContain(`← 200 POST ${srv.url}/p`);
    for (const secret of ['tok-abcdef-123', 'pw-very-secret', 'ac-very-secret']) expect(text).not.toContain(secret);
    await srv.finish();
  });
});

describe('HTTP client details', () => {
  const recorder = () => {
    const slept: number[] = [];
    return { slept, sleep: async (ms: number) => { slept.push(ms); } };
  };

  it('defaults: 2 retries, backoff from 500 ms doubling, with a debug line per retry', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', status: 503 }, { method: 'GET', path: '/x', status: 502 }, { method: 'GET', path: '/x', status: 500 }]);
    const r = recorder();
    const logger = memoryLogger(true);
    const err = await createHttpClient({ logger, sleep: r.sleep }).send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' }).catch((e) => e);
    expect(err).toMatchObject({ status: 500, hint: 'Nova failed on its side; retry later or give the operator the request id' });
    expect(r.slept).toEqual([500, 1000]);
    expect(logger.lines.filter((l) => /retrying/.test(l)).map((l) => l.replace(/^.*?(HTTP|ECONN)/, '$1'))).toEqual(['HTTP 503; retrying in 500 ms', 'HTTP 502; retrying in 1000 ms']);
    await srv.finish();
  });

  it('a connection reset is retried with the same doubling backoff and says so', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', reset: true }, { method: 'GET', path: '/x', reset: true }, { method: 'GET', path: '/x', response: { ok: true } }]);
    const r = recorder();
    const logger = memoryLogger(true);
    await createHttpClient({ logger, sleep: r.sleep, backoffMs: 7 }).send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' });
    expect(r.slept).toEqual([7, 14]);
    expect(logger.lines.filter((l) => l.includes('ECONNRESET; retrying in')).map((l) => l.replace(/^.*ECONNRESET/, 'ECONNRESET'))).toEqual(['ECONNRESET; retrying in 7 ms', 'ECONNRESET; retrying in 14 ms']);
    await srv.finish();
  });

  it('a reset on the last attempt is an error naming the code; a reset of a POST is not retried', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', reset: true }, { method: 'POST', path: '/y', reset: true }]);
    const http = createHttpClient({ logger: memoryLogger(), retries: 0, sleep: noSleep });
    await expect(http.send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' })).rejects.toMatchObject({ code: 'ECONNRESET', status: undefined });
    await expect(createHttpClient({ logger: memoryLogger(), sleep: noSleep }).send({ method: 'POST', url: `${srv.url}/y`, service: 'Nova', body: {} })).rejects.toMatchObject({ code: 'ECONNRESET' });
    await srv.finish();
  });

  it.each([[300, false], [299, true], [204, true]])('HTTP %i is success: %s (redirects are not followed)', async (status, ok) => {
    const srv = await scriptedServer([{ method: 'GET', path: '/x', status }]);
    const res = client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' });
    if (ok) await expect(res).resolves.toMatchObject({ status });
    else await expect(res).rejects.toMatchObject({ status });
    await srv.finish();
  });

  it('HTTP 500 is retried, 499 is not', async () => {
    const srv = await scriptedServer([{ method: 'GET', path: '/a', status: 499 }, { method: 'GET', path: '/b', status: 500 }, { method: 'GET', path: '/b', status: 200 }]);
    await expect(client().send({ method: 'GET', url: `${srv.url}/a`, service: 'Nova' })).rejects.toMatchObject({ status: 499 });
    await expect(client().send({ method: 'GET', url: `${srv.url}/b`, service: 'Nova' })).resolves.toMatchObject({ status: 200 });
    await srv.finish();
  });

  it('response headers come back lower-case; the error carries Nova\'s request id', async () => {
    const srv = await scriptedServer([
      { method: 'GET', path: '/x', responseHeaders: { 'X-OpenStack-Request-ID': 'req-a' }, response: {} },
      { method: 'GET', path: '/y', status: 409, responseHeaders: { 'x-compute-request-id': 'req-c' }, response: { conflictingRequest: { message: 'busy' } } },
    ]);
    const res = await client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' });
    expect(res.headers['x-openstack-request-id']).toBe('req-a');
    const err = (await client().send({ method: 'GET', url: `${srv.url}/y`, service: 'Nova' }).catch((e) => e)) as HttpError;
    expect(err.message).toBe(`Nova: GET ${srv.url}/y failed with HTTP 409 (request id req-c): busy`);
    expect(err.requestId).toBe('req-c');
    await srv.finish();
  });

  it('trace: Accept always, Content-Type only with a body, the request id and a long body cut at 1500 characters', async () => {
    const long = 'y'.repeat(2000);
    const srv = await scriptedServer([
      { method: 'GET', path: '/x', responseHeaders: { 'x-compute-request-id': 'req-n' }, response: { long } },
      { method: 'PUT', path: '/p', response: '' },
    ]);
    const logger = memoryLogger(true);
    const http = client(logger);
    await http.send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' });
    await http.send({ method: 'PUT', url: `${srv.url}/p`, service: 'Nova', body: 'text body' });
    const lines = logger.lines.filter((l) => /[→←]/.test(l));
    expect(lines[0]).toMatch(new RegExp(`→ GET ${srv.url}/x \\{"Accept":"application/json"\\}$`));
    expect(lines[1]).toMatch(new RegExp(`← 200 GET ${srv.url}/x \\(\\d+ ms\\) req-n \\{"long":"y{1491}… \\(2011 chars\\)$`));
    expect(lines[2]).toMatch(new RegExp(`→ PUT ${srv.url}/p \\{"Accept":"application/json","Content-Type":"application/json"\\} text body$`));
    expect(lines[3]).toMatch(new RegExp(`← 200 PUT ${srv.url}/p \\(\\d+ ms\\)$`));
    // A body of exactly the limit is shown whole; the OpenStack request id is shown as well.
    const exact = { s: 'z'.repeat(1500 - '{"s":""}'.length) };
    const srv2 = await scriptedServer([{ method: 'GET', path: '/e', responseHeaders: { 'x-openstack-request-id': 'req-o' }, response: exact }]);
    await http.send({ method: 'GET', url: `${srv2.url}/e`, service: 'Nova' });
    expect(logger.lines.at(-1)).toMatch(new RegExp(`← 200 GET ${srv2.url}/e \\(\\d+ ms\\) req-o \\{"s":"z{1492}"\\}$`));
    await srv2.finish();
    const ms = Number(/\((\d+) ms\)/.exec(lines[1])![1]);
    expect(ms).toBeLessThan(60_000);
    await srv.finish();
  });

  it('verify: false warns once that certificates are not checked', () => {
    const logger = memoryLogger();
    createHttpClient({ logger, verify: false });
    const checked = memoryLogger();
    createHttpClient({ logger: checked, verify: true });
    createHttpClient({ logger: checked });
    expect(logger.lines.filter((l) => /TLS certificates are not verified/.test(l))).toHaveLength(1);
    expect(checked.lines).toEqual([]);
  });
});

describe('HTTP client: timeouts and Keystone pointers', () => {
  it('no answer within timeoutMs: sent again with twice the time, twice (issue 31: a slow but live cloud gets its chance), then ETIMEDOUT naming the service, the limit and the flag', async () => {
    const silent = nodeHttp.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(silent.address() as AddressInfo).port}/v2/lbaas/providers`;
    let requests = 0;
    silent.on('request', () => requests++);
    try {
      const err = (await createHttpClient({ logger: memoryLogger(), timeoutMs: 200, sleep: noSleep }).send({ method: 'GET', url, service: 'Octavia' }).catch((e) => e)) as HttpError;
      expect(err).toBeInstanceOf(HttpError);
      expect(err.code).toBe('ETIMEDOUT');
      expect(err.message).toBe(`Octavia: GET ${url} failed with ETIMEDOUT: timeout of 800ms exceeded`);
      expect(err.hint).toBe(`Octavia at ${new URL(url).origin} did not answer within 200 ms (sent 3 times, each with twice the time of the one before): check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`);
      expect(requests).toBe(3);
    } finally {
      silent.closeAllConnections();
      await new Promise<void>((r) => silent.close(() => r()));
    }
  });

  it('a 401 to the token request from a service that names its Keystone: set auth_url to that Keystone', async () => {
    const srv = await scriptedServer([{
      method: 'POST', path: '/v3/auth/tokens', status: 401, responseHeaders: { 'www-authenticate': 'Keystone uri="https://keystone.example:5000/v3"' },
      response: { error: { code: 401, message: 'Authentication required' } },
    }]);
    const err = (await client().send({ method: 'POST', url: `${srv.url}/v3/auth/tokens`, service: 'Keystone', body: {} }).catch((e) => e)) as HttpError;
    expect(err.hint).toBe(`auth_url of cloud "c1" points at ${srv.url}, which is not Keystone but a service that sends its clients to Keystone at https://keystone.example:5000/v3: set auth_url to https://keystone.example:5000/v3`);
    await srv.finish();
  });

  it('an error without a hint keeps none while secrets are registered', async () => {
    registerSecret('tok-registered-1');
    const srv = await scriptedServer([{ method: 'GET', path: '/x', status: 422, response: { conflictingRequest: { message: 'busy' } } }]);
    const err = (await client().send({ method: 'GET', url: `${srv.url}/x`, service: 'Nova' }).catch((e) => e)) as HttpError;
    expect(err.message).toBe(`Nova: GET ${srv.url}/x failed with HTTP 422: busy`);
    expect(err.hint).toBeUndefined();
    await srv.finish();
  });
});
