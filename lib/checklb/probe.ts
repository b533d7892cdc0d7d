import http from 'node:http';
import type { Probe } from './evaluate.js';

/**
 * One HTTP GET from the management host (no proxy, no keep-alive); ok on 2xx within `timeoutMs`.
 * `timeoutMs` is a deadline for the whole answer, not an idle timer: a backend dripping its body a
 * byte at a time fails the probe at the deadline instead of holding check-lb for ever.
 */
export function httpProbe(url: string, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    const limit = Math.max(1, Math.ceil(timeoutMs));
    const req = http.get(url, { agent: false, signal: AbortSignal.timeout(limit) }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length + body.length < 4096 ? c : ''));
      res.on('end', () => resolve({ ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300, detail: res.statusCode === 200 ? body : `HTTP ${res.statusCode}` }));
      res.on('error', () => resolve({ ok: false, detail: `no complete answer within ${limit} ms` }));
    });
    req.on('error', (e) => resolve({ ok: false, detail: e.name === 'AbortError' || e.name === 'TimeoutError' ? `no complete answer within ${limit} ms` : e.message }));
  });
}
