import net from 'node:net';
import { kindOf, OperationError } from '../errors.js';
import { objectProblem } from './kube-answer.js';

/**
 * The one reader of a Service's load-balancer address (`kubectl get service -o json`,
 * status.loadBalancer.ingress[0]: ip and hostname), used by check-lb and by apply-ingress's /
 * apply-gateway's address wait. An answer in another shape (a Service that is no object, a list that is
 * not one, an entry that is null, an ip that is not an IP address, a hostname that is no DNS name) is an
 * OperationError naming the Service, the field and the value seen, instead of a JavaScript TypeError or
 * a wrong value that kaas prints, records or sends requests to.
 */

/** Which Service is read (for the messages). */
export interface ServiceRef {
  namespace: string;
  name: string;
}

/** The address fields of status.loadBalancer.ingress[0], each only when set (and valid). */
export interface LbIngress {
  ip?: string;
  hostname?: string;
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const absent = (v: unknown) => v === undefined || v === null || v === '';
const DNS_NAME = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/;

/** A value as shown in an error: its JSON (control characters escaped), cut short, with its kind. */
function shownValue(v: unknown): string {
  if (v === null || v === undefined) return kindOf(v);
  const json = JSON.stringify(v) ?? String(v);
  return `${json.length > 80 ? `${json.slice(0, 77)}...` : json} (${kindOf(v)})`;
}

/**
 * status.loadBalancer.ingress[0] of the Service answer `svc` (undefined: the Service is absent), validated:
 * empty while OCCM has set no address, an OperationError (see the module comment) for any other shape.
 */
export function lbIngress(svc: unknown, ref: ServiceRef): LbIngress {
  const shown = `Service ${ref.namespace}/${ref.name}`;
  const fail = (what: string) =>
    new OperationError(`${shown}: ${what}`, {
      hint: `the cluster's API server answered a Service status kaas cannot use; look at it: kubectl get service -n ${ref.namespace} ${ref.name} -o yaml`,
    });
  const bad = (field: string, value: unknown, want: string) => fail(`${field} is ${shownValue(value)}, not ${want}`);
  if (svc === undefined || svc === null) return {};
  const problem = objectProblem(svc, 'the answer');
  if (problem) throw fail(problem);
  const status = (svc as { status?: Record<string, unknown> }).status;
  const lb = status?.loadBalancer;
  if (lb === undefined || lb === null) return {};
  if (!isObject(lb)) throw bad('status.loadBalancer', lb, 'an object');
  const ingress = lb.ingress;
  if (ingress === undefined || ingress === null) return {};
  if (!Array.isArray(ingress)) throw bad('status.loadBalancer.ingress', ingress, 'a list');
  if (!ingress.length) return {};
  const first: unknown = ingress[0];
  if (!isObject(first)) throw bad('status.loadBalancer.ingress[0]', first, 'an object');
  const { ip, hostname } = first;
  const out: LbIngress = {};
  if (!absent(ip)) {
    if (typeof ip !== 'string' || !net.isIP(ip)) throw bad('status.loadBalancer.ingress[0].ip', ip, 'an IP address');
    out.ip = ip;
  }
  if (!absent(hostname)) {
    if (typeof hostname !== 'string' || hostname.length > 253 || !DNS_NAME.test(hostname)) throw bad('status.loadBalancer.ingress[0].hostname', hostname, 'a DNS name');
    out.hostname = hostname;
  }
  return out;
}

/** The Service's load-balancer address (ip, else hostname), undefined while it has none; throws as lbIngress. */
export function lbAddress(svc: unknown, ref: ServiceRef): string | undefined {
  const { ip, hostname } = lbIngress(svc, ref);
  return ip ?? hostname;
}
