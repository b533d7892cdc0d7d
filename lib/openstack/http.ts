import http from 'node:http';
import https from 'node:https';
import axios, { type AxiosInstance, type AxiosResponse } from 'axios';
import type { Logger } from '../log.js';
import { redactValue } from '../redact.js';
import { HttpError, hintFor, openstackErrorMessage } from './http-error.js';

/** One call to an OpenStack API. */
export interface HttpRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH' | 'HEAD';
  url: string;
  /** Service name for messages and hints ("Keystone", "Octavia", …). */
  service: string;
  headers?: Record<string, string>;
  body?: unknown;
  /** Statuses that count as success; default 2xx. */
  expect?: number[];
  /** Retry on 5xx / connection reset; default true except for POST and PATCH (not idempotent). */
  retry?: boolean;
}

/** The answer to an HttpRequest; header names are lower-case. */
export interface HttpResponse<T = unknown> {
  status: number;
  headers: Record<string, string>;
  data: T;
  /** The request this answers (for messages about its body). */
  request?: { method: string; url: string; service: string };
}

/** What an answer body is, in a few words, for messages ("text/html, 312 bytes: <html>…"). */
export function describeBody(res: HttpResponse<unknown>): string {
  const type = res.headers['content-type'] ?? 'no content type';
  const text = typeof res.data === 'string' ? res.data : JSON.stringify(res.data) ?? '';
  return `${type}, ${text.length} chars: ${JSON.stringify(text.slice(0, 60))}`;
}

/** The one HTTP client kaas uses for OpenStack; counts every request it sends. */
export interface HttpClient {
  send<T = unknown>(req: HttpRequest): Promise<HttpResponse<T>>;
  readonly stats: { requests: number };
}

/** Tuning and TLS of the client. */
export interface HttpClientOptions {
  logger: Logger;
  /** The cloud's name, for hints. */
  cloud?: string;
  /** Where the cloud is defined (clouds.yaml path, or "environment"), for hints. */
  cloudFile?: string;
  timeoutMs?: number;
  /** Extra attempts after the first; default 2. */
  retries?: number;
  /** First backoff delay, doubled each retry; default 500 ms. */
  backoffMs?: number;
  /** PEM text of extra CA certificates (clouds.yaml cacert). */
  ca?: string;
  /** false = do not check TLS certificates. */
  verify?: boolean;
  sleep?: (ms: number) => Promise<void>;
  /**
   * How long all requests of this client may take together, retries and backoff included
   * (default 15 min): a run against a cloud that answers, but too slowly to finish, still ends.
   */
  budgetMs?: number;
  /** Largest answer body kept, in bytes (default MAX_BODY_BYTES). */
  maxBodyBytes?: number;
}

/** No OpenStack answer kaas reads comes near this; a larger one is refused before it fills memory. */
export const MAX_BODY_BYTES = 32 * 1024 * 1024;
const DEFAULT_BUDGET_MS = 15 * 60_000;

// ETRUNCATED: the connection closed in the middle of the body (a proxy cutting long answers, a reset).
const RETRY_CODES = new Set(['ECONNRESET', 'EPIPE', 'ERR_SOCKET_CONNECTION_TIMEOUT', 'ETRUNCATED']);
const TRACE_BODY_LIMIT = 1500;

function trace(body: unknown): string {
  if (body === undefined) return '';
  const text = typeof body === 'string' ? body : JSON.stringify(redactValue(body));
  return text.length > TRACE_BODY_LIMIT ? `${text.slice(0, TRACE_BODY_LIMIT)}… (${text.length} chars)` : text;
}

