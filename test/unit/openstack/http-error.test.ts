import { HttpError, hintFor, openstackErrorMessage } from '../../../lib/openstack/http-error.js';
import { clearSecrets, registerSecret } from '../../../lib/redact.js';

afterEach(() => clearSecrets());

const URL_ = 'https://octavia.example:9876/v2/lbaas/loadbalancers?name=x';
const ORIGIN = 'https://octavia.example:9876';

describe('hintFor: the one-line fix for a failed OpenStack call', () => {
  type In = Parameters<typeof hintFor>[0];
  it.each<[string, In, string | undefined]>([
    ['401 from Keystone that names another Keystone', { service: 'Keystone', url: 'https://lb.example:9876/v3/auth/tokens', status: 401, cloud: 'c1', wwwAuthenticate: 'Keystone uri="https://keystone.example:5000/v3"' },
      'auth_url of cloud "c1" points at https://lb.example:9876, which is not Keystone but a service that sends its clients to Keystone at https://keystone.example:5000/v3: set auth_url to https://keystone.example:5000/v3'],
    ['401 from Keystone naming itself: credentials', { service: 'Keystone', url: 'https://keystone.example:5000/v3/auth/tokens', status: 401, cloud: 'c1', wwwAuthenticate: 'Keystone uri="https://keystone.example:5000/v3"' },
      'check the credentials of cloud "c1" (password or application credential id/secret; expired or deleted?)'],
    ['401 from Keystone naming an unparsable uri: credentials', { service: 'Keystone', url: 'https://keystone.example:5000/v3', status: 401, wwwAuthenticate: 'Keystone uri="not a url"' },
      'check the credentials (password or application credential id/secret; expired or deleted?)'],
    ['401 from Octavia with a Keystone uri: credentials', { service: 'Octavia', url: URL_, status: 401, wwwAuthenticate: 'Keystone uri="https://keystone.example:5000/v3"' },
      'check the credentials (password or application credential id/secret; expired or deleted?)'],
    ['404 from Keystone: not Keystone', { service: 'Keystone', url: 'https://web.example/v3/auth/tokens', status: 404, cloud: 'c1' },
      'https://web.example does not answer like Keystone v3: auth_url of cloud "c1" must be the Identity endpoint (usually https://<host>:5000/v3 or https://<host>/identity/v3), not another service'],
    ['405 from Keystone: not Keystone', { service: 'Keystone', url: 'https://web.example/v3/auth/tokens', status: 405 },
      'https://web.example does not answer like Keystone v3: auth_url must be the Identity endpoint (usually https://<host>:5000/v3 or https://<host>/identity/v3), not another service'],
    ['403 from Keystone: no role on the project', { service: 'Keystone', url: 'https://k/v3', status: 403, cloud: 'c1' },
      'Keystone refuses a token: the user has no role on the project of cloud "c1" (or the application credential is restricted); ask the cloud operator'],
    ['403 from Octavia: the load-balancer role', { service: 'Octavia', url: URL_, status: 403 },
      'the user lacks a role for this call: Octavia\'s default policy needs "load-balancer_member" (or "member")'],
    ['403 from Neutron', { service: 'Neutron', url: URL_, status: 403 }, 'the user lacks a role for this Neutron call (ask the cloud operator)'],
    ['404 from a service: the catalog endpoint', { service: 'Octavia', url: URL_, status: 404 }, `Octavia does not know this URL: is the catalog endpoint ${ORIGIN} right?`],
    ['404 with an unparsable URL keeps the raw URL', { service: 'Glance', url: 'not-a-url', status: 404 }, 'Glance does not know this URL: is the catalog endpoint not-a-url right?'],
    ['500', { service: 'Nova', url: URL_, status: 500 }, 'Nova failed on its side; retry later or give the operator the request id'],
    ['503', { service: 'Nova', url: URL_, status: 503 }, 'Nova failed on its side; retry later or give the operator the request id'],
    ['422: no hint', { service: 'Nova', url: URL_, status: 422 }, undefined],
    ['499: no hint', { service: 'Nova', url: URL_, status: 499 }, undefined],
    ['refused at Keystone', { service: 'Keystone', url: 'https://k.example:5000/v3', code: 'ECONNREFUSED', cloud: 'c1' }, 'nothing listens at https://k.example:5000: is Keystone running, and is auth_url of cloud "c1" right?'],
    ['refused at a service', { service: 'Octavia', url: URL_, code: 'ECONNREFUSED' }, `nothing listens at ${ORIGIN}: is Octavia running, and is its catalog endpoint right?`],
    ['timeout', { service: 'Octavia', url: URL_, code: 'ETIMEDOUT', timeoutMs: 30_000 }, `Octavia at ${ORIGIN} did not answer within 30 s: check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`],
    ['aborted, rounded seconds', { service: 'Octavia', url: URL_, code: 'ECONNABORTED', timeoutMs: 2_600 }, `Octavia at ${ORIGIN} did not answer within 3 s: check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`],
    ['timeout without a known limit', { service: 'Octavia', url: URL_, code: 'ETIMEDOUT' }, `Octavia at ${ORIGIN} did not answer within 0 s: check network access (proxy, firewall, VPN); if the cloud is only slow, raise the deadline (kaas detect --timeout 2m)`],
    ['DNS', { service: 'Keystone', url: 'https://nohost.example/v3', code: 'ENOTFOUND' }, 'the host of https://nohost.example cannot be resolved: check auth_url / the catalog and DNS'],
    ['DNS, try again', { service: 'Keystone', url: 'https://nohost.example/v3', code: 'EAI_AGAIN' }, 'the host of https://nohost.example cannot be resolved: check auth_url / the catalog and DNS'],
    ['reset', { service: 'Neutron', url: URL_, code: 'ECONNRESET' }, `Neutron at ${ORIGIN} dropped the connection repeatedly; retry later`],
    ...(['DEPTH_ZERO_SELF_SIGNED_CERT', 'SELF_SIGNED_CERT_IN_CHAIN', 'UNABLE_TO_VERIFY_LEAF_SIGNATURE', 'UNABLE_TO_GET_ISSUER_CERT_LOCALLY'].flatMap((code) => [
      [`${code} without cacert`, { service: 'Keystone', url: URL_, code, cloud: 'c1' }, `the TLS certificate of ${ORIGIN} is not trusted: set cacert of cloud "c1" to the CA bundle (or verify: false, insecure)`],
      [`${code} with cacert`, { service: 'Keystone', url: URL_, code, cacert: true }, `the TLS certificate of ${ORIGIN} is not signed by the CA in cacert: point cacert at the CA bundle that issued it (openssl s_client -connect <host>:<port> -showcerts shows the chain)`],
    ] as [string, In, string][])),
    ['name mismatch', { service: 'Keystone', url: URL_, code: 'ERR_TLS_CERT_ALTNAME_INVALID', cloud: 'c1' },
      `the TLS certificate of ${ORIGIN} is for another host name: use the name the certificate was issued for in auth_url of cloud "c1" / the catalog (a CA bundle does not fix a name mismatch)`],
    ['expired', { service: 'Keystone', url: URL_, code: 'CERT_HAS_EXPIRED' }, `the TLS certificate of ${ORIGIN} is outside its validity period: ask the cloud operator to renew it (or check this machine's clock)`],
    ['not yet valid', { service: 'Keystone', url: URL_, code: 'CERT_NOT_YET_VALID' }, `the TLS certificate of ${ORIGIN} is outside its validity period: ask the cloud operator to renew it (or check this machine's clock)`],
    ...(['EPROTO', 'ERR_SSL_WRONG_VERSION_NUMBER', 'ERR_SSL_PACKET_LENGTH_TOO_LONG'].map((code) => [
      code, { service: 'Keystone', url: URL_, code, cloud: 'c1' }, `${ORIGIN} does not speak TLS on this port: check http:// vs https:// in auth_url of cloud "c1" / the catalog`,
    ] as [string, In, string])),
    // m7 (newcomer review): every network error gets a hint, naming the clouds.yaml the cloud came from.
    ['no route to Keystone (EHOSTUNREACH), with the clouds.yaml path', { service: 'Keystone', url: 'https://192.0.2.10:5000/v3', code: 'EHOSTUNREACH', cloud: 'c1', cloudFile: '/h/.config/openstack/clouds.yaml' },
      'no route to https://192.0.2.10:5000 from this machine (EHOSTUNREACH): check the address in auth_url of cloud "c1" (in /h/.config/openstack/clouds.yaml) and network access (VPN, firewall, proxy)'],
    ['no network to a service (ENETUNREACH)', { service: 'Octavia', url: URL_, code: 'ENETUNREACH' },
      `no route to ${ORIGIN} from this machine (ENETUNREACH): check the address in Octavia's catalog endpoint and network access (VPN, firewall, proxy)`],
    ['refused at Keystone, with the clouds.yaml path', { service: 'Keystone', url: 'https://k.example:5000/v3', code: 'ECONNREFUSED', cloud: 'c1', cloudFile: '/w/clouds.yaml' },
      'nothing listens at https://k.example:5000: is Keystone running, and is auth_url of cloud "c1" (in /w/clouds.yaml) right?'],
    ['a cloud from the OS_* variables', { service: 'Keystone', url: 'https://k.example:5000/v3', status: 401, cloud: 'envvars', cloudFile: 'environment' },
      'check the credentials of cloud "envvars" (from the OS_* variables) (password or application credential id/secret; expired or deleted?)'],
    ['an unknown network code still says where to look', { service: 'Keystone', url: URL_, code: 'EWEIRD', cloud: 'c1', cloudFile: '/w/clouds.yaml' },
      `Keystone at ${ORIGIN} could not be reached (EWEIRD): check auth_url of cloud "c1" (in /w/clouds.yaml) and network access (VPN, firewall, proxy)`],
    ['neither status nor code: no hint', { service: 'Keystone', url: URL_ }, undefined],
  ])('%s', (_n, input, hint) => {
    expect(hintFor(input)).toBe(hint);
  });
});

