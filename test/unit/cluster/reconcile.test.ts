import { planConvergence } from '../../../lib/cluster/reconcile.js';
import type { LiveCluster } from '../../../lib/cluster/live.js';
import type { KubeObject } from '../../../lib/render/documents.js';

const names = { controlPlane: 'demo-control-plane', machineDeployment: 'demo-md-0' };
const kcp = (version: string, template: string): KubeObject => ({ apiVersion: 'controlplane.cluster.x-k8s.io/v1beta1', kind: 'KubeadmControlPlane', metadata: { name: 'demo-control-plane', namespace: 'demo' }, spec: { replicas: 1, version, machineTemplate: { infrastructureRef: { kind: 'OpenStackMachineTemplate', name: template } } } });
const md = (version: string, template: string, replicas = 2): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'MachineDeployment', metadata: { name: 'demo-md-0', namespace: 'demo' }, spec: { replicas, template: { spec: { version, infrastructureRef: { kind: 'OpenStackMachineTemplate', name: template } } } } });
const tpl = (name: string, flavor: string, image = 'img-1.33'): KubeObject => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', metadata: { name, namespace: 'demo' }, spec: { template: { spec: { flavor, image: { filter: { name: image } } } } } });
const cluster = (extra: Record<string, unknown> = {}): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'demo', namespace: 'demo' }, spec: { controlPlaneRef: { kind: 'KubeadmControlPlane', name: 'demo-control-plane' }, infrastructureRef: { kind: 'OpenStackCluster', name: 'demo' }, ...extra } });
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

  it('a Kubernetes minor upgrade: control plane and its template now, the workers after the control plane', () => {
    const d = planConvergence([tpl('cp-new', 'f1', 'img-1.34'), tpl('w-new', 'f1', 'img-1.34'), kcp('v1.34.1', 'cp-new'), md('v1.34.1', 'w-new'), cluster()], live(liveObjects), 'demo', names);
    if (!d.ok) throw new Error(d.refusals[0].message);
    const first = d.value.objects.find((o) => o.kind === 'MachineDeployment')!;
    expect((first.spec as { template: { spec: { version: string } } }).template.spec.version).toBe('v1.33.4');
    expect(d.value.later.map((o) => (o.spec as { template: { spec: { version: string } } }).template.spec.version)).toEqual(['v1.34.1']);
    expect(d.value.replaced).toEqual([{ kind: 'OpenStackMachineTemplate', name: 'cp-old' }, { kind: 'OpenStackMachineTemplate', name: 'w-old' }]);
  });

  it('refuses a skipped minor and a ClusterClass-managed cluster', () => {
    const skip = planConvergence([kcp('v1.35.0', 'cp-old'), md('v1.33.4', 'w-old'), cluster()], live(liveObjects), 'demo', names);
    expect(!skip.ok && skip.refusals[0].message).toMatch(/skips a minor version/);
    const topo = planConvergence([cluster()], live([cluster({ topology: { class: 'demo' } })]), 'demo', names);
    expect(!topo.ok && topo.refusals[0].message).toMatch(/managed by a ClusterClass/);
  });

  it('replicas change in place', () => {
    const d = planConvergence([tpl('w-new', 'f1'), md('v1.33.4', 'w-new', 5)], live(liveObjects), 'demo', names);
    expect(d.ok && d.value.diffs.find((x) => x.kind === 'MachineDeployment')).toMatchObject({ action: 'update', fields: [{ path: 'spec.replicas', live: 2, wanted: 5 }] });
  });
});
