/**
 * Issue 24 part 2: kaas renders Cluster API v1beta2; clusters the previous kaas created (v1beta1,
 * stored by CAPI v1.12 as v1beta2) re-run without a change. The fake management cluster converts a
 * v1beta1 apply to the stored v1beta2 and warns about it as the API server does (the testbed holds
 * the same against the real one: test/testbed/first-create.test.ts).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { parseAllDocuments } from 'yaml';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { parseDocuments, stringifyDocuments } from '../../../lib/render/documents.js';
import { fakeManagementCluster } from '../../fakes/fake-tools.js';
import { CAPI_KINDS, previousRender } from '../../support/v1beta1-render.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

const T = 240_000;
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS()).filter(Boolean);

describe('Cluster API v1beta2', () => {
  it('kaas renders every Cluster API kind in v1beta2 (CAPO kinds in v1beta1), references without a version', () => {
    const objs = docs(readFileSync('test/golden/cluster/example-demo/cluster.yaml', 'utf8')) as { apiVersion: string; kind: string }[];
    expect(objs.filter((o) => CAPI_KINDS.includes(o.kind)).map((o) => `${o.kind} ${o.apiVersion}`).sort()).toEqual([
      'Cluster cluster.x-k8s.io/v1beta2', 'KubeadmConfigTemplate bootstrap.cluster.x-k8s.io/v1beta2',
      'KubeadmControlPlane controlplane.cluster.x-k8s.io/v1beta2', 'MachineDeployment cluster.x-k8s.io/v1beta2',
    ]);
    expect(objs.filter((o) => o.kind.startsWith('OpenStack')).every((o) => o.apiVersion === 'infrastructure.cluster.x-k8s.io/v1beta1')).toBe(true);
    // Every reference (an object with kind and name, no metadata) names its API group, never a version.
    const refs: Record<string, unknown>[] = [];
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) v.forEach(walk);
      else if (v && typeof v === 'object') {
        const o = v as Record<string, unknown>;
        if ('kind' in o && 'name' in o && !('metadata' in o)) refs.push(o);
        Object.values(o).forEach(walk);
      }
    };
    objs.filter((o) => CAPI_KINDS.includes(o.kind)).forEach((o) => walk((o as { spec?: unknown }).spec));
    expect(refs.map((r) => Object.keys(r).sort().join(','))).toEqual(Array(5).fill('apiGroup,kind,name'));
  });

  it('the test helper for "the previous kaas" gives exactly the v1beta1 golden file the previous kaas rendered', () => {
    const now = parseDocuments(readFileSync('test/golden/cluster/example-demo/cluster.yaml', 'utf8'), 'golden');
    const before = docs(readFileSync('test/fixtures/cluster/v1beta1-render/example-demo.yaml', 'utf8'));
    expect(docs(stringifyDocuments(previousRender(now)))).toEqual(before);
  });

  it('a cluster the previous kaas created (v1beta1) re-runs with no change: nothing applied, generations unchanged, no deprecation warning', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    const cloud = fakeCloud(exampleCloudState());
    try {
      // Today's render with its secrets (--output-dir), turned into what the previous kaas rendered.
      const out = path.join(sb.home, 'render');
      await createCluster({ ...runOptions(sb, { dryRun: true }), outputDir: out }, fakeDeps(mgmt, cloud));
      const rendered = parseDocuments(readFileSync(path.join(out, 'cluster.yaml'), 'utf8'), 'cluster.yaml');
      const old = stringifyDocuments(previousRender(rendered));
      expect(old).toMatch(/apiVersion: cluster.x-k8s.io\/v1beta1/);
      // The previous kaas: namespace, then a server-side apply with kaas's field manager.
      const kubectl = (args: string[], input = '') => execFileSync('kubectl', ['--kubeconfig', sb.mgmt, ...args], { env: { ...process.env, ...mgmt.env }, input, stdio: ['pipe', 'pipe', 'pipe'] });
      kubectl(['create', 'namespace', 'demo']);
      kubectl(['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], old);
      // The fake answered like CAPI v1.12: warned, and stored v1beta2.
      expect(mgmt.calls().at(-1)!.stderr).toContain('Warning: cluster.x-k8s.io/v1beta1 Cluster is deprecated; use cluster.x-k8s.io/v1beta2 Cluster');
      const kcp = mgmt.objects()['KubeadmControlPlane/demo/demo-control-plane'];
      expect(kcp.apiVersion).toBe('controlplane.cluster.x-k8s.io/v1beta2');
      // Planned: every object unchanged (the live objects read back as v1beta2, compared with the v1beta2 render).
      const plan = await createCluster(runOptions(sb, { dryRun: true }), fakeDeps(mgmt, cloud));
      expect(plan.live?.objects.filter((o) => o.action !== 'unchanged')).toEqual([]);
      expect(plan.live?.objects.length).toBeGreaterThanOrEqual(7);
      const gens = () => Object.fromEntries(Object.entries(mgmt.objects()).filter(([k]) => /\/demo\//.test(k)).map(([k, o]) => [k, o.metadata.generation]));
      const before = { gens: gens(), mutations: mgmt.mutations().length, calls: mgmt.calls().length };

      const r = await createCluster(runOptions(sb), fakeDeps(mgmt, cloud));
      expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
      expect(mgmt.mutations().slice(before.mutations).filter((c) => c.argv.includes(sb.mgmt))).toEqual([]);
      expect(gens()).toEqual(before.gens);
      // Everything kaas asked of the management cluster (reads, server dry-run) drew no deprecation warning.
      expect(mgmt.calls().slice(before.calls).filter((c) => c.argv.includes(sb.mgmt) && /Warning: .*deprecated/.test(c.stderr ?? '')).map((c) => c.argv.join(' '))).toEqual([]);
    } finally {
      mgmt.cleanup();
    }
  }, T);
});
