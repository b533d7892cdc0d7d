import type { FakeObject } from '../../fakes/fake-tools.js';
import { exampleCloudState } from './fake-cloud.js';
import { flowScenario } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

describe('a floating kubernetes_version (vX.Y.x) is pinned to what the live cluster runs', () => {
  const flow = flowScenario(() => ({ ...exampleCloudState(), images: ['ubuntu-capi-image-v1.33.2'] }));
  const version = () => (flow.obj('KubeadmControlPlane', 'demo-control-plane')!.spec as { version: string }).version;

  it('a new patch image does not roll the machines on a re-run; --upgrade (or the full version) moves to it', async () => {
    await flow.run(['kubernetes_version=v1.33.x']);
    expect(version()).toBe('v1.33.2');
    flow.cloud.state.images.push('ubuntu-capi-image-v1.33.4');
    const before = flow.mgmt.mutations().filter((c) => c.argv.includes(flow.sb.mgmt)).length;
    const again = await flow.run(['kubernetes_version=v1.33.x', 'worker_count=2']);
    expect(again.kubernetesVersion).toBe('v1.33.2');
    expect(again.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
    expect(flow.mgmt.mutations().filter((c) => c.argv.includes(flow.sb.mgmt)).length).toBe(before);
    const up = await flow.run(['kubernetes_version=v1.33.x'], { upgrade: true });
    expect(up.kubernetesVersion).toBe('v1.33.4');
    expect(version()).toBe('v1.33.4');
  }, T);
});

describe('restrict_kubeapi switched on a live cluster keeps the API load balancer\'s provider', () => {
  const flow = flowScenario();
  const apiLb = () => (flow.obj('OpenStackCluster', 'demo')!.spec as { apiServerLoadBalancer: Record<string, unknown> }).apiServerLoadBalancer;

  /** What CAPO writes into the status once it created the API load balancer, and that LB in Octavia. */
  const lbCreated = (provider: string) => {
    const osc = flow.obj('OpenStackCluster', 'demo')!;
    flow.mgmt.seed([{ ...osc, status: { apiServerLoadBalancer: { id: 'lb-api-1', name: 'k8s-clusterapi-cluster-demo-demo-kubeapi' } } } as FakeObject]);
    flow.cloud.state.loadBalancers.push({ id: 'lb-api-1', name: 'k8s-clusterapi-cluster-demo-demo-kubeapi', provider });
  };

  it('open → restricted on an amphora LB: allowedCIDRs set in place, provider left as it is', async () => {
    await flow.run(['restrict_kubeapi=[]']);
    expect(apiLb().provider).toBeUndefined();
    lbCreated('amphora');
    await flow.run();
    expect(apiLb()).toEqual({ enabled: true, allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'] });
  }, T);

  it('open → restricted on an ovn LB is refused before anything is applied (CAPO would skip allowedCIDRs)', async () => {
    await flow.run(['restrict_kubeapi=[]']);
    lbCreated('ovn');
    const before = flow.mgmt.mutations().length;
    await expect(flow.run()).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/kube-API load balancer lb-api-1 uses the Octavia provider ovn, which has no VIP ACLs/),
      hint: expect.stringMatching(/keep restrict_kubeapi: \[\] for this cluster/),
    });
    expect(flow.mgmt.mutations().slice(before)).toEqual([]);
  }, T);

  it('restricted → open: allowedCIDRs removed in place, provider amphora kept', async () => {
    await flow.run();
    expect(apiLb().provider).toBe('amphora');
    await flow.run(['restrict_kubeapi=[]']);
    expect(apiLb()).toEqual({ enabled: true, provider: 'amphora' });
  }, T);
});
