import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** One expected HTTP call and the answer to give. */
export interface ScriptedCall {
  method: string;
  /** Path with query string, exactly as sent (e.g. "/v2.0/networks?router%3Aexternal=true"). */
  path: string;
  /** Request headers that must be present with these values (names lower-case). */
  headers?: Record<string, string | RegExp>;
  /** The JSON request body that must be sent (deep-equal). */
  body?: unknown;
  status?: number;
  responseHeaders?: Record<string, string>;
  /** Response body; a function gets the server's base URL (for catalogs). */
  response?: unknown | ((base: string) => unknown);
  /** Drop the connection without an answer (a connection reset). */
  reset?: boolean;
}

/** A step of the script: one call, or several that may arrive in any order (concurrent requests). */
export type ScriptStep = ScriptedCall | { anyOrder: ScriptedCall[] };

/** A running scripted server. */
export interface ScriptedServer {
  url: string;
  /** Every request received, as "METHOD path". */
  received: string[];
  /** Throws unless every step was used and nothing unexpected arrived. Also closes the server. */
  finish(): Promise<void>;
}

const isGroup = (s: ScriptStep): s is { anyOrder: ScriptedCall[] } => 'anyOrder' in s;

/** Servers whose test has not called finish() (it failed first); closed after the test file. */
const open = new Set<http.Server>();
if (typeof afterAll === 'function') {
  afterAll(() => {
    for (const s of open) {
      s.closeAllConnections();
      s.close();
    }
    open.clear();
  });
}

/**
 * A real HTTP server on 127.0.0.1 that plays a strict script: calls must come in order (groups in
 * any order within the group); an unexpected call, a wrong header/body or a missing call fails
 * the test in finish(). Unexpected calls get HTTP 599 so the client fails too.
 */
export async function scriptedServer(script: ScriptStep[]): Promise<ScriptedServer> {
  const steps = script.map((s) => (isGroup(s) ? [...s.anyOrder] : [s]));
  const failures: string[] = [];
  const received: string[] = [];
  let base = '';

  function take(method: string, path: string): ScriptedCall | undefined {
    const group = steps[0];
    if (!group) return undefined;
    const i = group.findIndex((c) => c.method === method && c.path === path);
    if (i < 0) return undefined;
    const [call] = group.splice(i, 1);
    if (group.length === 0) steps.shift();
    return call;
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const what = `${req.method} ${req.url}`;
      received.push(what);
      const call = take(req.method ?? '', req.url ?? '');
      if (!call) {
        const next = steps[0]?.map((c) => `${c.method} ${c.path}`).join(' | ') ?? 'nothing';
        failures.push(`unexpected call ${what} (expected ${next})`);
        res.writeHead(599, { 'content-type': 'text/plain' }).end('unexpected call');
        return;
      }
      for (const [name, want] of Object.entries(call.headers ?? {})) {
        const got = req.headers[name];
        const ok = typeof got === 'string' && (typeof want === 'string' ? got === want : want.test(got));
        if (!ok) failures.push(`${what}: header ${name} is ${JSON.stringify(got)}, expected ${String(want)}`);
      }
      if (call.body !== undefined) {
        const text = Buffer.concat(chunks).toString('utf8');
        const same = (() => {
          try {
            return JSON.stringify(JSON.parse(text)) === JSON.stringify(call.body);
          } catch {
            return false;
          }
        })();
        if (!same) failures.push(`${what}: body ${text} differs from ${JSON.stringify(call.body)}`);
      }
      if (call.reset) {
        req.socket.destroy();
        return;
      }
      const payload = typeof call.response === 'function' ? (call.response as (b: string) => unknown)(base) : call.response;
      const body = payload === undefined ? '' : typeof payload === 'string' ? payload : JSON.stringify(payload);
      res.writeHead(call.status ?? 200, { 'content-type': 'application/json', connection: 'close', ...call.responseHeaders });
      res.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  // A test that fails before finish() used to leave the server listening, and jest then reported
  // "a worker process has failed to exit gracefully" (issue 23). Unref'd, the server never keeps the
  // worker alive; the file's afterAll closes whatever finish() did not.
  server.unref();
  open.add(server);

  return {
    url: base,
    received,
    async finish() {
      open.delete(server);
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      const missing = steps.flat().map((c) => `missing call ${c.method} ${c.path}`);
      const all = [...failures, ...missing];
      if (all.length) throw new Error(`scripted HTTP:\n  ${all.join('\n  ')}\nreceived:\n  ${received.join('\n  ')}`);
    },
  };
}
