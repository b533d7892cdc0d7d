import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { deleteCluster } from '../../../lib/cluster/delete/delete.js';
import { fakeManagementCluster, type FakeManagementCluster, type FakeObject } from '../../fakes/fake-tools.js';
import { exampleCloudState, persistentFakeCloud, type FakeCloudState } from './fake-cloud.js';
import { fakeClock, fakeDeps, R, runOptions, sandbox } from './scenario.js';
import { tempDir } from '../../support/temp.js';

/**
 * delete-cluster against a management cluster that deletes as Cluster API and CAPO v0.14 do: the
 * Cluster keeps its finalizer until the Machines are gone and CAPO could delete the network, which
 * Neutron refuses while an OCCM load balancer's VIP port is in it (the fake reads the fake cloud's
 * file for those ports). Before the fix these flows timed out (the deadlock of review B1) or
 * stopped at OCCM's wait; kaas now deletes OCCM's leftovers itself once no Machine is left.
 */
const T = 240_000;
const NS = 'demo';
const NETWORK = `k8s-clusterapi-cluster-${NS}-demo`;
const label = { 'cluster.x-k8s.io/cluster-name': 'demo' };

/** What a created cluster leaves on the management cluster (the kinds the deletion walks through). */
function clusterObjects(deleting?: string): FakeObject[] {
  const md = (kind: string, apiVersion: string, name: string, extra: Partial<FakeObject> = {}): FakeObject => ({ apiVersion, kind, metadata: { name, namespace: NS, labels: label }, ...extra });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: NS } },
    { ...md('Cluster', 'cluster.x-k8s.io/v1beta1', 'demo', { spec: { controlPlaneEndpoint: { host: '203.0.113.50', port: 6443 } }, status: { phase: deleting ? 'Deleting' : 'Provisioned' } }), metadata: { name: 'demo', namespace: NS, labels: label, ...(deleting ? { deletionTimestamp: deleting, finalizers: ['cluster.cluster.x-k8s.io'] } : {}) } },
    md('OpenStackCluster', 'infrastructure.cluster.x-k8s.io/v1beta1', 'demo'),
    ...(deleting ? [] : [
      md('KubeadmControlPlane', 'controlplane.cluster.x-k8s.io/v1beta1', 'demo-control-plane'),
      md('MachineDeployment', 'cluster.x-k8s.io/v1beta1', 'demo-md-0'),
      md('Machine', 'cluster.x-k8s.io/v1beta1', 'demo-control-plane-abcde'),
      md('Machine', 'cluster.x-k8s.io/v1beta1', 'demo-md-0-xyz12-fghij'),
    ]),
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo-kubeconfig', namespace: NS, labels: label }, data: { value: Buffer.from(readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`)).toString('base64') } },
  ];
}

/** OCCM left the ingress LB (with its floating IP) in the cluster network; another cluster and another project have theirs. */
function cloudState(): FakeCloudState {
  return {
    ...exampleCloudState(),
    projectId: 'p-demo',
    loadBalancers: [
      { id: 'lb-web', name: 'kube_service_demo_app_web', vipPortId: 'port-1', vipNetwork: NETWORK, status: 'ACTIVE', projectId: 'p-demo' },
      { id: 'lb-other', name: 'kube_service_other_app_web', vipPortId: 'port-3', vipNetwork: 'k8s-clusterapi-cluster-other-other', status: 'ACTIVE', projectId: 'p-demo' },
      // An admin token lists every project's: another tenant's cluster "demo" is not ours.
      { id: 'lb-foreign', name: 'kube_service_demo_app_web', vipPortId: 'port-9', vipNetwork: 'k8s-clusterapi-cluster-demo-demo', status: 'ACTIVE', projectId: 'p-foreign' },
    ],
    floatingIps: [{ id: 'fip-1', address: '203.0.113.71', portId: 'port-1', projectId: 'p-demo' }, { id: 'fip-9', address: '203.0.113.79', portId: 'port-9', projectId: 'p-foreign' }],
  };
}

