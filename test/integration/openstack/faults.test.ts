import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { tempDir } from '../../support/cli.js';
import { kaasOnPeer, pausePeerService, peer } from '../../support/peer.js';

/** A clouds.yaml like the peer's, with the peer-demo cloud's auth_url pointed elsewhere. */
function cloudsWithAuthUrl(authUrl: string): string {
  const doc = YAML.parse(fs.readFileSync(peer().cloudsFile, 'utf8')) as { clouds: Record<string, { auth: Record<string, unknown> }> };
  doc.clouds['peer-demo'].auth.auth_url = authUrl;
  const file = path.join(tempDir('kaas-clouds-'), 'clouds.yaml');
  fs.writeFileSync(file, YAML.stringify(doc), { mode: 0o600 });
  return file;
}

/** Cloud faults against the real peer: the wrong service as auth_url, a Keystone that hangs. */
describe('cloud faults (process level, real peer)', () => {
  it('auth_url at Octavia (behind keystonemiddleware): exit 1, the hint names the real Keystone', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo'], { OS_CLIENT_CONFIG_FILE: cloudsWithAuthUrl('http://127.0.0.1:9876/v3') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('error: Keystone: POST http://127.0.0.1:9876/v3/auth/tokens failed with HTTP 401');
    // The hint names the clouds.yaml the cloud came from (issue 31 §3, newcomer m7).
    expect(r.stderr).toMatch(/hint: auth_url of cloud "peer-demo" \(in \/\S+\/clouds\.yaml\) points at http:\/\/127\.0\.0\.1:9876, which is not Keystone but a service that sends its clients to Keystone at http:\/\/127\.0\.0\.1:5000: set auth_url to http:\/\/127\.0\.0\.1:5000/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('auth_url at Neutron (a plain 404): exit 1, the hint says it is not Keystone v3', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo'], { OS_CLIENT_CONFIG_FILE: cloudsWithAuthUrl('http://127.0.0.1:9696') });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('failed with HTTP 404');
    expect(r.stderr).toMatch(/hint: http:\/\/127\.0\.0\.1:9696 does not answer like Keystone v3: auth_url of cloud "peer-demo" \(in \/\S+\/clouds\.yaml\) must be the Identity endpoint/);
  });

  describe('with Keystone paused (accepts connections, never answers)', () => {
    let resume: () => void = () => {};
    beforeAll(async () => {
      resume = await pausePeerService('keystone');
    });
    afterAll(() => resume());

    it('--timeout 2s: exit 1 after that timeout (not the default 30 s), naming the endpoint', () => {
      const t0 = Date.now();
      const r = kaasOnPeer(['detect', '--cloud', 'peer-demo', '--timeout', '2s']);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('error: Keystone: POST http://127.0.0.1:5000/v3/auth/tokens failed with ETIMEDOUT');
      expect(r.stderr).toContain('hint: Keystone at http://127.0.0.1:5000 did not answer within 2 s');
      expect(Date.now() - t0).toBeLessThan(20_000);
    });
  });
});