describe('openstackErrorMessage: the human message of each service\'s error body', () => {
  it.each<[string, unknown, string | undefined]>([
    ['Octavia (wsme faultstring)', { faultstring: 'Load Balancer x not found.', debuginfo: null }, 'Load Balancer x not found.'],
    ['a top-level message', { message: 'plain' }, 'plain'],
    ['Keystone', { error: { code: 401, message: 'The request you have made requires authentication.', title: 'Unauthorized' } }, 'The request you have made requires authentication.'],
    ['Neutron', { NeutronError: { type: 'NetworkNotFound', message: 'Network x could not be found.', detail: '' } }, 'Network x could not be found.'],
    ['Nova, after a member without a message', { request_id: 'r', itemNotFound: { code: 404, message: 'Flavor x could not be found.' } }, 'Flavor x could not be found.'],
    ['a nested object whose message is no string', { error: { message: 42 } }, undefined],
    ['a null member, then one with a message', { error: null, NeutronError: { message: 'second' } }, 'second'],
    ['true', true, undefined],
    ['a text body, trimmed', '  <html>Bad Gateway</html>\n', '<html>Bad Gateway</html>'],
    ['a long text body, cut at 300 characters', 'x'.repeat(400), 'x'.repeat(300)],
    ['an empty text body', '   ', undefined],
    ['null', null, undefined],
    ['a number', 5, undefined],
    ['an empty object', {}, undefined],
    ['faultstring that is no string falls through to message', { faultstring: 1, message: 'm' }, 'm'],
  ])('%s', (_n, body, message) => {
    expect(openstackErrorMessage(body)).toBe(message);
  });
});

