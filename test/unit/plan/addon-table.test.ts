import {
  addonFlags, addonImages, ADDONS, compareAddonVersions, defaultAddonVersion, ruleApplies, type AddonName,
} from '../../../lib/plan/addon-table.js';

describe('the add-on table', () => {
  it.each<[AddonName, string, string]>([
    ['occm', 'v1.33.4', 'v1.33.0'],
    ['occm', 'v1.28.15', 'v1.28.0'],
    ['occm', 'v1.40.1', 'v1.36.0'],
    ['occm', 'v1.36.0', 'v1.36.0'],
    ['occm', 'latest', 'v1.36.0'],
    ['cinder-csi', 'v1.31.2', 'v1.31.0'],
    ['cilium', 'v1.33.4', 'v1.17.6'],
    ['calico', 'v1.33.4', 'v3.27.3'],
    ['metrics-server', 'v1.20.0', 'v0.7.2'],
    ['cert-manager', 'v1.33.4', 'v1.17.2'],
  ])('%s for Kubernetes %s defaults to %s', (name, k8s, want) => {
    expect(defaultAddonVersion(name, k8s)).toBe(want);
  });

  it.each<[AddonName, string, Record<string, string>]>([
    ['occm', 'v1.33.0', { main: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:v1.33.0' }],
    ['metrics-server', 'v0.7.2', { main: 'registry.k8s.io/metrics-server/metrics-server:v0.7.2' }],
    ['calico', 'v3.27.3', { cni: 'docker.io/calico/cni:v3.27.3', node: 'docker.io/calico/node:v3.27.3', kubeControllers: 'docker.io/calico/kube-controllers:v3.27.3' }],
    ['cilium', 'v1.17.6', {}],
  ])('%s %s images', (name, version, images) => {
    expect(addonImages(name, version)).toEqual(images);
  });

  it('cinder-csi: the plugin image by version, the CSI sidecars pinned', () => {
    expect(addonImages('cinder-csi', 'v1.32.1')).toEqual({
      main: 'registry.k8s.io/provider-os/cinder-csi-plugin:v1.32.1',
      attacher: 'registry.k8s.io/sig-storage/csi-attacher:v4.7.0',
      provisioner: 'registry.k8s.io/sig-storage/csi-provisioner:v5.1.0',
      resizer: 'registry.k8s.io/sig-storage/csi-resizer:v1.12.0',
      livenessProbe: 'registry.k8s.io/sig-storage/livenessprobe:v2.14.0',
      nodeDriverRegistrar: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0',
    });
  });

  it('every add-on has its name as key and the calico template is bundled for v3.27.3 only', () => {
    for (const [k, v] of Object.entries(ADDONS)) expect(v.name).toBe(k);
    expect(ADDONS.calico.bundledVersions).toEqual(['v3.27.3']);
  });

  it.each<[string, string, number]>([
    ['v1.30.0', 'v1.30.0', 0],
    ['v1.29.9', 'v1.30.0', -1],
    ['v1.30.1', 'v1.30.0', 1],
    ['v1.9.0', 'v1.10.0', -1],
    ['v2.0.0', 'v1.99.9', 1],
    ['1.30', 'v1.30.0', 0],
    ['nonsense', 'v0.0.0', -1],
  ])('compareAddonVersions(%s, %s) has the sign of %d', (a, b, sign) => {
    expect(Math.sign(compareAddonVersions(a, b))).toBe(sign);
  });

  it.each<[{ from?: string; below?: string }, string, boolean]>([
    [{ from: 'v1.30.0' }, 'v1.30.0', true],
    [{ from: 'v1.30.0' }, 'v1.29.5', false],
    [{ below: 'v1.30.0' }, 'v1.29.5', true],
    [{ below: 'v1.30.0' }, 'v1.30.0', false],
    [{ from: 'v1.28.0', below: 'v1.30.0' }, 'v1.29.0', true],
    [{ from: 'v1.28.0', below: 'v1.30.0' }, 'v1.31.0', false],
    [{}, 'v0.1.0', true],
  ])('rule %j applies to %s: %s', (range, version, applies) => {
    expect(ruleApplies({ ...range, value: [] }, version)).toBe(applies);
  });

  it('flags by version: only the rules whose range holds the version, per container role', () => {
    const original = ADDONS['cinder-csi'].flags;
    const entry = ADDONS['cinder-csi'] as { flags: unknown };
    entry.flags = {
      plugin: [{ from: 'v1.30.0', value: ['--provide-node-service=false'] }, { below: 'v1.30.0', value: ['--old-form'] }, { value: ['--v=1'] }],
    };
    try {
      expect(addonFlags('cinder-csi', 'v1.31.0')).toEqual({ plugin: ['--provide-node-service=false', '--v=1'] });
      expect(addonFlags('cinder-csi', 'v1.29.0')).toEqual({ plugin: ['--old-form', '--v=1'] });
    } finally {
      entry.flags = original;
    }
    expect(addonFlags('occm', 'v1.33.0')).toEqual({});
  });
});
