import { CAPO_RELEASE, ORC_VERSION } from '../../../lib/cluster/preflight.js';
import { ADDONS, type AddonEntry } from '../../../lib/plan/addon-table.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../../../lib/plan/gateway-versions.js';
import { BUNDLED_INGRESS_VERSIONS } from '../../../lib/plan/ingress-versions.js';
import { addonVersions, componentVersions } from '../../../lib/version/components.js';
import { versionReport, versionText } from '../../../lib/version/report.js';

const entry = (versioning: AddonEntry['versioning']): AddonEntry => ({ name: 'cilium', setting: 'use_cilium', versioning, images: {}, flags: {} });

describe('kaas version: component versions', () => {
  it.each<[string, AddonEntry['versioning'], string[], RegExp]>([
    ['fixed', { kind: 'fixed', version: 'v0.7.2' }, ['v0.7.2'], /^the default \(setting use_cilium\)$/],
    ['kubernetes-minor', { kind: 'kubernetes-minor', newestMinor: 36 }, ['v1.36.0'], /Kubernetes minor \(v1\.<minor>\.0\), at most v1\.36\.0/],
    ['kubernetes-table', { kind: 'kubernetes-table', rules: [{ below: 'v1.33.0', value: 'a1' }, { from: 'v1.33.0', below: 'v1.34.0', value: 'b1' }, { from: 'v1.34.0', value: 'c1' }] },
      ['c1', 'b1', 'a1'], /a1 below Kubernetes v1\.33\.0; b1 for v1\.33\.0 ≤ Kubernetes < v1\.34\.0; c1 from Kubernetes v1\.34\.0$/],
    ['kubernetes-table, one release twice', { kind: 'kubernetes-table', rules: [{ below: 'v1.30.0', value: 'a1' }, { from: 'v1.30.0', value: 'a1' }] }, ['a1'], /a1 below/],
  ])('an add-on versioned %s', (_what, versioning, versions, note) => {
    const got = addonVersions(entry(versioning));
    expect(got.versions).toEqual(versions);
    expect(got.note).toMatch(note);
  });

  // Every row of the tables kaas decides with shows up, so a new release there needs no change here.
  const byName = new Map(componentVersions().map((c) => [c.name, c]));
  it.each<[string, string, readonly string[]]>([
    ['cluster-api', 'management', ['v1.14', 'v1.13', 'v1.12']],
    ['cluster-api-provider-openstack', 'management', [CAPO_RELEASE]],
    ['openstack-resource-controller', 'management', [ORC_VERSION]],
    ['ingress-nginx', 'workload', BUNDLED_INGRESS_VERSIONS.map((b) => b.version)],
    ['envoy-gateway', 'workload', BUNDLED_GATEWAY_VERSIONS.map((g) => g.version)],
    ['gateway-api', 'workload', [...new Set(BUNDLED_GATEWAY_VERSIONS.map((g) => g.gatewayApi))]],
    ...Object.values(ADDONS).map((e): [string, string, string[]] => [e.name, 'workload', addonVersions(e).versions]),
  ])('%s (%s cluster): %j', (name, cluster, versions) => {
    expect(byName.get(name)).toMatchObject({ cluster, versions });
  });
});

describe('kaas version: the report', () => {
  const report = versionReport();

  it('names this kaas (the tsc-built tree: no recorded commit) and the Node.js that runs it', () => {
    expect(report.kaas).toEqual({ version: expect.stringMatching(/^\d+\.\d+\.\d+/), commit: null, dirty: null, node: process.version, executable: false });
  });

  it('prints one line per component under its cluster, versions aligned', () => {
    const text = versionText({ ...report, kaas: { ...report.kaas, commit: '0123456789abcdef0123', dirty: true } });
    const lines = text.split('\n');
    expect(lines[0]).toBe(`kaas ${report.kaas.version}, commit 0123456789ab (with uncommitted changes), Node.js ${process.version}`);
    const management = lines.indexOf('management cluster (tested with):');
    const workload = lines.indexOf('workload cluster (deployed by kaas):');
    expect(lines[management + 1]).toMatch(/^  cluster-api +v1\.14, v1\.13, v1\.12 +supported minors with CAPO v0\.14; the fix lines name v1\.14\.2; v1\.12 reaches end of life 2026-12-08/);
    expect(lines.slice(workload + 1).find((l) => l.startsWith('  ingress-nginx '))).toContain(BUNDLED_INGRESS_VERSIONS.map((b) => b.version).join(', '));
    const columns = lines.filter((l) => l.startsWith('  ')).map((l) => l.search(/ v\d/));
    expect(new Set(columns).size).toBe(1);
  });

  it('says when no build recorded the commit', () => {
    expect(versionText(report).split('\n')[0]).toMatch(/commit unknown \(not a build\)/);
  });
});
