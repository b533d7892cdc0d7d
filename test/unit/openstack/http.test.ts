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

  it('does not retry a POST unless told so', async () => {
    const srv = await scriptedServer([{ method: 'POST', path: '/x', status: 500 }]);
    await expect(client().send({ method: 'POST', url: `${srv.url}/x`, service: 'Nova', body: {} })).rejects.toMatchObject({ status: 500 });
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
