import { deleteSteps } from '../../../lib/cluster/delete/delete.js';
import { inTokenProject, planCloudCleanup, sweepAction } from '../../../lib/cluster/delete/cloud.js';
import { memoryLogger } from '../../../lib/log.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';

describe('delete-cluster decisions', () => {
  it.each([
    // provisioning_status     what the sweep does
    ['ACTIVE', 'delete'],
    ['ERROR', 'delete'],
    [undefined, 'delete'],
    ['PENDING_CREATE', 'wait'], // Octavia answers 409 until it settles
    ['PENDING_UPDATE', 'wait'],
    ['PENDING_DELETE', 'wait'], // already being deleted
  ])('an OCCM load balancer in %s: %s', (status, action) => {
    expect(sweepAction(status)).toBe(action);
  });

  it.each([
    // resource project  token project  ours?
    ['p1', 'p1', true],
    ['p2', 'p1', false], // an admin token lists another tenant's: never deleted
    [undefined, 'p1', true], // the API did not say: listed with the project_id filter
    ['p2', undefined, true], // the token's project unknown: the server-side scope is all there is
  ])('a resource of project %s, token of project %s: ours %s', (resource, token, ours) => {
    expect(inTokenProject(resource, token)).toBe(ours);
  });

  it.each([
    [{ status: { phase: 'Provisioned' } }, { workload: true, deleteCluster: true }],
    [{ metadata: { deletionTimestamp: '2026-11-24T12:00:00Z' }, status: { phase: 'Deleting' } }, { workload: false, deleteCluster: false }],
  ])('a live Cluster %j: %j', (live, steps) => {
    expect(deleteSteps(live)).toMatchObject(steps);
  });

  it('the cloud cleanup plans nothing of another project, even under the same names', async () => {
    const cloud = fakeCloud({
      ...exampleCloudState(),
      projectId: 'p-demo',
      loadBalancers: [{ id: 'lb-1', name: 'kube_service_demo_app_web', vipPortId: 'port-1', projectId: 'p-demo' }, { id: 'lb-9', name: 'kube_service_demo_app_web', vipPortId: 'port-9', projectId: 'p-foreign' }],
      floatingIps: [{ id: 'fip-1', address: '203.0.113.1', portId: 'port-1' }, { id: 'fip-9', address: '203.0.113.9', portId: 'port-9', projectId: 'p-foreign' }],
      securityGroups: [{ id: 'sg-1', name: 'k8s-cluster-demo-demo-secgroup-worker', projectId: 'p-demo' }, { id: 'sg-9', name: 'k8s-cluster-demo-demo-secgroup-worker', projectId: 'p-foreign' }],
    });
    const plan = await planCloudCleanup(cloud, 'demo', 'capi', 'demo', memoryLogger(false));
    expect(plan.map((i) => i.id)).toEqual(['fip-1', 'lb-1', 'sg-1']);
  });
});
