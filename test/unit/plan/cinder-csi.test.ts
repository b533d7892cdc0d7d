import { cinderCsiServiceFlags } from '../../../lib/plan/cinder-csi.js';

describe('cinderCsiServiceFlags: --provide-*-service only where the plugin knows them (v1.30.0+)', () => {
  it.each([
    ['v1.36.0', true],
    ['v1.30.0', true],
    ['v1.30.3', true],
    ['v2.0.0', true],
    ['v1.29.9', false],
    ['v1.28.0', false],
    ['v1.21.1', false],
  ])('%s → service flags %s', (version, flags) => {
    const d = cinderCsiServiceFlags(version);
    if (!d.ok) throw new Error('refused');
    expect(d.value).toEqual(flags ? { controller: ['--provide-node-service=false'], node: ['--provide-controller-service=false'] } : { controller: [], node: [] });
    expect(d.reasons[0]).toContain(version);
  });

  it.each(['latest', 'v1.30', ''])('refuses %j: kaas cannot tell which flags it has', (version) => {
    const d = cinderCsiServiceFlags(version);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.refusals[0].hint).toMatch(/deploy_cindercsi/);
  });
});
