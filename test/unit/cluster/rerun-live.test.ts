import { createCluster } from '../../../lib/cluster/create.js';
import { fakeManagementCluster, type FakeManagementCluster, type FakeObject } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

type Sb = ReturnType<typeof sandbox>;
const run = (sb: Sb, mgmt: FakeManagementCluster, cloud: ReturnType<typeof fakeCloud>, sets: string[] = [], extra: { dryRun?: boolean; upgrade?: boolean } = {}) => {
  const o = runOptions(sb, { dryRun: extra.dryRun });
  return createCluster({ ...o, sets: [...o.sets, ...sets], upgrade: extra.upgrade }, fakeDeps(mgmt, cloud));
};
const obj = (m: FakeManagementCluster, kind: string, name: string, ns = 'demo') => m.objects()[`${kind}/${ns}/${name}`];
const version = (m: FakeManagementCluster) => (obj(m, 'KubeadmControlPlane', 'demo-control-plane')!.spec as { version: string }).version;
const apiLb = (m: FakeManagementCluster) => (obj(m, 'OpenStackCluster', 'demo')!.spec as { apiServerLoadBalancer: Record<string, unknown> }).apiServerLoadBalancer;

describe('a floating kubernetes_version (vX.Y.x) is pinned to what the live cluster runs', () => {
  let sb: Sb;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof fakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    cloud = fakeCloud({ ...exampleCloudState(), images: ['ubuntu-capi-image-v1.33.2'] });
  });
  afterEach(() => mgmt.cleanup());

  it('a new patch image does not roll the machines on a re-run; --upgrade (or the full version) moves to it', async () => {
    await run(sb, mgmt, cloud, ['kubernetes_version=v1.33.x']);
    expect(version(mgmt)).toBe('v1.33.2');
    cloud.state.images.push('ubuntu-capi-image-v1.33.4');
    const before = mgmt.mutations().filter((c) => c.argv.includes(sb.mgmt)).length;
    const again = await run(sb, mgmt, cloud, ['kubernetes_version=v1.33.x', 'worker_count=2']);
    expect(again.kubernetesVersion).toBe('v1.33.2');
    expect(again.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
    expect(mgmt.mutations().filter((c) => c.argv.includes(sb.mgmt)).length).toBe(before);
    const up = await run(sb, mgmt, cloud, ['kubernetes_version=v1.33.x'], { upgrade: true });
    expect(up.kubernetesVersion).toBe('v1.33.4');
    expect(version(mgmt)).toBe('v1.33.4');
  }, T);
});

describe('restrict_kubeapi switched on a live cluster keeps the API load balancer\'s provider', () => {
  let sb: Sb;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof fakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    cloud = fakeCloud(exampleCloudState());
  });
  afterEach(() => mgmt.cleanup());

  /** What CAPO writes into the status once it created the API load balancer, and that LB in Octavia. */
  const lbCreated = (provider: string) => {
    const osc = obj(mgmt, 'OpenStackCluster', 'demo')!;
    mgmt.seed([{ ...osc, status: { apiServerLoadBalancer: { id: 'lb-api-1', name: 'k8s-clusterapi-cluster-demo-demo-kubeapi' } } } as FakeObject]);
    cloud.state.loadBalancers.push({ id: 'lb-api-1', name: 'k8s-clusterapi-cluster-demo-demo-kubeapi', provider });
  };

  it('open → restricted on an amphora LB: allowedCIDRs set in place, provider left as it is', async () => {
    await run(sb, mgmt, cloud, ['restrict_kubeapi=[]']);
    expect(apiLb(mgmt).provider).toBeUndefined();
    lbCreated('amphora');
    await run(sb, mgmt, cloud);
    expect(apiLb(mgmt)).toEqual({ enabled: true, allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'] });
  }, T);

  it('open → restricted on an ovn LB is refused before anything is applied (CAPO would skip allowedCIDRs)', async () => {
    await run(sb, mgmt, cloud, ['restrict_kubeapi=[]']);
    lbCreated('ovn');
    const before = mgmt.mutations().length;
    await expect(run(sb, mgmt, cloud)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/kube-API load balancer lb-api-1 uses the Octavia provider ovn, which has no VIP ACLs/),
      hint: expect.stringMatching(/keep restrict_kubeapi: \[\] for this cluster/),
    });
    expect(mgmt.mutations().slice(before)).toEqual([]);
  }, T);

  it('restricted → open: allowedCIDRs removed in place, provider amphora kept', async () => {
    await run(sb, mgmt, cloud);
    expect(apiLb(mgmt).provider).toBe('amphora');
    await run(sb, mgmt, cloud, ['restrict_kubeapi=[]']);
    expect(apiLb(mgmt)).toEqual({ enabled: true, provider: 'amphora' });
  }, T);
});