describe('HttpError: what failed, where, and the fix', () => {
  it('with status, request id and detail', () => {
    const e = new HttpError({ service: 'Octavia', method: 'GET', url: URL_, status: 404, requestId: 'req-1', detail: 'gone', hint: 'fix it' });
    expect(e.message).toBe(`Octavia: GET ${URL_} failed with HTTP 404 (request id req-1): gone`);
    expect(e).toMatchObject({ status: 404, method: 'GET', url: URL_, requestId: 'req-1', code: undefined, service: 'Octavia', hint: 'fix it', exitCode: 1 });
  });

  it('without an answer: the network code, no request id, no detail', () => {
    const e = new HttpError({ service: 'Keystone', method: 'POST', url: 'https://k/v3', code: 'ECONNREFUSED' });
    expect(e.message).toBe('Keystone: POST https://k/v3 failed with ECONNREFUSED');
    expect(e.code).toBe('ECONNREFUSED');
    expect(e.hint).toBeUndefined();
  });

  it('neither status nor code: "no answer"', () => {
    expect(new HttpError({ service: 'Nova', method: 'GET', url: 'https://n' }).message).toBe('Nova: GET https://n failed with no answer');
  });

  it('secrets in the detail and the hint are redacted', () => {
    registerSecret('s3cr3t-value-x');
    const e = new HttpError({ service: 'Keystone', method: 'POST', url: 'https://k/v3', status: 400, detail: 'bad s3cr3t-value-x', hint: 'not s3cr3t-value-x' });
    expect(e.message).not.toContain('s3cr3t-value-x');
    expect(e.hint).not.toContain('s3cr3t-value-x');
    expect(e.message).toMatch(/^Keystone: POST https:\/\/k\/v3 failed with HTTP 400: bad /);
  });

  it('keeps the cause', () => {
    const cause = new Error('socket');
    expect(new HttpError({ service: 'Nova', method: 'GET', url: 'https://n', cause }).cause).toBe(cause);
  });
});
