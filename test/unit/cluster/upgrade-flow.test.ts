import { createCluster } from '../../../lib/cluster/create.js';
import { referencedTemplates } from '../../../lib/cluster/live.js';
import { serverDryRun } from '../../../lib/cluster/mgmt.js';
import { createProcessRunner } from '../../../lib/exec/runner.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { parseDocuments } from '../../../lib/render/documents.js';
import { fakeManagementCluster, fakeRunner, type FakeManagementCluster } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeClock, fakeDeps, runOptions, sandbox } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

type Sb = ReturnType<typeof sandbox>;
type Spec = { spec: { version?: string; replicas?: number; template: { spec: { version: string; infrastructureRef: { name: string } } } } };
const obj = (m: FakeManagementCluster, kind: string, name: string, ns = 'demo') => m.objects()[`${kind}/${ns}/${name}`];

/** Short machine waits: a rollout the fake's controllers cannot finish fails in a few polls instead of 15 minutes. */
const run = (sb: Sb, mgmt: FakeManagementCluster, cloud: ReturnType<typeof fakeCloud>, sets: string[] = []) => {
  const o = runOptions(sb);
  return createCluster({ ...o, sets: [...o.sets, ...sets], timeouts: { pollMs: 10_000, machinesSec: 120 } }, fakeDeps(mgmt, cloud, fakeClock()));
};

describe('Kubernetes upgrades against a management cluster with CAPI v1.12 MachineSet preflight checks', () => {
  let sb: Sb;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof fakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    cloud = fakeCloud({ ...exampleCloudState(), images: [...exampleCloudState().images, 'ubuntu-capi-image-v1.34.1'] });
  });
  afterEach(() => mgmt.cleanup());

  it('a minor upgrade applies control plane and workers once, together; the workers roll once; version-following add-ons wait for the new control plane', async () => {
    await run(sb, mgmt, cloud);
    const before = mgmt.calls().length;
    const mdGen = obj(mgmt, 'MachineDeployment', 'demo-md-0')!.metadata.generation!;
    const r = await run(sb, mgmt, cloud, ['kubernetes_version=v1.34.1']);
    const md = obj(mgmt, 'MachineDeployment', 'demo-md-0') as unknown as Spec;
    expect(md.spec.template.spec.version).toBe('v1.34.1');
    expect((obj(mgmt, 'KubeadmControlPlane', 'demo-control-plane') as unknown as Spec).spec.version).toBe('v1.34.1');
    // One real apply on the management cluster carries both; the workers' spec changes once.
    const applies = mgmt.calls().slice(before).filter((c) => c.argv.includes(sb.mgmt) && c.argv.includes('apply') && !c.argv.some((a) => a.startsWith('--dry-run')));
    expect(applies).toHaveLength(1);
    expect(applies[0].stdin).toMatch(/kind: KubeadmControlPlane[\s\S]*version: v1\.34\.1/);
    expect(obj(mgmt, 'MachineDeployment', 'demo-md-0')!.metadata.generation).toBe(mdGen + 1);
    const steps = r.steps!.map((s) => s.step);
    expect(steps.indexOf('control plane v1.34.1')).toBeGreaterThan(-1);
    expect(steps.indexOf('control plane v1.34.1')).toBeLessThan(steps.indexOf('add-on occm'));
    expect(steps).not.toContain('worker upgrade');
    // Every worker machine runs v1.34.1 on the new template.
    const machines = Object.values(mgmt.objects()).filter((o) => o.kind === 'Machine' && o.metadata.name.startsWith('demo-md-0'));
    expect(machines.map((m) => (m.spec as { version: string }).version)).toEqual(machines.map(() => 'v1.34.1'));
  }, T);

  it('a patch upgrade rolls the workers once (the MachineDeployment spec changes once)', async () => {
    await run(sb, mgmt, cloud, ['kubernetes_version=v1.33.2']);
    const mdGen = obj(mgmt, 'MachineDeployment', 'demo-md-0')!.metadata.generation!;
    await run(sb, mgmt, cloud, ['kubernetes_version=v1.33.4']);
    expect(obj(mgmt, 'MachineDeployment', 'demo-md-0')!.metadata.generation).toBe(mdGen + 1);
    expect((obj(mgmt, 'MachineDeployment', 'demo-md-0') as unknown as Spec).spec.template.spec.version).toBe('v1.33.4');
  }, T);

  it('a jump of two minors is refused before anything is applied, naming the versions to run in between', async () => {
    cloud.state.images.push('ubuntu-capi-image-v1.35.0');
    await run(sb, mgmt, cloud);
    const before = mgmt.mutations().length;
    await expect(run(sb, mgmt, cloud, ['kubernetes_version=v1.35.0'])).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('skips a minor version (v1.34.x)'),
      hint: expect.stringContaining('kubernetes_version=v1.34.x, then kubernetes_version=v1.35.0'),
    });
    expect(mgmt.mutations().slice(before)).toEqual([]);
  }, T);
});