describe('delete-cluster against a management cluster with finalizers and asynchronous deletion', () => {
  let sb: ReturnType<typeof sandbox>;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof persistentFakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    const file = path.join(tempDir('kaas-cloud-'), 'cloud.json');
    writeFileSync(file, JSON.stringify(cloudState()));
    cloud = persistentFakeCloud(file);
    mgmt = fakeManagementCluster(sb.mgmt, { cloudFile: file });
  });
  afterEach(() => mgmt.cleanup());

  const options = (timeouts: Record<string, number>) => ({ ...runOptions(sb), timeouts: { pollMs: 10_000, servicesSec: 30, clusterSec: 60, ...timeouts } });
  const clusters = () => Object.values(mgmt.objects()).filter((o) => o.kind === 'Cluster');

  it('workload cluster unreachable, OCCM load balancer left in the cluster network: the Cluster goes once kaas deletes the LB (was: timed out after clusterSec)', async () => {
    mgmt.seed(clusterObjects());
    mgmt.workloadReachable(false);
    const deps = fakeDeps(mgmt, cloud, fakeClock());
    const r = await deleteCluster(options({}), deps);
    expect(clusters()).toEqual([]);
    expect(Object.keys(mgmt.objects()).filter((k) => k.includes(`/${NS}/`))).toEqual([]);
    expect(cloud.state.loadBalancers.map((l) => l.id)).toEqual(['lb-other', 'lb-foreign']);
    expect(cloud.state.floatingIps.map((f) => f.id)).toEqual(['fip-9']);
    expect(cloud.log).toEqual(['delete floating ip fip-1', 'delete load balancer lb-web']);
    expect(r.actions).toEqual(expect.arrayContaining(['floating IP 203.0.113.71 of load balancer kube_service_demo_app_web', 'Octavia load balancer kube_service_demo_app_web (lb-web)']));
    // The Machines went first; only then did kaas touch OCCM's load balancers.
    expect(deps.logger.lines.join('\n')).toMatch(/the workload cluster cannot be reached/);
  }, T);

  it('OCCM does not delete the Service load balancers in time: a warning, then the same cleanup (was: delete-cluster stopped before deleting the Cluster)', async () => {
    mgmt.seed(clusterObjects());
    mgmt.seed([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } }], sb.workload);
    mkdirSync(path.dirname(sb.workload), { recursive: true });
    writeFileSync(sb.workload, readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'), { mode: 0o600 });
    const deps = fakeDeps(mgmt, cloud, fakeClock());
    await deleteCluster(options({}), deps);
    expect(deps.logger.lines.join('\n')).toMatch(/OCCM did not delete the Service load balancers \(service load balancers deleted by OCCM: not done within 30s.*kaas deletes them in the cloud once the Cluster's machines are gone/);
    expect(clusters()).toEqual([]);
    expect(cloud.state.loadBalancers.map((l) => l.id)).toEqual(['lb-other', 'lb-foreign']);
  }, T);

  it('a re-run converges: the Cluster already deleting, machines gone, one LB already PENDING_DELETE, the workload never contacted, the Cluster not deleted twice', async () => {
    mgmt.seed(clusterObjects('2026-11-24T12:00:00Z'));
    cloud.state.loadBalancers.unshift({ id: 'lb-half', name: 'kube_service_demo_kube-system_dns', vipPortId: 'port-2', vipNetwork: NETWORK, status: 'PENDING_DELETE', projectId: 'p-demo' });
    cloud.save();
    // Octavia finishes deleting it while kaas waits.
    const clock = fakeClock(() => {
      cloud.state.loadBalancers = cloud.state.loadBalancers.filter((l) => l.status !== 'PENDING_DELETE');
      cloud.save();
    });
    const deps = fakeDeps(mgmt, cloud, clock);
    await deleteCluster(options({}), deps);
    expect(clusters()).toEqual([]);
    expect(cloud.log).toEqual(['delete floating ip fip-1', 'delete load balancer lb-web']);
    expect(deps.logger.lines.join('\n')).toMatch(/the Cluster is already being deleted \(since 2026-11-24T12:00:00Z\)/);
    const argv = mgmt.calls().map((c) => c.argv.join(' '));
    expect(argv.filter((a) => a.includes(sb.workload))).toEqual([]);
    expect(argv.filter((a) => /^--kubeconfig \S+ delete clusters/.test(a))).toEqual([]);
    // And once more: nothing left, nothing done.
    const before = cloud.log.length;
    const again = await deleteCluster(options({}), fakeDeps(mgmt, cloud, fakeClock()));
    expect(again.actions.filter((a) => /Cluster|load balancer/.test(a))).toEqual([]);
    expect(cloud.log.length).toBe(before);
  }, T);
});