function lowerHeaders(h: AxiosResponse['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) out[k.toLowerCase()] = String(v);
  return out;
}

/**
 * Milliseconds to wait from a Retry-After header (delta seconds or an HTTP date, RFC 9110 10.2.3);
 * undefined when absent or unreadable.
 */
export function retryAfterMs(value: string | undefined, now: number): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  const at = Date.parse(v);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** Creates the client: timeouts, retry with backoff (5xx except 501, connection resets, cut-off bodies), one wait on 429 Retry-After, CA, trace. */
export function createHttpClient(opts: HttpClientOptions): HttpClient {
  // axios reads its timeout with parseInt: 0.1 ms became 0, "no timeout". At least 1 ms.
  const timeoutMs = Math.max(1, Math.ceil(opts.timeoutMs ?? 30_000));
  const maxBody = opts.maxBodyBytes ?? MAX_BODY_BYTES;
  const budget = AbortSignal.timeout(opts.budgetMs ?? DEFAULT_BUDGET_MS);
  const budgetMs = opts.budgetMs ?? DEFAULT_BUDGET_MS;
  const startedAt = Date.now();
  const retries = opts.retries ?? 2;
  const backoffMs = opts.backoffMs ?? 500;
  const sleep = opts.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  if (opts.verify === false) opts.logger.warn('TLS certificates are not verified (verify: false / insecure) — use cacert instead where possible');
  const ax: AxiosInstance = axios.create({
    timeout: timeoutMs,
    validateStatus: () => true,
    maxRedirects: 0,
    proxy: false,
    // Agents of our own: Node's global agents keep idle connections open (keepAlive), a new one does not.
    httpAgent: new http.Agent(),
    httpsAgent: new https.Agent({ ca: opts.ca, rejectUnauthorized: opts.verify !== false }),
    transitional: { clarifyTimeoutError: true },
    maxContentLength: maxBody,
    maxBodyLength: maxBody,
  });
  const stats = { requests: 0 };
  const log = opts.logger;

  async function attempt(req: HttpRequest, deadlineMs: number): Promise<AxiosResponse> {
    stats.requests++;
    const headers = { Accept: 'application/json', ...(req.body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...req.headers };
    log.debug(`→ ${req.method} ${req.url} ${JSON.stringify(redactValue(headers))} ${trace(req.body)}`.trimEnd());
    const t0 = Date.now();
    // axios's own timeout is an idle timer on the socket: a server dripping one byte a second after its
    // headers kept a request alive for ever. The signal is a deadline for the whole request.
    const deadline = AbortSignal.timeout(deadlineMs);
    let res: AxiosResponse;
    try {
      res = await ax.request({ method: req.method, url: req.url, headers, data: req.body, timeout: deadlineMs, signal: AbortSignal.any([deadline, budget]) });
    } catch (err) {
      const e = err as { code?: string; message?: string };
      if (budget.aborted) throw Object.assign(new Error(`the run's requests took longer than ${Math.round(budgetMs / 1000)} s together`), { code: 'EBUDGET' });
      if (deadline.aborted) throw Object.assign(new Error(`timeout of ${deadlineMs}ms exceeded`), { code: 'ETIMEDOUT' });
      if (/maxContentLength size of \d+ exceeded/.test(e.message ?? '')) throw Object.assign(new Error(`the answer is larger than ${maxBody} bytes`), { code: 'ETOOBIG' });
      // axios's "stream has been aborted": headers came, then the connection closed before the body's end.
      if (e.code === 'ERR_BAD_RESPONSE' && /aborted/.test(e.message ?? '')) {
        throw Object.assign(new Error('the answer was cut off: the connection closed before the whole body came'), { code: 'ETRUNCATED' });
      }
      throw err;
    }
    const rid = res.headers['x-openstack-request-id'] ?? res.headers['x-compute-request-id'] ?? '';
    log.debug(`← ${res.status} ${req.method} ${req.url} (${Date.now() - t0} ms) ${rid} ${trace(res.data)}`.trimEnd());
    return res;
  }

  async function send<T>(req: HttpRequest): Promise<HttpResponse<T>> {
    const mayRetry = req.retry ?? !['POST', 'PATCH'].includes(req.method);
    let waitedForRateLimit = false;
    let deadlineMs = timeoutMs;
    for (let n = 0; ; n++) {
      const last = !mayRetry || n >= retries;
      let res: AxiosResponse;
      try {
        res = await attempt(req, deadlineMs);
      } catch (err) {
        const code = (err as { code?: string }).code;
        // A slow but live cloud (one busy worker serving many runs at once) gets its chance: an idempotent
        // request that ran out of time is sent again with twice the time, while the run's budget lasts.
        // The whole-request deadline stays, so a drip-fed answer still ends.
        const left = budgetMs - (Date.now() - startedAt);
        if (!last && code === 'ETIMEDOUT' && left > deadlineMs * 2) {
          log.debug(`  no complete answer within ${deadlineMs} ms; retrying with ${deadlineMs * 2} ms`);
          deadlineMs *= 2;
          continue;
        }
        if (!last && code && RETRY_CODES.has(code) && !budget.aborted) {
          log.debug(`  ${code}; retrying in ${backoffMs * 2 ** n} ms`);
          await sleep(backoffMs * 2 ** n);
          continue;
        }
        throw new HttpError({
          service: req.service, method: req.method, url: req.url, code, cause: err,
          detail: (err as Error).message, hint: hintFor({ service: req.service, url: req.url, code, cloud: opts.cloud, cloudFile: opts.cloudFile, timeoutMs, budgetMs, attempts: n + 1, maxBodyBytes: maxBody, cacert: Boolean(opts.ca), retried: mayRetry && retries > 0 }),
        });
      }
      // 2xx; a 1xx is never the final answer.
      const ok = req.expect ? req.expect.includes(res.status) : res.status < 300;
      if (ok) {
        const headers = lowerHeaders(res.headers);
        const response = { status: res.status, headers, data: res.data as T, request: { method: req.method, url: req.url, service: req.service } };
        // axios leaves a body it cannot parse as JSON a string: HTML from a proxy, a truncated answer.
        if (typeof res.data === 'string' && res.data.trim() !== '' && req.method !== 'HEAD') {
          throw new HttpError({
            service: req.service, method: req.method, url: req.url, status: res.status,
            detail: `the answer is not JSON (${describeBody(response)})`,
            hint: `${req.service} did not answer like its API: is the catalog endpoint right (not a proxy or web page)? A cut-off answer means the connection broke; retry`,
          });
        }
        return response;
      }
      // 501 is a definite "not implemented" (e.g. the ovn provider's flavor capabilities), never transient.
      if (!last && res.status >= 500 && res.status !== 501 && !budget.aborted) {
        log.debug(`  HTTP ${res.status}; retrying in ${backoffMs * 2 ** n} ms`);
        await sleep(backoffMs * 2 ** n);
        continue;
      }
      const headers = lowerHeaders(res.headers);
      // 429: the request was not processed (RFC 6585), so any method may be sent again — once, after the
      // wait the server asks for, if that wait ends before the run's budget does.
      const wait = res.status === 429 ? retryAfterMs(headers['retry-after'], Date.now()) : undefined;
      if (wait !== undefined && !waitedForRateLimit && wait < budgetMs - (Date.now() - startedAt)) {
        waitedForRateLimit = true;
        log.debug(`  HTTP 429; waiting ${wait} ms as Retry-After asks, then retrying once`);
        await sleep(wait);
        n--;
        continue;
      }
      throw new HttpError({
        service: req.service, method: req.method, url: req.url, status: res.status,
        requestId: headers['x-openstack-request-id'] ?? headers['x-compute-request-id'],
        detail: res.status >= 300 && res.status < 400 ? `redirect to ${headers.location ?? '(no Location header)'}, not followed` : openstackErrorMessage(res.data),
        hint: hintFor({
          service: req.service, url: req.url, status: res.status, cloud: opts.cloud, cloudFile: opts.cloudFile, wwwAuthenticate: headers['www-authenticate'],
          location: headers.location, retryAt: wait === undefined ? undefined : Date.now() + wait, waited: waitedForRateLimit,
        }),
      });
    }
  }

  return { send, stats };
}
