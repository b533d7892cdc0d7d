import net from 'node:net';
import { OperationError } from '../errors.js';

/**
 * The load-balancer address of one of check-lb's Services, read from `kubectl get service -o json`
 * (status.loadBalancer.ingress[0]: ip, else hostname). Undefined while OCCM has set none; an answer in
 * another shape (a list that is not one, an entry that is null, an ip that is not an IP address, a
 * hostname that is no DNS name) is an OperationError naming the field and the value seen, instead of a
 * JavaScript TypeError — and never becomes a URL that check-lb sends requests to.
 */
export function lbAddress(svc: unknown, shown: string): string | undefined {
  const bad = (field: string, value: unknown, want: string) =>
    new OperationError(`${shown}: ${field} is ${describe(value)}, not ${want}`, {
      hint: `the cluster's API server answered a Service status check-lb cannot use; look at it: kubectl get ${shown.replace(/^Service ([^/]+)\/(.+)$/, 'service -n $1 $2')} -o yaml`,
    });
  const isObject = (v: unknown) => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (svc === undefined || svc === null) return undefined;
  if (!isObject(svc)) throw bad('the answer', svc, 'a Service object');
  const status = (svc as { status?: unknown }).status;
  if (status === undefined || status === null) return undefined;
  if (!isObject(status)) throw bad('status', status, 'an object');
  const lb = (status as { loadBalancer?: unknown }).loadBalancer;
  if (lb === undefined || lb === null) return undefined;
  if (!isObject(lb)) throw bad('status.loadBalancer', lb, 'an object');
  const ingress = (lb as { ingress?: unknown }).ingress;
  if (ingress === undefined || ingress === null) return undefined;
  if (!Array.isArray(ingress)) throw bad('status.loadBalancer.ingress', ingress, 'a list');
  if (!ingress.length) return undefined;
  const first: unknown = ingress[0];
  if (!isObject(first)) throw bad('status.loadBalancer.ingress[0]', first, 'an object');
  const { ip, hostname } = first as { ip?: unknown; hostname?: unknown };
  if (ip !== undefined && ip !== null && ip !== '') {
    if (typeof ip !== 'string' || !net.isIP(ip)) throw bad('status.loadBalancer.ingress[0].ip', ip, 'an IP address');
    return ip;
  }
  if (hostname !== undefined && hostname !== null && hostname !== '') {
    if (typeof hostname !== 'string' || hostname.length > 253 || !/^[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?$/.test(hostname)) {
      throw bad('status.loadBalancer.ingress[0].hostname', hostname, 'a DNS name');
    }
    return hostname;
  }
  return undefined;
}

/** A value as shown in an error: its JSON (control characters escaped), cut short, with its type. */
function describe(v: unknown): string {
  const type = v === null ? 'null' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
  if (v === null) return 'null';
  const json = JSON.stringify(v) ?? String(v);
  return `${json.length > 80 ? `${json.slice(0, 77)}...` : json} (${type})`;
}
