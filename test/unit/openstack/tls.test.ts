import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { createHttpClient } from '../../../lib/openstack/http.js';
import { HttpError } from '../../../lib/openstack/http-error.js';
import { memoryLogger } from '../../../lib/log.js';
import { tempDir } from '../../support/temp.js';

/** A throw-away self-signed certificate for 127.0.0.1 (openssl is part of the image and of CI). */
function selfSigned(): { key: string; cert: string } {
  const dir = tempDir('kaas-tls-');
  execFileSync('openssl', [
    'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-days', '1', '-subj', '/CN=127.0.0.1',
    '-addext', 'subjectAltName=IP:127.0.0.1', '-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'),
  ], { stdio: 'ignore' });
  return { key: fs.readFileSync(path.join(dir, 'key.pem'), 'utf8'), cert: fs.readFileSync(path.join(dir, 'cert.pem'), 'utf8') };
}

describe('TLS: cacert and verify', () => {
  const pair = selfSigned();
  let server: https.Server;
  let url = '';
  beforeAll(async () => {
    server = https.createServer(pair, (_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end('{"ok":true}'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  });
  afterAll(() => { server.closeAllConnections(); return new Promise<void>((r) => server.close(() => r())); });

  it('an untrusted certificate fails with a hint to set cacert', async () => {
    const err = (await createHttpClient({ logger: memoryLogger(), cloud: 'c' }).send({ method: 'GET', url, service: 'Keystone' }).catch((e) => e)) as HttpError;
    expect(err).toBeInstanceOf(HttpError);
    expect(err.hint).toMatch(/not trusted: set cacert of cloud "c"/);
  });

  it('cacert (the CA bundle) makes it trusted', async () => {
    const res = await createHttpClient({ logger: memoryLogger(), ca: pair.cert }).send({ method: 'GET', url, service: 'Keystone' });
    expect(res.data).toEqual({ ok: true });
  });

  it('verify: false works, with a warning', async () => {
    const logger = memoryLogger(false);
    const res = await createHttpClient({ logger, verify: false }).send({ method: 'GET', url, service: 'Keystone' });
    expect(res.status).toBe(200);
    expect(logger.lines).toEqual(['warning: TLS certificates are not verified (verify: false / insecure) — use cacert instead where possible']);
  });
});
