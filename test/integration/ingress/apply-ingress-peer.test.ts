import fs from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { createIngressCloud } from '../../../lib/ingress/cloud.js';
import { occmLoadBalancerName } from '../../../lib/openstack/octavia.js';
import { parseCloudConf } from '../../../lib/checks/live-check.js';
import { memoryLogger } from '../../../lib/log.js';
import { ROOT, tempDir } from '../../support/cli.js';
import { kaasOnPeer, peer } from '../../support/peer.js';

const SETTINGS = ['--settings-dir', path.join(ROOT, 'settings'), '--env', 'example'];

/** apply-ingress planning against the real Keystone + Octavia peer (detection, credentials, LB lookup). */
describe('kaas apply-ingress against the OpenStack peer', () => {
  it('auto detects OVN on a Wallaby+ cloud offering it: upstream manifest, OVN cloud.conf keys', () => {
    const r = kaasOnPeer(['apply-ingress', 'prod', ...SETTINGS, '--dry-run', '--set', 'cloud=peer-demo']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/variant +ovn/);
    expect(r.stderr).toMatch(/provider +ovn \(capabilities from cloud\)/);
    const svc = parseAllDocuments(r.stdout).map((d) => d.toJS()).find((o) => o?.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller');
    expect(svc.metadata.annotations).toBeUndefined();
  });

  it('auto falls back to amphora + PROXY where ovn is not offered, and says why', () => {
    const r = kaasOnPeer(['apply-ingress', 'prod', ...SETTINGS, '--dry-run', '--set', 'cloud=peer-demo-noovn']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/variant +amphora-proxy/);
    expect(r.stderr).toContain('OVN not offered: providers are amphora');
  });

  it('writes cloud.conf [Global] from the application credential (0600), the secret never printed', () => {
    const p = peer();
    const dir = tempDir();
    const r = kaasOnPeer(['apply-ingress', 'demo', ...SETTINGS, '--dry-run', '--output-dir', dir, '--set', 'cloud=peer-demo-appcred']);
    expect(r.code).toBe(0);
    const file = path.join(dir, 'cloud.conf');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const conf = parseCloudConf(fs.readFileSync(file, 'utf8'));
    expect(conf.Global).toMatchObject({ 'auth-url': p.authUrl, 'application-credential-id': p.appcredId, 'application-credential-secret': p.appcredSecret });
    expect(`${r.stdout}${r.stderr}`).not.toContain(p.appcredSecret);
  });

  it('looks the ingress LB up in Octavia by OCCM\'s name (none exists on the peer)', async () => {
    const p = peer();
    const cloud = createIngressCloud({
      environ: { OS_CLIENT_CONFIG_FILE: p.cloudsFile }, cwd: tempDir(), home: tempDir(), cloudSetting: 'peer-demo', mutating: false, logger: memoryLogger(),
    });
    await expect(cloud.loadBalancerVip(occmLoadBalancerName('demo', 'ingress-nginx', 'ingress-nginx-controller'))).resolves.toBeUndefined();
  });
});
