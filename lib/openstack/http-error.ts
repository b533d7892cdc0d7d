import { OperationError } from '../errors.js';
import { redact } from '../redact.js';

/** What went wrong on one HTTP call to OpenStack, with what a user needs to fix it. */
export class HttpError extends OperationError {
  /** HTTP status; undefined when no answer came (refused, timeout, TLS, DNS). */
  readonly status?: number;
  readonly method: string;
  readonly url: string;
  /** x-openstack-request-id (or x-compute-request-id) of the failed call, for the operator. */
  readonly requestId?: string;
  /** Network error code such as ECONNREFUSED, when there was no HTTP answer. */
  readonly code?: string;
  /** Human name of the service called ("Keystone", "Octavia", …). */
  readonly service: string;

  constructor(init: {
    service: string; method: string; url: string; status?: number; requestId?: string; code?: string;
    detail?: string; hint?: string; cause?: unknown;
  }) {
    const what = init.status !== undefined ? `HTTP ${init.status}` : init.code ?? 'no answer';
    const rid = init.requestId ? ` (request id ${init.requestId})` : '';
    const detail = init.detail ? `: ${init.detail}` : '';
    super(redact(`${init.service}: ${init.method} ${init.url} failed with ${what}${rid}${detail}`), {
      hint: init.hint === undefined ? undefined : redact(init.hint),
      cause: init.cause,
    });
    this.status = init.status;
    this.method = init.method;
    this.url = init.url;
    this.requestId = init.requestId;
    this.code = init.code;
    this.service = init.service;
  }
}

/**
 * The one-line fix for a failed call: 401 → credentials, 403 → role, refused/timeout → which
 * endpoint. `cloud` names the clouds.yaml entry so the user knows where to look.
 */
