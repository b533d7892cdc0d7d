import { classifyVersion } from '../../../lib/cluster/live/changes.js';
import { planConvergence } from '../../../lib/cluster/live/reconcile.js';
import type { LiveCluster } from '../../../lib/cluster/live/live.js';
import type { KubeObject } from '../../../lib/render/documents.js';

const names = { controlPlane: 'demo-control-plane', machineDeployment: 'demo-md-0' };
const kcp = (version: string, template: string): KubeObject => ({ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlane', metadata: { name: 'demo-control-plane', namespace: 'demo' }, spec: { replicas: 1, version, machineTemplate: { spec: { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackMachineTemplate', name: template } } } } });
const md = (version: string, template: string, replicas = 2): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'MachineDeployment', metadata: { name: 'demo-md-0', namespace: 'demo' }, spec: { replicas, template: { spec: { version, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackMachineTemplate', name: template } } } } });
const tpl = (name: string, flavor: string, image = 'img-1.33'): KubeObject => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', metadata: { name, namespace: 'demo' }, spec: { template: { spec: { flavor, image: { filter: { name: image } } } } } });
const cluster = (extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'demo', namespace: 'demo' }, spec: { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'demo-control-plane' }, infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackCluster', name: 'demo' }, ...extra } });
const live = (objects: KubeObject[]): LiveCluster => ({ namespace: 'demo', objects: new Map(objects.map((o) => [`${o.kind}/${o.metadata.name}`, o as never])) });

describe('planConvergence', () => {
  const liveObjects = [cluster(), kcp('v1.33.4', 'cp-old'), md('v1.33.4', 'w-old'), tpl('cp-old', 'f1'), tpl('w-old', 'f1')];

  it('nothing changed: live templates kept, every object unchanged', () => {
    const d = planConvergence([tpl('cp-new', 'f1'), tpl('w-new', 'f1'), kcp('v1.33.4', 'cp-new'), md('v1.33.4', 'w-new'), cluster()], live(liveObjects), 'demo', names);
    expect(d.ok && d.value.diffs.map((x) => `${x.action} ${x.kind}/${x.name}`)).toEqual([
      'unchanged OpenStackMachineTemplate/cp-old', 'unchanged OpenStackMachineTemplate/w-old',
      'unchanged KubeadmControlPlane/demo-control-plane', 'unchanged MachineDeployment/demo-md-0', 'unchanged Cluster/demo',
    ]);
    expect(d.ok && d.value.objects.map((o) => o.metadata.name)).toEqual(['demo-control-plane', 'demo-md-0', 'demo']);
  });

  it('a Kubernetes minor upgrade: control plane and workers in one apply, the workers on the new version with the new template (no hold)', () => {
    const d = planConvergence([tpl('cp-new', 'f1', 'img-1.34'), tpl('w-new', 'f1', 'img-1.34'), kcp('v1.34.1', 'cp-new'), md('v1.34.1', 'w-new'), cluster()], live(liveObjects), 'demo', names);
    if (!d.ok) throw new Error(d.refusals[0].message);
    const first = d.value.objects.find((o) => o.kind === 'MachineDeployment')!;
    // Held at v1.33 with the v1.34 image, CAPI's KubeadmVersionSkew preflight would block the workers for good.
    expect((first.spec as { template: { spec: { version: string; infrastructureRef: { name: string } } } }).template.spec).toMatchObject({ version: 'v1.34.1', infrastructureRef: { name: 'w-new' } });
    expect(d.value).not.toHaveProperty('later');
    expect(d.value.upgrade).toEqual({ from: 'v1.33.4', to: 'v1.34.1' });
    expect(d.value.replaced).toEqual([{ kind: 'OpenStackMachineTemplate', name: 'cp-old' }, { kind: 'OpenStackMachineTemplate', name: 'w-old' }]);
  });

  it('an upgrade a previous run started is still an upgrade while the control plane reports the old version', () => {
    const started = [cluster(), { ...kcp('v1.34.1', 'cp-new'), status: { version: 'v1.33.4' } }, md('v1.34.1', 'w-new'), tpl('cp-new', 'f1', 'img-1.34'), tpl('w-new', 'f1', 'img-1.34')];
    const d = planConvergence([tpl('cp-x', 'f1', 'img-1.34'), tpl('w-x', 'f1', 'img-1.34'), kcp('v1.34.1', 'cp-x'), md('v1.34.1', 'w-x'), cluster()], live(started as KubeObject[]), 'demo', names);
    expect(d.ok && d.value.upgrade).toEqual({ from: 'v1.33.4', to: 'v1.34.1' });
    const done = [cluster(), { ...kcp('v1.34.1', 'cp-new'), status: { version: 'v1.34.1' } }, md('v1.34.1', 'w-new'), tpl('cp-new', 'f1', 'img-1.34'), tpl('w-new', 'f1', 'img-1.34')];
    expect(planConvergence([tpl('cp-x', 'f1', 'img-1.34'), tpl('w-x', 'f1', 'img-1.34'), kcp('v1.34.1', 'cp-x'), md('v1.34.1', 'w-x'), cluster()], live(done as KubeObject[]), 'demo', names)).toMatchObject({ ok: true, value: { diffs: expect.any(Array) } });
    const after = planConvergence([tpl('cp-x', 'f1', 'img-1.34'), tpl('w-x', 'f1', 'img-1.34'), kcp('v1.34.1', 'cp-x'), md('v1.34.1', 'w-x'), cluster()], live(done as KubeObject[]), 'demo', names);
    expect(after.ok && after.value.upgrade).toBeUndefined();
  });

  it('refuses a skipped minor and a ClusterClass-managed cluster', () => {
    const skip = planConvergence([kcp('v1.35.0', 'cp-old'), md('v1.33.4', 'w-old'), cluster()], live(liveObjects), 'demo', names);
    expect(!skip.ok && skip.refusals[0]).toMatchObject({ message: expect.stringMatching(/skips a minor version \(v1\.34\.x\)/), hint: 'run create-cluster once per minor: kubernetes_version=v1.34.x, then kubernetes_version=v1.35.0' });
    const topo = planConvergence([cluster()], live([cluster({ topology: { class: 'demo' } })]), 'demo', names);
    expect(!topo.ok && topo.refusals[0].message).toMatch(/managed by a ClusterClass/);
  });

  it('refuses the next minor while the previous upgrade still rolls (spec v1.34, machines on v1.33): kubeadm would skip v1.34', () => {
    const rolling = [cluster(), { ...kcp('v1.34.1', 'cp-new'), status: { version: 'v1.33.4' } }, md('v1.34.1', 'w-new'), tpl('cp-new', 'f1', 'img-1.34'), tpl('w-new', 'f1', 'img-1.34')];
    const d = planConvergence([tpl('cp-x', 'f1', 'img-1.35'), tpl('w-x', 'f1', 'img-1.35'), kcp('v1.35.0', 'cp-x'), md('v1.35.0', 'w-x'), cluster()], live(rolling as KubeObject[]), 'demo', names);
    expect(!d.ok && d.refusals[0]).toMatchObject({
      message: 'KubeadmControlPlane demo-control-plane (its machines run v1.33.4): Kubernetes v1.33.4 → v1.35.0 skips a minor version (v1.34.x); kubeadm and Cluster API upgrade one minor at a time',
      hint: 'the upgrade to v1.34.1 is still rolling: run create-cluster with kubernetes_version=v1.34.1 until it finishes, then with kubernetes_version=v1.35.0',
    });
  });

  it('replicas change in place', () => {
    const d = planConvergence([tpl('w-new', 'f1'), md('v1.33.4', 'w-new', 5)], live(liveObjects), 'demo', names);
    expect(d.ok && d.value.diffs.find((x) => x.kind === 'MachineDeployment')).toMatchObject({ action: 'update', fields: [{ path: 'spec.replicas', live: 2, wanted: 5 }] });
  });
});

describe('classifyVersion: one minor at a time, as kubeadm and Cluster API upgrade', () => {
  it.each([
    ['v1.33.4', 'v1.33.4', 'unchanged', ''],
    ['v1.33.4', 'v1.33.6', 'upgrade', ''],
    ['v1.33.4', 'v1.34.1', 'upgrade', ''],
    ['v1.33.4', 'v1.35.0', 'refused', 'skips a minor version (v1.34.x); kubeadm and Cluster API upgrade one minor at a time|run create-cluster once per minor: kubernetes_version=v1.34.x, then kubernetes_version=v1.35.0'],
    ['v1.32.9', 'v1.35.2', 'refused', 'skips 2 minor versions (v1.33.x, v1.34.x); kubeadm and Cluster API upgrade one minor at a time|run create-cluster once per minor: kubernetes_version=v1.33.x, then kubernetes_version=v1.34.x, then kubernetes_version=v1.35.2'],
    ['v1.34.1', 'v1.33.9', 'refused', 'cannot be downgraded to v1.33.9|set kubernetes_version to v1.34.1 or newer'],
    ['v1.34.3', 'v1.34.1', 'refused', 'cannot be downgraded to v1.34.1|set kubernetes_version to v1.34.3 or newer'],
  ])('%s → %s: %s', (from, to, verdict, text) => {
    const d = classifyVersion('KubeadmControlPlane demo-control-plane', from, to);
    if (verdict === 'refused') {
      expect(d.ok).toBe(false);
      const [message, hint] = text.split('|');
      expect(!d.ok && d.refusals[0].message).toContain(message);
      expect(!d.ok && d.refusals[0].hint).toBe(hint);
    } else expect(d.ok && d.value).toBe(verdict);
  });
});
