import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { connect } from '../../../lib/openstack/connection.js';
import { detectCapabilities } from '../../../lib/openstack/detect.js';
import { buildAuthBody, tokenUrl } from '../../../lib/openstack/keystone.js';
import { memoryLogger } from '../../../lib/log.js';
import { clearSecrets } from '../../../lib/redact.js';
import { fixture, tokenCall } from '../../support/openstack-fixtures.js';
import { scriptedServer } from '../../support/scripted-http.js';

const TOKEN = 'gAAAAABscripted-token-1234';
const cloud = (authUrl: string, auth: Partial<CloudConfig['auth']> = {}): CloudConfig => ({
  name: 'scripted', source: 'test', interface: 'public', regionName: 'RegionOne', verify: true,
  auth: { kind: 'password', authUrl, username: 'demo', password: 'demo-pw-123', projectName: 'demo', ...auth },
});
const NOW = () => new Date('2026-01-02T03:04:05.000Z');

afterEach(() => clearSecrets());

describe('Keystone request bodies match the api-ref samples', () => {
  it('password by user id, project by name + domain id', () => {
    expect(buildAuthBody({ kind: 'password', authUrl: 'x', userId: 'ee4dfb6e5540447cb3741905149d9b6e', password: 'devstacker', projectName: 'admin', projectDomainId: 'default' }))
      .toEqual(fixture('keystone/project-name-password.json'));
  });
  it('application credential by id (no scope)', () => {
    expect(buildAuthBody({ kind: 'application_credential', authUrl: 'x', applicationCredentialId: '423f19a4ac1e4f48bbb4180756e6eb6c', applicationCredentialSecret: 'rEaqvJka48mpv' }))
      .toEqual(fixture('keystone/auth-application-credential-id-request.json'));
  });
  it('application credential by name + user id', () => {
    expect(buildAuthBody({ kind: 'application_credential', authUrl: 'x', applicationCredentialName: 'monitoring', userId: '423f19a4ac1e4f48bbb4180756e6eb6c', applicationCredentialSecret: 'rEaqvJka48mpv' }))
      .toEqual(fixture('keystone/auth-application-credential-name-request.json'));
  });
  it.each([
    ['https://k.example:5000/v3', 'https://k.example:5000/v3/auth/tokens'],
    ['https://k.example:5000/v3/', 'https://k.example:5000/v3/auth/tokens'],
    ['https://k.example:5000', 'https://k.example:5000/v3/auth/tokens'],
    ['https://k.example/identity/v2.0', 'https://k.example/identity/v3/auth/tokens'],
  ])('auth_url %s → %s', (url, want) => expect(tokenUrl(url)).toBe(want));
});

describe('detectCapabilities against a scripted cloud', () => {
  it('one token, then exactly 3 concurrent calls; catalog URLs with version suffixes', async () => {
    const srv = await scriptedServer([
      tokenCall(TOKEN, { 'load-balancer': '/load-balancer/v2', network: '/network/v2.0/', compute: '/compute/v2.1' }, {
        auth: { identity: { methods: ['password'], password: { user: { name: 'demo', domain: { id: 'default' }, password: 'demo-pw-123' } } },
          scope: { project: { name: 'demo', domain: { id: 'default' } } } },
      }),
      { anyOrder: [
        { method: 'GET', path: '/load-balancer/', headers: { 'x-auth-token': TOKEN }, response: fixture('octavia/versions-wallaby-v2.24.json') },
        { method: 'GET', path: '/load-balancer/v2/lbaas/providers', headers: { 'x-auth-token': TOKEN }, response: fixture('octavia/providers-amphora-ovn.json') },
        { method: 'GET', path: '/network/v2.0/networks?router%3Aexternal=true', headers: { 'x-auth-token': TOKEN }, response: { networks: [{ id: 'n1', name: 'public', 'router:external': true }] } },
      ] },
    ]);
    const logger = memoryLogger();
    const conn = await connect(cloud(`${srv.url}/v3`), { logger });
    const caps = await detectCapabilities(conn, NOW);
    await srv.finish();
    expect(conn.http.stats.requests).toBe(4);
    expect(caps).toEqual({
      cloud: 'scripted', region: 'RegionOne', detectedAt: '2026-01-02T03:04:05.000Z',
      octavia: { present: true, endpoint: `${srv.url}/load-balancer`, maxVersion: '2.24', providers: ['amphora', 'octavia', 'ovn'], defaultProvider: 'amphora', wallabyOrLater: true, allowedCidrs: true },
      neutron: { present: true, endpoint: `${srv.url}/network`, externalNetworks: [{ id: 'n1', name: 'public' }] },
      nova: { present: true, endpoint: `${srv.url}/compute/v2.1` },
    });
    expect(logger.lines.join('\n')).not.toContain(TOKEN);
  });

  it('Victoria (v2.23) is not Wallaby; v2.30 sorts above v2.4', async () => {
    for (const [file, max, wallaby] of [['octavia/versions-victoria-v2.23.json', '2.23', false], ['octavia/versions-2025.1-v2.30.json', '2.30', true]] as const) {
      const versions = fixture(file);
      versions.versions.reverse(); // order must not matter
      const srv = await scriptedServer([
        tokenCall(TOKEN, { 'load-balancer': '' }),
        { anyOrder: [
          { method: 'GET', path: '/', response: versions },
          { method: 'GET', path: '/v2/lbaas/providers', response: fixture('octavia/provider-list-response.json') },
        ] },
      ]);
      const caps = await detectCapabilities(await connect(cloud(`${srv.url}/v3`), { logger: memoryLogger() }), NOW);
      await srv.finish();
      expect(caps.octavia).toMatchObject({ maxVersion: max, wallabyOrLater: wallaby, providers: ['amphora', 'octavia'] });
    }
  });

  it('services missing from the catalog are answers with reasons, costing no request', async () => {
    const srv = await scriptedServer([tokenCall(TOKEN, { identity: '/v3' })]);
    const caps = await detectCapabilities(await connect(cloud(`${srv.url}/v3`), { logger: memoryLogger() }), NOW);
    await srv.finish();
    expect(caps.octavia).toEqual({ present: false, reason: 'the catalog has no "load-balancer" service', providers: [], wallabyOrLater: false, allowedCidrs: false });
    expect(caps.neutron).toEqual({ present: false, reason: 'the catalog has no "network" service' });
    expect(caps.nova.present).toBe(false);
  });

  it('a wrong application-credential secret fails with 401 and a hint, secret not in the message', async () => {
    const srv = await scriptedServer([{ method: 'POST', path: '/v3/auth/tokens', status: 401, response: { error: { code: 401, message: 'The request you have made requires authentication.' } } }]);
    const bad = cloud(`${srv.url}/v3`, { kind: 'application_credential', applicationCredentialId: 'ac1', applicationCredentialSecret: 'wrong-secret-999' });
    const err = await connect(bad, { logger: memoryLogger() }).catch((e) => e);
    await srv.finish();
    expect(err).toMatchObject({ status: 401, hint: expect.stringMatching(/check the credentials/) });
    expect(`${err.message} ${err.hint}`).not.toContain('wrong-secret-999');
  });
});
