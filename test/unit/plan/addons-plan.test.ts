import { compareAddonVersions, ruleApplies } from '../../../lib/plan/addon-table.js';
import { kubernetesMinor } from '../../../lib/plan/ingress-versions.js';
import { planAddons } from '../../../lib/plan/addons.js';
import { SETTINGS } from '../../../lib/settings/table.js';
import type { Settings } from '../../../lib/settings/types.js';

const defaults = Object.fromEntries(SETTINGS.map((d) => [d.key, d.default])) as unknown as Settings;
const plan = (over: Partial<Settings>, tools: { cilium: boolean; helm: boolean }) => planAddons({ ...defaults, ...over }, 'v1.33.4', tools);
const NONE = { deploy_occm: false, deploy_cindercsi: false, deploy_metrics: false } as const;

describe('planAddons: the reasons users read', () => {
  it.each<[string, Partial<Settings>, { cilium: boolean; helm: boolean }, string[]]>([
    ['no OCCM', { ...NONE }, { cilium: true, helm: false }, [
      'deploy_occm is false: no cloud controller manager (nodes keep the uninitialized taint, no LoadBalancer Services)', 'CNI: cilium v1.18.14 through the cilium CLI']],
    ['cilium through helm', { ...NONE, deploy_occm: true }, { cilium: false, helm: true }, ['CNI: cilium v1.18.14 through helm']],
    ['calico', { ...NONE, deploy_occm: true, use_cilium: false }, { cilium: false, helm: false }, ['CNI: calico v3.27.3 (bundled manifest)']],
    ['cert-manager', { ...NONE, deploy_occm: true, deploy_cert_manager: 'v1.16.0' }, { cilium: true, helm: true }, [
      'CNI: cilium v1.18.14 through the cilium CLI', 'cert-manager v1.16.0 through helm: the chart is fetched from https://charts.jetstack.io at run time (not bundled; air-gapped sites point cert_manager_chart_repo at their mirror)']],
    ['Cinder CSI flags from the add-on table, after the other reasons', { ...NONE, deploy_occm: true, deploy_cindercsi: true, deploy_cert_manager: 'v1.16.0' }, { cilium: true, helm: true }, [
      'CNI: cilium v1.18.14 through the cilium CLI', 'cert-manager v1.16.0 through helm: the chart is fetched from https://charts.jetstack.io at run time (not bundled; air-gapped sites point cert_manager_chart_repo at their mirror)',
      'Cinder CSI v1.33.0: controller and node plugins each run only their own service (--provide-*-service, since v1.30.0).']],
    ['cilium from a mirror (the cilium CLI is told --repository)', { ...NONE, deploy_occm: true, cilium_chart_repo: 'https://charts.mirror.example/cilium' }, { cilium: true, helm: true }, [
      'CNI: cilium v1.18.14 through the cilium CLI, chart from https://charts.mirror.example/cilium (cilium_chart_repo)']],
    ['cilium from an OCI reference: the cilium CLI takes it too', { ...NONE, deploy_occm: true, cilium_chart_repo: 'oci://registry.example/cilium/charts/cilium' }, { cilium: true, helm: false }, [
      'CNI: cilium v1.18.14 through the cilium CLI, chart from oci://registry.example/cilium/charts/cilium (cilium_chart_repo)']],
    ['cilium from an OCI reference through helm', { ...NONE, deploy_occm: true, cilium_chart_repo: 'oci://registry.example/cilium/charts/cilium' }, { cilium: false, helm: true }, [
      'CNI: cilium v1.18.14 through helm, chart from oci://registry.example/cilium/charts/cilium (cilium_chart_repo)']],
    ['cert-manager from a mirror', { ...NONE, deploy_occm: true, use_cilium: false, deploy_cert_manager: 'v1.16.0', cert_manager_chart_repo: 'https://charts.mirror.example/jetstack' }, { cilium: false, helm: true }, [
      'CNI: calico v3.27.3 (bundled manifest)', 'cert-manager v1.16.0 through helm: the chart is fetched from https://charts.mirror.example/jetstack at run time (not bundled; air-gapped sites point cert_manager_chart_repo at their mirror)']],
    ['an older pinned Cinder CSI', { ...NONE, deploy_occm: true, deploy_cindercsi: 'v1.29.2' }, { cilium: true, helm: false }, [
      'CNI: cilium v1.18.14 through the cilium CLI',
      'Cinder CSI v1.29.2 predates --provide-controller-service/--provide-node-service (v1.30.0): both plugins get the older arguments.']],
  ])('%s', (_n, over, tools, reasons) => {
    expect(plan(over, tools)).toMatchObject({ ok: true, reasons });
  });

  it.each<[string, Partial<Settings>, { cilium: boolean; helm: boolean }, object]>([
    ['cilium without tools', {}, { cilium: false, helm: false }, {
      message: 'use_cilium needs the cilium CLI or helm on PATH, and neither was found',
      hint: 'install the cilium CLI (https://github.com/cilium/cilium-cli) or helm, or set use_cilium: false for the bundled calico' }],
    ['cert-manager without helm', { deploy_cert_manager: true }, { cilium: true, helm: false }, {
      message: 'deploy_cert_manager needs helm on PATH and access to https://charts.jetstack.io (cert_manager_chart_repo; cert-manager is not bundled: its CRDs alone are ~1 MB)', hint: 'install helm, or set deploy_cert_manager: false' }],
    ['cert-manager from a mirror without helm: the refusal names the mirror', { deploy_cert_manager: true, cert_manager_chart_repo: 'oci://harbor.example/jetstack/charts/cert-manager' }, { cilium: true, helm: false }, {
      message: 'deploy_cert_manager needs helm on PATH and access to oci://harbor.example/jetstack/charts/cert-manager (cert_manager_chart_repo; cert-manager is not bundled: its CRDs alone are ~1 MB)' }],
    ['calico not bundled', { use_cilium: false, calico_version: 'v3.26.0' }, { cilium: true, helm: true }, {
      message: 'calico v3.26.0 is not bundled', hint: 'bundled calico versions: v3.27.3' }],
    ['a Cinder CSI version that is no release', { deploy_cindercsi: 'latest' }, { cilium: true, helm: false }, {
      message: 'cinder-csi-plugin version "latest" is not a release version (vX.Y.Z): kaas cannot tell which flags it knows',
      hint: 'set deploy_cindercsi to true (the version matching kubernetes_version) or to a release such as v1.36.0' }],
  ])('refused: %s', (_n, over, tools, refusal) => {
    expect(plan(over, tools)).toMatchObject({ ok: false, refusals: [refusal] });
  });
});

describe('version parsing edge cases', () => {
  it.each<[string, string, number]>([
    ['x1.30.0', 'v1.30.0', -1],
    ['v10.0.0', 'v9.0.0', 1],
    ['v1.30.10', 'v1.30.9', 1],
    ['v1.30.2', 'v1.30.3', -1],
  ])('compareAddonVersions(%s, %s) has the sign of %d', (a, b, sign) => expect(Math.sign(compareAddonVersions(a, b))).toBe(sign));

  it('a rule with only `below` applies to any version below it', () => {
    expect(ruleApplies({ below: 'v1.30.0', value: [] }, 'v0.1.0')).toBe(true);
  });

  it.each(['xv1.33', 'v1.33.4 ', 'release-v1.33'])('kubernetesMinor(%j) needs the version at the start', (v) => {
    expect(kubernetesMinor(v)).toEqual(v.trim().startsWith('v1') ? [1, 33] : undefined);
  });
});
