import nodeHttp from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHttpClient } from '../../../lib/openstack/http.js';
import { memoryLogger } from '../../../lib/log.js';
import { httpProbe } from '../../../lib/checklb/probe.js';

/**
 * Issue 23, items 3 and 5: axios's timeout was an idle timer (a server dripping a byte at a time kept a
 * request alive for ever; 0.1 ms turned it off), and answers had no size cap (700 MB crashed doctor).
 */

/** A loopback server: `drip` sends headers then one byte every 20 ms for ever; `flood` sends 1 MiB chunks for ever. */
async function misbehaving(kind: 'drip' | 'flood'): Promise<{ url: string; close: () => Promise<void> }> {
  const timers = new Set<NodeJS.Timeout>();
  const srv = nodeHttp.createServer((_req, res) => {
    res.writeHead(200, { 'Content-Type': 'application/json' });
    res.write('{');
    const chunk = kind === 'flood' ? Buffer.alloc(1024 * 1024, 0x20) : Buffer.from(' ');
    const t = setInterval(() => res.write(chunk), kind === 'flood' ? 1 : 20);
    timers.add(t);
    res.on('close', () => clearInterval(t));
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => {
      for (const t of timers) clearInterval(t);
      srv.closeAllConnections();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}

const client = (o: { timeoutMs?: number; budgetMs?: number; maxBodyBytes?: number }) => createHttpClient({ logger: memoryLogger(), retries: 2, backoffMs: 1, sleep: async () => {}, cloud: 'c1', ...o });

describe('the HTTP timeout is a deadline for the whole request', () => {
  it('a server dripping its body after the headers is cut off at the deadline, with a hint naming the limit', async () => {
    const srv = await misbehaving('drip');
    try {
      const err = await client({ timeoutMs: 300 }).send({ method: 'GET', url: `${srv.url}/v2/lbaas/providers`, service: 'Octavia' }).catch((e: unknown) => e);
      // Sent again with 600 and 1200 ms: the deadline grows, but a drip-fed answer still ends.
      expect(err).toMatchObject({ code: 'ETIMEDOUT', message: expect.stringContaining('timeout of 1200ms exceeded') });
      expect((err as { hint: string }).hint).toBe(`Octavia at ${srv.url} did not answer within 300 ms (sent 3 times, each with twice the time of the one before): check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`);
    } finally {
      await srv.close();
    }
  });

  it('a timeout below a millisecond (--timeout 0.0001) is one millisecond, not "no timeout"', async () => {
    const srv = await misbehaving('drip');
    try {
      await expect(client({ timeoutMs: 0.1 }).send({ method: 'GET', url: `${srv.url}/`, service: 'Keystone' })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
    } finally {
      await srv.close();
    }
  });

  it('all requests of a run share one budget: past it, no request runs on', async () => {
    const srv = await misbehaving('drip');
    try {
      const err = await client({ timeoutMs: 600_000, budgetMs: 300 }).send({ method: 'GET', url: `${srv.url}/`, service: 'Neutron' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'EBUDGET' });
      expect((err as { hint: string }).hint).toContain('answers too slowly for the run to finish');
    } finally {
      await srv.close();
    }
  });
});

describe('answer bodies are capped', () => {
  it('an endless answer stops at the cap with an error naming the service, not a crash', async () => {
    const srv = await misbehaving('flood');
    try {
      const err = await client({ maxBodyBytes: 4 * 1024 * 1024 }).send({ method: 'GET', url: `${srv.url}/v2/lbaas/loadbalancers`, service: 'Octavia' }).catch((e: unknown) => e);
      expect(err).toMatchObject({ code: 'ETOOBIG', message: expect.stringContaining('the answer is larger than 4194304 bytes') });
      expect((err as { hint: string }).hint).toContain('sent an answer larger than 4 MiB');
    } finally {
      await srv.close();
    }
  });
});

describe("check-lb's probe has the same deadline", () => {
  it('a backend dripping its body fails the probe at the deadline instead of holding check-lb', async () => {
    const srv = await misbehaving('drip');
    try {
      await expect(httpProbe(`${srv.url}/`, 300)).resolves.toEqual({ ok: false, detail: 'no complete answer within 300 ms' });
    } finally {
      await srv.close();
    }
  });
});

/** Issue 31, section 5: the whole-request deadline failed 50 parallel runs against a slow single-worker Octavia. */
describe('a slow but live cloud gets its chance within the run\'s budget', () => {
  it('an answer that takes 1.5 times the deadline comes on the second attempt, with twice the time', async () => {
    let requests = 0;
    const srv = nodeHttp.createServer((_req, res) => {
      requests++;
      setTimeout(() => res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"providers": []}'), 450);
    });
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v2/lbaas/providers`;
      const res = await client({ timeoutMs: 300 }).send({ method: 'GET', url, service: 'Octavia' });
      expect(res.data).toEqual({ providers: [] });
      expect(requests).toBe(2);
    } finally {
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });

  it('a POST that ran out of time is not sent again (not idempotent)', async () => {
    let requests = 0;
    const srv = nodeHttp.createServer(() => void requests++);
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
    try {
      const url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}/v3/auth/tokens`;
      await expect(client({ timeoutMs: 200 }).send({ method: 'POST', url, service: 'Keystone', body: {} })).rejects.toMatchObject({ code: 'ETIMEDOUT' });
      expect(requests).toBe(1);
    } finally {
      srv.closeAllConnections();
      await new Promise<void>((r) => srv.close(() => r()));
    }
  });
});