export function hintFor(e: {
  service: string; url: string; status?: number; code?: string; cloud?: string;
  /** Where the cloud is defined (CloudConfig.source: the clouds.yaml path, or "environment"). */
  cloudFile?: string;
  timeoutMs?: number; budgetMs?: number; maxBodyBytes?: number; cacert?: boolean; wwwAuthenticate?: string;
  /** A 3xx answer's Location header. */
  location?: string;
  /** A 429's Retry-After as a time (ms since the epoch); `waited`: kaas already waited once. */
  retryAt?: number; waited?: boolean;
  /** The request was sent again after a reset/cut-off before giving up. */
  retried?: boolean;
  /** How many times the request was sent (a timed-out idempotent request is sent again with more time). */
  attempts?: number;
}): string | undefined {
  const where = !e.cloudFile ? '' : e.cloudFile === 'environment' ? ' (from the OS_* variables)' : ` (in ${e.cloudFile})`;
  const cloud = e.cloud ? ` of cloud "${e.cloud}"${where}` : '';
  let origin = e.url;
  try {
    origin = new URL(e.url).origin;
  } catch {
    // keep the raw URL
  }
  // Octavia, Neutron, … behind keystonemiddleware answer 401 and name their Keystone; Keystone names itself.
  const keystone = e.wwwAuthenticate?.match(/Keystone uri="([^"]+)"/)?.[1];
  if (e.service === 'Keystone' && e.status === 401 && keystone && sameOrigin(keystone, origin) === false) {
    return `auth_url${cloud} points at ${origin}, which is not Keystone but a service that sends its clients to Keystone at ${keystone}: set auth_url to ${keystone}`;
  }
  if (e.status === 401) return `check the credentials${cloud} (password or application credential id/secret; expired or deleted?)`;
  // A web server that is not Keystone answers the token request with 404/405 (or HTML).
  if (e.service === 'Keystone' && (e.status === 404 || e.status === 405)) {
    return `${origin} does not answer like Keystone v3: auth_url${cloud} must be the Identity endpoint (usually https://<host>:5000/v3 or https://<host>/identity/v3), not another service`;
  }
  if (e.status === 403) {
    if (e.service === 'Keystone') return `Keystone refuses a token: the user has no role on the project${cloud} (or the application credential is restricted); ask the cloud operator`;
    return e.service === 'Octavia'
      ? 'the user lacks a role for this call: Octavia\'s default policy needs "load-balancer_member" (or "member")'
      : `the user lacks a role for this ${e.service} call (ask the cloud operator)`;
  }
  if (e.status === 404) return `${e.service} does not know this URL: is the catalog endpoint ${origin} right?`;
  if (e.status !== undefined && e.status >= 300 && e.status < 400) return redirectHint(e.service, origin, e.location, e.cloud);
  if (e.status === 409) return `${e.service} refuses the call because of the resource's current state (409 Conflict: it exists already, is in use, or is PENDING_* / immutable now); look at the resource, wait until it is ACTIVE and retry`;
  if (e.status === 413) return `${e.service} refuses the request as too large or over a limit (413): a quota or a per-request limit; lower what is asked (fewer items per call) or ask the operator for more quota`;
  if (e.status === 429) {
    const when = e.retryAt === undefined ? undefined : new Date(Math.ceil(e.retryAt / 1000) * 1000).toISOString().replace('.000Z', 'Z');
    if (when === undefined) return `${e.service} at ${origin} limits the request rate (429) and said no time to retry: retry in a minute, or ask the operator about its rate limits`;
    return e.waited
      ? `${e.service} at ${origin} limits the request rate (429) and still did after kaas waited once as asked: retry after ${when}`
      : `${e.service} at ${origin} limits the request rate (429) and asks to wait until ${when}, past the run's time budget: retry after ${when}`;
  }
  if (e.status !== undefined && e.status >= 500) return `${e.service} failed on its side; retry later or give the operator the request id`;
  switch (e.code) {
    case 'ECONNREFUSED':
      return e.service === 'Keystone'
        ? `nothing listens at ${origin}: is Keystone running, and is auth_url${cloud} right?`
        : `nothing listens at ${origin}: is ${e.service} running, and is its catalog endpoint right?`;
    case 'ETIMEDOUT':
    case 'ECONNABORTED':
      return `${e.service} at ${origin} did not answer within ${seconds(e.timeoutMs)}${(e.attempts ?? 1) > 1 ? ` (sent ${e.attempts} times, each with twice the time of the one before)` : ''}: check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`;
    case 'EBUDGET':
      return `${e.service} at ${origin} answers too slowly for the run to finish (all requests together took over ${seconds(e.budgetMs)}); retry later or ask the cloud operator`;
    case 'ETOOBIG':
      return `${e.service} at ${origin} sent an answer larger than ${Math.round((e.maxBodyBytes ?? 0) / 1048576)} MiB, far more than any listing kaas reads: is the endpoint right (not a file server or proxy)?`;
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return `the host of ${origin} cannot be resolved: check auth_url${cloud} / the catalog and DNS`;
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
    case 'ENETDOWN':
    case 'EHOSTDOWN':
      return `no route to ${origin} from this machine (${e.code}): check the address in ${e.service === 'Keystone' ? `auth_url${cloud}` : `${e.service}'s catalog endpoint`} and network access (VPN, firewall, proxy)`;
    case 'ECONNRESET':
      return `${e.service} at ${origin} dropped the connection repeatedly; retry later`;
    case 'ETRUNCATED':
      return `${e.service} at ${origin} closed the connection in the middle of its answer${e.retried ? ', on every attempt' : ''}: a proxy or load balancer in between may cut long or slow answers; retry later, or ask the operator`;
    case 'DEPTH_ZERO_SELF_SIGNED_CERT':
    case 'SELF_SIGNED_CERT_IN_CHAIN':
    case 'UNABLE_TO_VERIFY_LEAF_SIGNATURE':
    case 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY':
      return e.cacert
        ? `the TLS certificate of ${origin} is not signed by the CA in cacert${cloud}: point cacert at the CA bundle that issued it (openssl s_client -connect <host>:<port> -showcerts shows the chain)`
        : `the TLS certificate of ${origin} is not trusted: set cacert${cloud} to the CA bundle (or verify: false, insecure)`;
    // A certificate for another name, or an expired one, is not fixed by any CA bundle.
    case 'ERR_TLS_CERT_ALTNAME_INVALID':
      return `the TLS certificate of ${origin} is for another host name: use the name the certificate was issued for in auth_url${cloud} / the catalog (a CA bundle does not fix a name mismatch)`;
    case 'CERT_HAS_EXPIRED':
    case 'CERT_NOT_YET_VALID':
      return `the TLS certificate of ${origin} is outside its validity period: ask the cloud operator to renew it (or check this machine's clock)`;
    case 'EPROTO':
    case 'ERR_SSL_WRONG_VERSION_NUMBER':
    case 'ERR_SSL_PACKET_LENGTH_TOO_LONG':
      return `${origin} does not speak TLS on this port: check http:// vs https:// in auth_url${cloud} / the catalog`;
    default:
      // Every failed call gets a hint: a code kaas has no words for still says where to look.
      return e.code
        ? `${e.service} at ${origin} could not be reached (${e.code}): check ${e.service === 'Keystone' ? `auth_url${cloud}` : `${e.service}'s catalog endpoint`} and network access (VPN, firewall, proxy)`
        : undefined;
  }
}

