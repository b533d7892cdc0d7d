import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runDetect } from '../../../lib/detect/detect.js';
import { PlanError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';

const CAPS = {
  cloud: 'saved', region: 'RegionOne', detectedAt: '2026-01-01T00:00:00.000Z',
  octavia: { present: true, endpoint: 'https://lb.example', maxVersion: '2.23', providers: ['amphora', 'ovn'], defaultProvider: 'amphora', wallabyOrLater: false, allowedCidrs: true },
  neutron: { present: true, endpoint: 'https://net.example', externalNetworks: [{ id: 'n1', name: 'ext' }] },
  nova: { present: false, reason: 'the catalog has no "compute" service' },
};

function setup(settingsYaml: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-detect-'));
  fs.mkdirSync(path.join(dir, 'settings'));
  fs.writeFileSync(path.join(dir, 'settings', 'prod.yaml'), settingsYaml);
  const capabilitiesFile = path.join(dir, 'caps.json');
  fs.writeFileSync(capabilitiesFile, JSON.stringify(CAPS));
  return { settingsDir: path.join(dir, 'settings'), env: 'prod', environ: {}, cwd: dir, home: dir, capabilitiesFile, logger: memoryLogger() };
}

describe('kaas detect use case, offline (--capabilities FILE)', () => {
  it('plans with the environment settings and the cluster override, and prints why', async () => {
    const opts = setup('use_ovn_lb_provider: false\nclusters:\n  edge:\n    use_ovn_lb_provider: auto\n');
    const r = await runDetect({ ...opts, cluster: 'edge' });
    expect(r.data.loadBalancer.provider).toBe('amphora');
    expect(r.data.loadBalancer.reasons[0]).toBe('Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported');
    expect(r.data.octavia.maxVersion).toBe('2.23');
    expect(r.text).toContain('Octavia  v2.23 at https://lb.example; providers: amphora, ovn; Wallaby or later: no; allowed_cidrs: yes');
    expect(r.text).toContain('  - Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported');
  });

  it('use_ovn_lb_provider: true on a pre-Wallaby cloud is a PlanError (exit 2)', async () => {
    const opts = setup('use_ovn_lb_provider: true\n');
    await expect(runDetect(opts)).rejects.toBeInstanceOf(PlanError);
  });

  it('--set beats the file', async () => {
    const opts = setup('use_ovn_lb_provider: true\n');
    const r = await runDetect({ ...opts, sets: ['use_ovn_lb_provider=false'] });
    expect(r.data.loadBalancer.reasons).toEqual(['OVN not used: use_ovn_lb_provider is false']);
  });
});
