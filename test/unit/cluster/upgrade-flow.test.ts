import { referencedTemplates } from '../../../lib/cluster/live/live.js';
import { serverDryRun } from '../../../lib/cluster/mgmt.js';
import { createProcessRunner } from '../../../lib/exec/runner.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { parseDocuments } from '../../../lib/render/documents.js';
import { fakeRunner } from '../../fakes/fake-tools.js';
import { exampleCloudState } from './fake-cloud.js';
import { flowScenario } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

type Spec = { spec: { version?: string; replicas?: number; template: { spec: { version: string; infrastructureRef: { name: string } } } } };

/** Short machine waits: a rollout the fake's controllers cannot finish fails in a few polls instead of 15 minutes. */
const SHORT = { timeouts: { pollMs: 10_000, machinesSec: 120 } };

describe('Kubernetes upgrades against a management cluster with CAPI v1.12 MachineSet preflight checks', () => {
  const flow = flowScenario(() => ({ ...exampleCloudState(), images: [...exampleCloudState().images, 'ubuntu-capi-image-v1.34.1'] }));

  it('a minor upgrade applies control plane and workers once, together; the workers roll once; version-following add-ons wait for the new control plane', async () => {
    await flow.run([], SHORT);
    const before = flow.mgmt.calls().length;
    const mdGen = flow.obj('MachineDeployment', 'demo-md-0')!.metadata.generation!;
    const r = await flow.run(['kubernetes_version=v1.34.1'], SHORT);
    const md = flow.obj('MachineDeployment', 'demo-md-0') as unknown as Spec;
    expect(md.spec.template.spec.version).toBe('v1.34.1');
    expect((flow.obj('KubeadmControlPlane', 'demo-control-plane') as unknown as Spec).spec.version).toBe('v1.34.1');
    // One real apply on the management cluster carries both; the workers' spec changes once.
    const applies = flow.mgmt.calls().slice(before).filter((c) => c.argv.includes(flow.sb.mgmt) && c.argv.includes('apply') && !c.argv.some((a) => a.startsWith('--dry-run')));
    expect(applies).toHaveLength(1);
    expect(applies[0].stdin).toMatch(/kind: KubeadmControlPlane[\s\S]*version: v1\.34\.1/);
    expect(flow.obj('MachineDeployment', 'demo-md-0')!.metadata.generation).toBe(mdGen + 1);
    const steps = r.steps!.map((s) => s.step);
    expect(steps.indexOf('control plane v1.34.1')).toBeGreaterThan(-1);
    expect(steps.indexOf('control plane v1.34.1')).toBeLessThan(steps.indexOf('add-on occm'));
    expect(steps).not.toContain('worker upgrade');
    // Every worker machine runs v1.34.1 on the new template.
    const machines = Object.values(flow.mgmt.objects()).filter((o) => o.kind === 'Machine' && o.metadata.name.startsWith('demo-md-0'));
    expect(machines.map((m) => (m.spec as { version: string }).version)).toEqual(machines.map(() => 'v1.34.1'));
  }, T);

  it('a patch upgrade rolls the workers once (the MachineDeployment spec changes once)', async () => {
    await flow.run(['kubernetes_version=v1.33.2'], SHORT);
    const mdGen = flow.obj('MachineDeployment', 'demo-md-0')!.metadata.generation!;
    await flow.run(['kubernetes_version=v1.33.4'], SHORT);
    expect(flow.obj('MachineDeployment', 'demo-md-0')!.metadata.generation).toBe(mdGen + 1);
    expect((flow.obj('MachineDeployment', 'demo-md-0') as unknown as Spec).spec.template.spec.version).toBe('v1.33.4');
  }, T);

  it('a jump of two minors is refused before anything is applied, naming the versions to run in between', async () => {
    flow.cloud.state.images.push('ubuntu-capi-image-v1.35.0');
    await flow.run([], SHORT);
    const before = flow.mgmt.mutations().length;
    await expect(flow.run(['kubernetes_version=v1.35.0'], SHORT)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringContaining('skips a minor version (v1.34.x)'),
      hint: expect.stringContaining('kubernetes_version=v1.34.x, then kubernetes_version=v1.35.0'),
    });
    expect(flow.mgmt.mutations().slice(before)).toEqual([]);
  }, T);
});

describe('the server-side dry-run gate', () => {
  const flow = flowScenario();
  it('a refusal of the apiserver (the KubeadmControlPlane webhook: even replicas) is exit 2 with its words, and nothing is applied', async () => {
    const { sb, mgmt } = flow;
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
  }, T);

  it('the API server\'s deprecation warning (a v1beta1 object) is not listed as part of the refusal', async () => {
    const { sb, mgmt } = flow;
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
  }, T);

  it('create-cluster runs the dry-run over every object before the first write on the cloud or the management cluster (the namespace aside)', async () => {
    const { sb, mgmt } = flow;
    const r = await flow.run();
    expect(r.steps!.map((s) => s.step).slice(0, 4)).toEqual(['management cluster', 'server dry-run', 'server groups', 'cluster objects']);
    const onMgmt = mgmt.calls().filter((c) => c.argv.includes(sb.mgmt));
    const dry = onMgmt.findIndex((c) => c.argv.includes('--dry-run=server'));
    const firstApply = onMgmt.findIndex((c) => c.argv.includes('apply') && !c.argv.includes('--dry-run=server'));
    expect(dry).toBeGreaterThan(-1);
    expect(dry).toBeLessThan(firstApply);
    expect(onMgmt[dry].stdin).toMatch(/kind: KubeadmControlPlane/);
    expect(onMgmt[dry].stdin).toMatch(/kind: OpenStackCluster/);
  }, T);
});

describe('machine templates in use are found through the OpenStackMachines cloned from them', () => {
  const flow = flowScenario();
  it('referencedTemplates names the templates (annotation cluster.x-k8s.io/cloned-from-name), not the OpenStackMachines', async () => {
    const { sb, mgmt } = flow;
    await flow.run();
    const templates = Object.values(mgmt.objects()).filter((o) => o.kind === 'OpenStackMachineTemplate').map((o) => o.metadata.name).sort();
    const k = createKubectl(fakeRunner(mgmt, createProcessRunner()), { kubeconfig: sb.mgmt });
    expect([...(await referencedTemplates(k, 'demo', 'demo'))].sort()).toEqual(templates);
    // As in real CAPI, a Machine points at its OpenStackMachine.
    const machine = Object.values(mgmt.objects()).find((o) => o.kind === 'Machine')!;
    expect((machine.spec as { infrastructureRef: { kind: string } }).infrastructureRef.kind).toBe('OpenStackMachine');
  }, T);
});
