import fs from 'node:fs';
import path from 'node:path';
import { tempDir } from '../../support/cli.js';
import { kaasOnPeer, peer, stopPeerServices } from '../../support/peer.js';

/** `kaas detect` as a user runs it, against the peer: JSON, YAML, text, errors and exit codes. */
describe('kaas detect (process level, real peer)', () => {
  it('-o json: capabilities plus the load-balancer plan (auto picks OVN on this Zed cloud)', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo', '-o', 'json', '--set', 'use_ovn_lb_provider=auto']);
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.octavia).toMatchObject({ maxVersion: '2.26', providers: ['amphora', 'ovn'], wallabyOrLater: true });
    expect(j.loadBalancer).toMatchObject({
      provider: 'ovn', ovn: true, proxyProtocolPossible: false,
      cloudConf: { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' },
    });
    expect(j.loadBalancer.reasons[0]).toBe('OVN used: the cloud offers the ovn provider and Octavia v2.26 is Wallaby (v2.24) or later');
  });

  it('OS_CLOUD picks the cloud; the cloud setting beats it; auto without ovn says which providers exist', () => {
    const dir = tempDir('kaas-settings-');
    fs.writeFileSync(path.join(dir, 'default.yaml'), 'cloud: peer-demo-noovn\nuse_ovn_lb_provider: auto\n');
    const r = kaasOnPeer(['detect', '-o', 'json', '--settings-dir', dir], { OS_CLOUD: 'peer-demo' });
    expect(r.code).toBe(0);
    const j = JSON.parse(r.stdout);
    expect(j.cloud).toBe('peer-demo-noovn');
    expect(j.loadBalancer.provider).toBe('amphora');
    expect(j.loadBalancer.reasons).toContain('OVN not offered: providers are amphora');
  });

  it('one token POST and 4 requests in all, the cloud from the settings file', () => {
    const dir = tempDir('kaas-settings-');
    fs.writeFileSync(path.join(dir, 'default.yaml'), 'cloud: peer-demo\n');
    const r = kaasOnPeer(['detect', '-o', 'json', '--settings-dir', dir, '--verbose']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).cloud).toBe('peer-demo');
    expect(r.stderr.split('\n').filter((l) => /^→ POST \S+\/v3\/auth\/tokens/.test(l))).toHaveLength(1);
    expect(r.stderr).toContain('openstack: 4 HTTP requests');
  });

  it('use_ovn_lb_provider=true on a cloud without ovn → exit 2 listing the providers', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo-noovn', '--set', 'use_ovn_lb_provider=true']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: use_ovn_lb_provider is true, but the cloud does not offer the ovn provider');
    expect(r.stderr).toContain('  - providers offered: amphora');
  });

  it('-o yaml round-trips through --capabilities FILE (offline planning, no cloud needed)', () => {
    const saved = kaasOnPeer(['detect', '--cloud', 'peer-demo-appcred', '-o', 'yaml']);
    expect(saved.code).toBe(0);
    const file = path.join(tempDir(), 'caps.yaml');
    fs.writeFileSync(file, saved.stdout);
    const offline = kaasOnPeer(['detect', '--capabilities', file, '--set', 'use_ovn_lb_provider=true', '-o', 'json'], { OS_CLIENT_CONFIG_FILE: '/nonexistent' });
    expect(offline.code).toBe(0);
    expect(JSON.parse(offline.stdout).loadBalancer.provider).toBe('ovn');
  });

  it('a cloud without Octavia (region RegionBare) is no plan: exit 2 naming the region and the fix, not an amphora plan (issue 23)', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo-bare']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('error: the cloud has no load-balancer service (Octavia): the "load-balancer" service has no public endpoint in region RegionBare');
    expect(r.stderr).toMatch(/hint: check region_name .* in clouds\.yaml/);
    expect(r.stdout).not.toContain('PROXY protocol possible');
  });

  it('text output explains the plan', () => {
    const r = kaasOnPeer(['detect', '--cloud', 'peer-demo']);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('- OVN not used: use_ovn_lb_provider is false');
  });

  it('a wrong application-credential secret → exit 1, 401 and a hint; the secret is not printed', () => {
    const p = peer();
    const env = { OS_AUTH_URL: p.authUrl, OS_APPLICATION_CREDENTIAL_ID: p.appcredId, OS_APPLICATION_CREDENTIAL_SECRET: 'not-the-right-secret' };
    const r = kaasOnPeer(['detect', '--verbose'], env, ['not-the-right-secret']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/error: Keystone: POST http:\/\/127\.0\.0\.1:5000\/v3\/auth\/tokens failed with HTTP 401 \(request id req-[0-9a-f-]+\)/);
    expect(r.stderr).toContain('hint: check the credentials of cloud "envvars"');
    expect(r.stdout + r.stderr).not.toContain('not-the-right-secret');
  });

  describe('with Octavia stopped', () => {
    let restart: () => void = () => {};
    beforeAll(async () => {
      restart = await stopPeerServices('octavia-api-noovn');
    });
    afterAll(() => restart());

    it('connection refused → exit 1 naming the endpoint', () => {
      const r = kaasOnPeer(['detect', '--cloud', 'peer-demo-noovn']);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error: Octavia: GET http:\/\/127\.0\.0\.1:9877\/(v2\/lbaas\/providers)? failed with ECONNREFUSED/);
      expect(r.stderr).toContain('hint: nothing listens at http://127.0.0.1:9877: is Octavia running, and is its catalog endpoint right?');
    });
  });
});
