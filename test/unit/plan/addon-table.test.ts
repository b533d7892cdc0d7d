import {
  addonFlags, addonImages, ADDONS, compareAddonVersions, defaultAddonVersion, planAddonFlags, ruleApplies, type AddonName,
} from '../../../lib/plan/addon-table.js';

describe('the add-on table', () => {
  it.each<[AddonName, string, string]>([
    ['occm', 'v1.33.4', 'v1.33.0'],
    ['occm', 'v1.28.15', 'v1.28.0'],
    ['occm', 'v1.40.1', 'v1.36.0'],
    ['occm', 'v1.36.0', 'v1.36.0'],
    ['occm', 'latest', 'v1.36.0'],
    ['cinder-csi', 'v1.31.2', 'v1.31.0'],
    // The current Kubernetes minors: cloud-provider-openstack v1.35.0 and v1.36.0 exist (Go module proxy, 2026-11-27).
    ['occm', 'v1.35.4', 'v1.35.0'],
    ['cinder-csi', 'v1.35.4', 'v1.35.0'],
    ['cinder-csi', 'v1.36.1', 'v1.36.0'],
    // Cilium by the Kubernetes versions each release is e2e-tested on (cilium's compatibility page).
    ['cilium', 'v1.31.9', 'v1.17.6'],
    ['cilium', 'v1.32.5', 'v1.17.6'],
    ['cilium', 'v1.33.4', 'v1.18.14'],
    ['cilium', 'v1.34.1', 'v1.19.3'],
    ['cilium', 'v1.35.0', 'v1.19.3'],
    // 1.36 is past 1.19's tested range (1.32–1.35) and in 1.20's (1.33–1.36).
    ['cilium', 'v1.36.1', 'v1.20.2'],
    // Past the newest tested range: the newest release kaas knows, whose compatibility then rests on Kubernetes'.
    ['cilium', 'v1.37.0', 'v1.20.2'],
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

  it.each<[string, string[], string[], RegExp]>([
    ['v1.36.0', ['--provide-node-service=false'], ['--provide-controller-service=false'], /each run only their own service/],
    ['v1.30.0', ['--provide-node-service=false'], ['--provide-controller-service=false'], /each run only their own service/],
    ['v1.30.3', ['--provide-node-service=false'], ['--provide-controller-service=false'], /each run only their own service/],
    ['v2.0.0', ['--provide-node-service=false'], ['--provide-controller-service=false'], /each run only their own service/],
    ['1.31.1', ['--provide-node-service=false'], ['--provide-controller-service=false'], /each run only their own service/],
    ['v1.29.9', [], [], /predates --provide-controller-service\/--provide-node-service \(v1\.30\.0\): both plugins get the older arguments/],
    ['v1.28.0', [], [], /predates/],
    ['v1.21.1', [], [], /predates/],
  ])('cinder-csi %s: controller flags %j, node flags %j (--provide-*-service since v1.30.0)', (version, controller, node, reason) => {
    expect(addonFlags('cinder-csi', version)).toEqual({ controller, node });
    const d = planAddonFlags('cinder-csi', version);
    expect(d).toEqual({ ok: true, value: { controller, node }, reasons: [expect.stringMatching(reason)], warnings: [] });
    if (d.ok) expect(d.reasons[0]).toMatch(new RegExp(`^Cinder CSI ${version.replace(/\./g, '\\.')}[: ]`));
  });

  it.each(['latest', 'v1.30', '', 'main'])('cinder-csi %j is refused: kaas cannot tell which flags the plugin knows', (version) => {
    expect(planAddonFlags('cinder-csi', version)).toEqual({
      ok: false, reasons: [], refusals: [{
        message: `cinder-csi-plugin version "${version}" is not a release version (vX.Y.Z): kaas cannot tell which flags it knows`,
        hint: 'set deploy_cindercsi to true (the version matching kubernetes_version) or to a release such as v1.36.0',
      }],
    });
  });

  it.each<[AddonName, string]>([['occm', 'latest'], ['metrics-server', 'main'], ['calico', 'v3.27.3']])('%s %s: no version-dependent flags, nothing to refuse', (name, version) => {
    expect(planAddonFlags(name, version)).toEqual({ ok: true, value: {}, reasons: [], warnings: [] });
  });

  it('every add-on names the setting that pins or disables it', () => {
    expect(Object.fromEntries(Object.values(ADDONS).map((e) => [e.name, e.setting]))).toEqual({
      occm: 'deploy_occm', cilium: 'use_cilium', calico: 'calico_version', 'cinder-csi': 'deploy_cindercsi',
      'metrics-server': 'deploy_metrics', 'cert-manager': 'deploy_cert_manager',
    });
  });
});
