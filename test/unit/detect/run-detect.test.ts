import fs from 'node:fs';
import path from 'node:path';
import { runDetect } from '../../../lib/detect/detect.js';
import { PlanError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';
import { tempDir } from '../../support/temp.js';

const CAPS = {
  cloud: 'saved', region: 'RegionOne', detectedAt: '2026-01-01T00:00:00.000Z',
  octavia: { present: true, endpoint: 'https://lb.example', maxVersion: '2.23', providers: ['amphora', 'ovn'], defaultProvider: 'amphora', wallabyOrLater: false, allowedCidrs: true },
  neutron: { present: true, endpoint: 'https://net.example', externalNetworks: [{ id: 'n1', name: 'ext' }] },
  nova: { present: false, reason: 'the catalog has no "compute" service' },
};

function setup(settingsYaml: string) {
  const dir = tempDir('kaas-detect-');
  fs.mkdirSync(path.join(dir, 'settings'));
  fs.writeFileSync(path.join(dir, 'settings', 'prod.yaml'), settingsYaml);
  const capabilitiesFile = path.join(dir, 'caps.json');
  fs.writeFileSync(capabilitiesFile, JSON.stringify(CAPS));
  return { settingsDir: path.join(dir, 'settings'), env: 'prod', environ: {}, cwd: dir, home: dir, capabilitiesFile };
}

describe('kaas detect use case, offline (--capabilities FILE)', () => {
  it('plans with the environment settings and the cluster override, and prints why', async () => {
    const opts = setup('use_ovn_lb_provider: false\nclusters:\n  edge:\n    use_ovn_lb_provider: auto\n');
    const r = await runDetect({ ...opts, cluster: 'edge' }, { logger: memoryLogger() });
    expect(r.data.loadBalancer.provider).toBe('amphora');
    expect(r.data.loadBalancer.reasons[0]).toBe('Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported');
    expect(r.data.octavia.maxVersion).toBe('2.23');
    expect(r.text).toContain('Octavia  v2.23 at https://lb.example; providers: amphora, ovn; Wallaby or later: no; allowed_cidrs: yes');
    expect(r.text).toContain('  - Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported');
  });

  it('use_ovn_lb_provider: true on a pre-Wallaby cloud is a PlanError (exit 2)', async () => {
    const opts = setup('use_ovn_lb_provider: true\n');
    await expect(runDetect(opts, { logger: memoryLogger() })).rejects.toBeInstanceOf(PlanError);
  });

  it('--set beats the file', async () => {
    const opts = setup('use_ovn_lb_provider: true\n');
    const r = await runDetect({ ...opts, sets: ['use_ovn_lb_provider=false'] }, { logger: memoryLogger() });
    expect(r.data.loadBalancer.reasons).toEqual(['OVN not used: use_ovn_lb_provider is false', expect.stringMatching(/^cloud\.conf floating-network-id=n1 \(ext\)/)]);
  });

  it('restrict_kubeapi with OVN Service LBs: detect plans OVN and pins the kube-API LB to amphora (issue 9)', async () => {
    const opts = setup('use_ovn_lb_provider: auto\nrestrict_kubeapi: [203.0.113.0/24]\n');
    fs.writeFileSync(opts.capabilitiesFile, JSON.stringify({ ...CAPS, octavia: { ...CAPS.octavia, maxVersion: '2.26', wallabyOrLater: true } }));
    const r = await runDetect(opts, { logger: memoryLogger() });
    expect(r.data.loadBalancer.provider).toBe('ovn');
    expect(r.data.kubeApi.provider).toBe('amphora');
    expect(r.text).toContain('kube-API load balancer: pinned to amphora');
  });

  it('restrict_kubeapi on an Octavia older than v2.12 is a PlanError naming the version', async () => {
    const opts = setup('use_ovn_lb_provider: false\nrestrict_kubeapi: [none]\n');
    fs.writeFileSync(opts.capabilitiesFile, JSON.stringify({ ...CAPS, octavia: { ...CAPS.octavia, maxVersion: '2.11', allowedCidrs: false } }));
    const err = await runDetect(opts, { logger: memoryLogger() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).message).toBe('restrict_kubeapi cannot be enforced: Octavia v2.11 is older than v2.12 (listener allowed_cidrs); CAPO would leave the kube-API open');
  });
});
