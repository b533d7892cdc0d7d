import http from 'node:http';
import type { Probe } from './evaluate.js';

/** One HTTP GET from the management host (no proxy, no keep-alive); ok on 2xx within `timeoutMs`. */
export function httpProbe(url: string, timeoutMs: number): Promise<Probe> {
  return new Promise((resolve) => {
    const req = http.get(url, { timeout: timeoutMs, agent: false }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c.length + body.length < 4096 ? c : ''));
      res.on('end', () => resolve({ ok: (res.statusCode ?? 0) >= 200 && (res.statusCode ?? 0) < 300, detail: res.statusCode === 200 ? body : `HTTP ${res.statusCode}` }));
    });
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', (e) => resolve({ ok: false, detail: e.message }));
  });
}
