import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createLogger } from '../../../lib/log.js';
import { createHttpClient } from '../../../lib/openstack/http.js';
import type { HttpError } from '../../../lib/openstack/http-error.js';
import { tempDir } from '../../support/cli.js';

/** A CA (openssl, here and now) and a server certificate it signed for "localhost" only. */
function makePki(dir: string) {
  const ssl = (...args: string[]) => execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
  for (const ca of ['ca', 'other-ca']) ssl('req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-keyout', `${ca}.key`, '-out', `${ca}.pem`, '-days', '2', '-subj', `/CN=kaas test ${ca}`);
  ssl('req', '-newkey', 'rsa:2048', '-nodes', '-keyout', 'server.key', '-out', 'server.csr', '-subj', '/CN=localhost');
  fs.writeFileSync(path.join(dir, 'san.ext'), 'subjectAltName=DNS:localhost\n');
  ssl('x509', '-req', '-in', 'server.csr', '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', 'server.pem', '-days', '2', '-extfile', 'san.ext');
  const read = (f: string) => fs.readFileSync(path.join(dir, f), 'utf8');
  return { ca: read('ca.pem'), otherCa: read('other-ca.pem'), key: read('server.key'), cert: read('server.pem') };
}

const listen = (s: http.Server) => new Promise<number>((r) => s.listen(0, '127.0.0.1', () => r((s.address() as AddressInfo).port)));

async function failure(url: string, ca?: string): Promise<HttpError> {
  const client = createHttpClient({ logger: createLogger({ quiet: true, write: () => undefined }), cloud: 'c', ca, retries: 0, timeoutMs: 5000 });
  try {
    await client.send({ method: 'GET', url, service: 'Keystone' });
  } catch (e) {
    return e as HttpError;
  }
  throw new Error('the request succeeded');
}

describe('TLS faults are told apart: wrong CA, wrong host name, plain HTTP', () => {
  let pki: ReturnType<typeof makePki>;
  let tlsPort = 0;
  let plainPort = 0;
  const servers: http.Server[] = [];
  beforeAll(async () => {
    pki = makePki(tempDir('kaas-pki-'));
    const tls = https.createServer({ key: pki.key, cert: pki.cert }, (_q, r) => r.end('{}'));
    const plain = http.createServer((_q, r) => r.end('{}'));
    servers.push(tls, plain);
    tlsPort = await listen(tls);
    plainPort = await listen(plain);
  });
  // closeAllConnections: a kept-alive client socket would hold a closing server (and jest's worker) open.
  afterAll(() => Promise.all(servers.map((s) => { s.closeAllConnections(); return new Promise<void>((r) => s.close(() => r())); })));

  it('the right CA and name: works (the fixture is sound)', async () => {
    const client = createHttpClient({ logger: createLogger({ quiet: true, write: () => undefined }), ca: pki.ca, retries: 0 });
    expect((await client.send({ method: 'GET', url: `https://localhost:${tlsPort}/v3`, service: 'Keystone' })).status).toBe(200);
  });

  it('no cacert: "not trusted: set cacert"', async () => {
    const e = await failure(`https://localhost:${tlsPort}/v3`);
    expect(e.hint).toContain('is not trusted: set cacert of cloud "c" to the CA bundle');
  });

  it('a cacert of another CA: "not signed by the CA in cacert"', async () => {
    const e = await failure(`https://localhost:${tlsPort}/v3`, pki.otherCa);
    expect(e.hint).toContain('is not signed by the CA in cacert of cloud "c"');
  });

  it('the right CA but another host name (127.0.0.1): a name mismatch, which no CA bundle fixes', async () => {
    const e = await failure(`https://127.0.0.1:${tlsPort}/v3`, pki.ca);
    expect(e.code).toBe('ERR_TLS_CERT_ALTNAME_INVALID');
    expect(e.hint).toContain('is for another host name');
  });

  it('https:// to a plain HTTP port: "does not speak TLS"', async () => {
    const e = await failure(`https://127.0.0.1:${plainPort}/v3`);
    expect(e.hint).toContain('does not speak TLS on this port: check http:// vs https://');
  });
});
