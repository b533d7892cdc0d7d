import { pinKubernetesVersion } from '../../../lib/plan/version-pin.js';

describe('pinKubernetesVersion: a floating kubernetes_version never upgrades a live cluster by surprise', () => {
  it.each<[string, string, string, string | undefined, boolean, string, RegExp | undefined]>([
    // name, setting, resolved (newest image), live KCP spec.version, --upgrade → rendered, reason
    ['first create: the newest patch image', 'v1.34.x', 'v1.34.3', undefined, false, 'v1.34.3', undefined],
    ['live on the newest patch already', 'v1.34.x', 'v1.34.3', 'v1.34.3', false, 'v1.34.3', /the cluster runs v1\.34\.3, the newest 1\.34 patch image/],
    ['a newer patch image appeared: keep the live one', 'v1.34.x', 'v1.34.3', 'v1.34.1', false, 'v1.34.1', /keeps v1\.34\.1 \(the newest patch image is v1\.34\.3; run with --upgrade, or set kubernetes_version: v1\.34\.3/],
    ['a newer patch image and --upgrade: move to it', 'v1.34.x', 'v1.34.3', 'v1.34.1', true, 'v1.34.3', /with --upgrade: v1\.34\.1 → v1\.34\.3/],
    ['the setting names a newer minor: upgrade', 'v1.35.x', 'v1.35.0', 'v1.34.1', false, 'v1.35.0', undefined],
    ['a full version is taken as written', 'v1.34.3', 'v1.34.3', 'v1.34.1', false, 'v1.34.3', undefined],
    ['a full older version is passed on (refused later as a downgrade)', 'v1.34.0', 'v1.34.0', 'v1.34.1', false, 'v1.34.0', undefined],
  ])('%s', (_n, setting, resolved, live, upgrade, version, reason) => {
    const d = pinKubernetesVersion({ setting, resolved, live, upgrade });
    expect(d.ok && d.value).toBe(version);
    if (reason) expect(d.reasons.join('\n')).toMatch(reason);
    else expect(d.reasons).toEqual([]);
  });
});