describe('the server-side dry-run gate', () => {
  it('a refusal of the apiserver (the KubeadmControlPlane webhook: even replicas) is exit 2 with its words, and nothing is applied', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      const k = createKubectl(fakeRunner(mgmt, createProcessRunner()), { kubeconfig: sb.mgmt });
      const objects = parseDocuments(`apiVersion: v1
kind: Secret
metadata: {name: demo-cloud-config, namespace: default}
stringData: {clouds.yaml: "x"}
---
apiVersion: controlplane.cluster.x-k8s.io/v1beta2
kind: KubeadmControlPlane
metadata: {name: demo-control-plane, namespace: default}
spec:
  replicas: 2
  version: v1.33.4
  machineTemplate: {spec: {infrastructureRef: {apiGroup: infrastructure.cluster.x-k8s.io, kind: OpenStackMachineTemplate, name: t}}}
  kubeadmConfigSpec: {format: cloud-config}
`, 'test');
      await expect(serverDryRun(k, objects, 'cluster demo')).rejects.toMatchObject({
        exitCode: 2,
        message: 'the management cluster refuses cluster demo (server-side dry-run; nothing was applied)',
        problems: ['The KubeadmControlPlane "demo-control-plane" is invalid: spec.replicas: Forbidden: cannot be an even number when etcd is stacked'],
      });
      // The Secret before the refused object was not stored either.
      expect(mgmt.objects()['Secret/default/demo-cloud-config']).toBeUndefined();
      expect(mgmt.calls().map((c) => c.argv.slice(2))).toEqual([['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '--dry-run=server', '-f', '-']]);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('the API server\'s deprecation warning (a v1beta1 object) is not listed as part of the refusal', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      const k = createKubectl(fakeRunner(mgmt, createProcessRunner()), { kubeconfig: sb.mgmt });
      const objects = parseDocuments(`apiVersion: controlplane.cluster.x-k8s.io/v1beta1
kind: KubeadmControlPlane
metadata: {name: demo-control-plane, namespace: default}
spec:
  replicas: 2
  version: v1.33.4
  machineTemplate: {infrastructureRef: {apiVersion: infrastructure.cluster.x-k8s.io/v1beta1, kind: OpenStackMachineTemplate, name: t}}
  kubeadmConfigSpec: {}
`, 'test');
      const err = await serverDryRun(k, objects, 'cluster demo').catch((e: unknown) => e as { problems?: string[]; details?: unknown });
      expect(err).toMatchObject({ exitCode: 2, problems: ['The KubeadmControlPlane "demo-control-plane" is invalid: spec.replicas: Forbidden: cannot be an even number when etcd is stacked'] });
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('create-cluster runs the dry-run over every object before the first write on the cloud or the management cluster (the namespace aside)', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    const cloud = fakeCloud(exampleCloudState());
    try {
      const r = await createCluster(runOptions(sb), fakeDeps(mgmt, cloud));
      expect(r.steps!.map((s) => s.step).slice(0, 4)).toEqual(['management cluster', 'server dry-run', 'server groups', 'cluster objects']);
      const onMgmt = mgmt.calls().filter((c) => c.argv.includes(sb.mgmt));
      const dry = onMgmt.findIndex((c) => c.argv.includes('--dry-run=server'));
      const firstApply = onMgmt.findIndex((c) => c.argv.includes('apply') && !c.argv.includes('--dry-run=server'));
      expect(dry).toBeGreaterThan(-1);
      expect(dry).toBeLessThan(firstApply);
      expect(onMgmt[dry].stdin).toMatch(/kind: KubeadmControlPlane/);
      expect(onMgmt[dry].stdin).toMatch(/kind: OpenStackCluster/);
    } finally {
      mgmt.cleanup();
    }
  }, T);
});

describe('machine templates in use are found through the OpenStackMachines cloned from them', () => {
  it('referencedTemplates names the templates (annotation cluster.x-k8s.io/cloned-from-name), not the OpenStackMachines', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      await createCluster(runOptions(sb), fakeDeps(mgmt));
      const templates = Object.values(mgmt.objects()).filter((o) => o.kind === 'OpenStackMachineTemplate').map((o) => o.metadata.name).sort();
      const k = createKubectl(fakeRunner(mgmt, createProcessRunner()), { kubeconfig: sb.mgmt });
      expect([...(await referencedTemplates(k, 'demo', 'demo'))].sort()).toEqual(templates);
      // As in real CAPI, a Machine points at its OpenStackMachine.
      const machine = Object.values(mgmt.objects()).find((o) => o.kind === 'Machine')!;
      expect((machine.spec as { infrastructureRef: { kind: string } }).infrastructureRef.kind).toBe('OpenStackMachine');
    } finally {
      mgmt.cleanup();
    }
  }, T);
});