/**
 * kaas never follows a redirect: the request carries a token or the credentials (Keystone), and a
 * redirect to another host would hand them over. Say where it points and what to set instead.
 */
function redirectHint(service: string, origin: string, location: string | undefined, cloud?: string): string {
  const setting = service === 'Keystone' ? `auth_url${cloud ? ` of cloud "${cloud}"` : ''}` : `${service}'s catalog endpoint`;
  if (!location) return `${service} at ${origin} answers with a redirect without a Location: ${setting} is probably not the API's own URL`;
  let target: URL | undefined;
  try {
    target = new URL(location, origin);
  } catch {
    return `${service} at ${origin} redirects to an unreadable Location "${location}": ${setting} is probably not the API's own URL`;
  }
  // http -> https on the same host is the same server asking for TLS; another host name is not.
  const elsewhere = target.hostname !== new URL(origin).hostname;
  return elsewhere
    ? `${service} at ${origin} redirects to another host, ${target.origin}; kaas does not follow (it would send your ${service === 'Keystone' ? 'credentials' : 'token'} there): if that host is the cloud's, set ${setting} to ${target.href}`
    : `${service} at ${origin} redirects to ${target.href}; kaas does not follow redirects: set ${setting} to that URL`;
}

/** A duration for a hint: "2 s"; under a second in ms ("300 ms", where rounding would say "0 s"). */
function seconds(ms = 0): string {
  return ms > 0 && ms < 1000 ? `${ms} ms` : `${Math.round(ms / 1000)} s`;
}

/** Whether two URLs share an origin; undefined when one does not parse. */
function sameOrigin(a: string, origin: string): boolean | undefined {
  return URL.canParse(a) ? new URL(a).origin === origin : undefined;
}

/** Pulls the human message out of the error bodies of Keystone, Octavia, Neutron and Nova. */
export function openstackErrorMessage(body: unknown): string | undefined {
  if (typeof body === 'string') return body.trim().slice(0, 300) || undefined;
  // Numbers and booleans have no fields, like an empty object.
  const b = (body ?? {}) as Record<string, unknown>;
  if (typeof b.faultstring === 'string') return b.faultstring; // Octavia (wsme)
  if (typeof b.message === 'string') return b.message;
  for (const v of Object.values(b)) {
    // Keystone {"error": {...}}, Neutron {"NeutronError": {...}}, Nova {"itemNotFound": {...}}
    const message = (v as { message?: unknown } | null)?.message;
    if (typeof message === 'string') return message;
  }
  return undefined;
}

/**
 * The blocking problem a dry run shows first when the cloud could not be asked: "cloud <name> not
 * reachable: Keystone: POST <url> failed with ECONNREFUSED" ("not usable" when it answered with an
 * HTTP error), with the error's own hint. The problems
 * that follow (use_ovn_lb_provider: auto, …) depend on it. The message is redacted by HttpError.
 */
export function cloudNotReachable(cloud: string, err: unknown): { message: string; hint: string } {
  const e = err as { message?: string; hint?: string };
  const first = redact(String(e.message ?? err).split('\n')[0]);
  // An HTTP answer (401, 503, …) means the cloud was reached and refused or failed.
  const what = err instanceof HttpError && err.status !== undefined ? 'not usable' : 'not reachable';
  return {
    message: `cloud ${cloud} ${what}: ${first}`,
    hint: e.hint ? redact(e.hint) : `run kaas detect --cloud ${cloud} --verbose to see each request`,
  };
}
