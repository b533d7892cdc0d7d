import { kindOf } from '../errors.js';
import { checkedList, malformedAnswer, schemaProblem } from './answer-check.js';
import type { Connection, ServiceType } from './connection.js';
import type { HttpResponse } from './http.js';

/**
 * Pagination of OpenStack lists. Octavia and Neutron (and Nova) return at most a page of entries
 * (Octavia's `pagination_max_limit`, 1000 by default; Neutron's and Nova's likewise) with a
 * `<key>_links` list whose `rel: "next"` entry points at the next page (Octavia api-ref
 * "Pagination", Neutron api-ref "Pagination"): a load balancer in ERROR on page two was never seen.
 * Every list kaas reads goes through readAllPages.
 *
 * Only the next link's query (marker, limit, …) is taken, applied to the path kaas asked for: the
 * link's scheme and host are what the service believes its URL is (http behind a TLS proxy, an
 * internal name), and the token must not go anywhere but the catalog endpoint.
 */

/** More pages than this is a service that loops; 1000 pages of 1000 is far beyond any project. */
export const MAX_PAGES = 1000;

/** The href of the answer's `<key>_links` rel=next, or undefined on the last page. */
export function nextLink(res: HttpResponse<unknown>, key: string): string | undefined {
  const links = (res.data as Record<string, unknown>)[`${key}_links`];
  if (links === undefined || links === null) return undefined;
  const problem = Array.isArray(links) ? schemaProblem(links, 'links') : `is ${kindOf(links)}, not a list`;
  if (problem) throw malformedAnswer(res, `"${key}_links" ${problem}`);
  const next = (links as { href?: unknown; rel?: unknown }[]).find((l) => l?.rel === 'next');
  if (next === undefined) return undefined;
  if (typeof next.href !== 'string') throw malformedAnswer(res, `"${key}_links" has a "next" link without an href`);
  return next.href;
}

/**
 * `path` with the query parameters of the `href` of a next link: each parameter the link carries
 * replaces the one of `path` (marker, limit, page_reverse); the others (filters, fields) stay.
 */
export function nextPagePath(path: string, href: string): string {
  const q = path.indexOf('?');
  const base = q < 0 ? path : path.slice(0, q);
  const params = new URLSearchParams(q < 0 ? '' : path.slice(q + 1));
  const link = new URL(href, 'http://link.invalid/').searchParams;
  for (const k of new Set(link.keys())) {
    params.delete(k);
    for (const v of link.getAll(k)) params.append(k, v);
  }
  const s = params.toString();
  return s ? `${base}?${s}` : base;
}

/** Every entry of a list, following `<key>_links` rel=next from page to page; each page checked (checkedList). */
export async function readAllPages<T>(c: Connection, type: ServiceType, root: string, path: string, key: string, headers?: Record<string, string>): Promise<T[]> {
  const out: T[] = [];
  const seen = new Set([path]);
  let next = path;
  for (let page = 1; ; page++) {
    const res = await c.call<unknown>(type, root, { method: 'GET', path: next, headers });
    out.push(...checkedList<T>(res, key));
    const href = nextLink(res, key);
    if (href === undefined) return out;
    next = nextPagePath(path, href);
    if (seen.has(next) || page >= MAX_PAGES) {
      throw malformedAnswer(res, `its "${key}_links" next link ${seen.has(next) ? 'leads back to a page already read' : `still points on after ${MAX_PAGES} pages`} (${href})`);
    }
    seen.add(next);
  }
}
