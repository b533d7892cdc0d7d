import { kindOf } from '../errors.js';
import { answerValidator } from './answer-validators.js';
import { HttpError } from './http-error.js';
import { describeBody, type HttpResponse } from './http.js';

/**
 * The boundary where OpenStack answers become kaas's data: a list is a list (not `null`, `{}` or a
 * string), each entry an object with the fields kaas reads of the types the API gives them
 * (answer-schemas.ts). An answer of another shape is an HttpError naming the service, the method
 * and URL and what was wrong — never an empty list (doctor reported "no findings" for a cloud whose
 * load-balancer list was `null`), nor a JavaScript TypeError later.
 */

/** The HttpError for an answer of the wrong shape. */
export function malformedAnswer(res: HttpResponse<unknown>, what: string): HttpError {
  const r = res.request ?? { method: 'GET', url: '(unknown URL)', service: 'OpenStack' };
  return new HttpError({
    service: r.service, method: r.method, url: r.url, status: res.status,
    detail: what,
    hint: `${r.service} did not answer like its API: is the catalog endpoint right (not a proxy or web page)? If it is, the service is failing; ask the cloud operator`,
  });
}


/** Why `value` does not fit the schema of `schemaKey` entries ("field protocol_port must be integer (it is a string)"), or undefined when it fits. */
export function entryProblem(value: unknown, schemaKey: string): string | undefined {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return `is ${kindOf(value)}, not an object`;
  return schemaProblem(value, schemaKey);
}

/** Why `value` does not fit the schema `schemaKey` (no shape check of its own), or undefined. */
export function schemaProblem(value: unknown, schemaKey: string): string | undefined {
  const validate = answerValidator(schemaKey);
  if (!validate || validate(value)) return undefined;
  const e = validate.errors?.[0];
  if (!e) return 'does not fit its schema';
  const at = e.instancePath.split('/').slice(1);
  const field = at.length ? `field ${at.join('.')}` : 'it';
  const got = at.length && e.keyword !== 'required' ? ` (it is ${kindOf(at.reduce<unknown>((o, k) => (o as Record<string, unknown>)?.[k], value))})` : '';
  return `${field} ${e.message ?? 'is invalid'}${got}`;
}

/**
 * The list under `key` of a JSON answer (`{"loadbalancers": [...]}`), every entry checked. A missing
 * list, one of another type, or a bad entry is an HttpError saying which.
 */
export function checkedList<T>(res: HttpResponse<unknown>, key: string): T[] {
  const body = res.data;
  if (body === null || typeof body !== 'object' || Array.isArray(body)) throw malformedAnswer(res, `the answer is ${kindOf(body)}, not an object with a "${key}" list (${describeBody(res)})`);
  const list = (body as Record<string, unknown>)[key];
  if (list === undefined) throw malformedAnswer(res, `the answer has no "${key}" list (${describeBody(res)})`);
  if (!Array.isArray(list)) throw malformedAnswer(res, `"${key}" is ${kindOf(list)}, not a list (${describeBody(res)})`);
  list.forEach((item, i) => {
    const problem = entryProblem(item, key);
    if (problem) {
      const id = typeof (item as { id?: unknown } | null)?.id === 'string' ? ` (id ${(item as { id: string }).id})` : '';
      throw malformedAnswer(res, `entry ${i}${id} of "${key}" ${problem}`);
    }
  });
  return list as T[];
}

/** The single object under `key` (`{"loadbalancer": {...}}`), checked against the schema of `schemaKey` entries. */
export function checkedEntry<T>(res: HttpResponse<unknown>, key: string, schemaKey: string): T {
  const value = (res.data as Record<string, unknown> | null)?.[key];
  const problem = entryProblem(value, schemaKey);
  if (problem) throw malformedAnswer(res, `"${key}" ${value === undefined ? 'is missing' : problem} (${describeBody(res)})`);
  return value as T;
}
