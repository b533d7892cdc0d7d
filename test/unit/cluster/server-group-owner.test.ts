import { planCloudCleanup } from '../../../lib/cluster/delete/cloud.js';
import { machineServerId, serverGroupKept } from '../../../lib/cluster/delete/server-group-owner.js';
import { memoryLogger } from '../../../lib/log.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';

/**
 * Issue 31 §1: two environments with cluster `tb` in namespaces tb and staging-tb of one project meet at
 * kaas's server-group names (capi-tb-controller / -worker). Seen on the testbed (edge-envs): the
 * testbed cluster's delete plan listed staging's groups, though no template of Cluster tb/tb uses them.
 */
describe('server groups of kaas\'s names: whose are they', () => {
  const g = { id: 'sg-1', name: 'capi-tb-controller', members: ['srv-own'] };
  it.each([
    // group                                       owned                                                        kept because
    [g, { referenced: ['capi-tb-controller'], servers: ['srv-own'] }, undefined],
    [g, { referenced: ['sg-1'], servers: ['srv-own'] }, undefined], // referenced by id (SCS templates)
    [{ ...g, members: [] }, { referenced: ['capi-tb-controller'], servers: [] }, undefined], // after the delete: empty
    [g, { referenced: [], servers: ['srv-own'] }, /no machine template of Cluster ns\/tb uses it/],
    [{ ...g, members: [] }, { referenced: [], servers: [] }, /no machine template/], // another env's empty worker group
    [{ ...g, members: ['srv-own', 'srv-other'] }, { referenced: ['capi-tb-controller'], servers: ['srv-own'] }, /server srv-other in it is not Cluster ns\/tb's/],
    [{ ...g, members: ['srv-other'] }, { servers: [] }, /server srv-other in it is not/], // no Cluster: any server is another's
    [{ ...g, members: [] }, { servers: [] }, undefined], // no Cluster, empty group: taken as before
  ])('%j with %j: kept %p', (group, owned, kept) => {
    const why = serverGroupKept(group, owned, 'ns/tb');
    if (kept === undefined) expect(why).toBeUndefined();
    else expect(why).toMatch(kept);
  });

  it.each([
    [{ status: { instanceID: 'a1' }, spec: { providerID: 'openstack:///b2' } }, 'a1'],
    [{ spec: { providerID: 'openstack:///b2' } }, 'b2'],
    [{ spec: { providerID: 'openstack://RegionOne/c3' } }, 'c3'],
    [{}, undefined],
  ])('the server of OpenStackMachine %j: %p', (m, id) => {
    expect(machineServerId(m)).toBe(id);
  });

  it('delete-cluster\'s cloud plan takes only the groups the Cluster uses, and says why it keeps the others', async () => {
    const cloud = fakeCloud({
      ...exampleCloudState(),
      serverGroups: [
        { id: 'sg-c', name: 'capi-tb-controller', policy: 'anti-affinity', members: ['srv-staging'] },
        { id: 'sg-w', name: 'capi-tb-worker', policy: 'soft-anti-affinity', members: [] },
      ],
    });
    const logger = memoryLogger(false);
    // The testbed environment's Cluster tb/tb: anti_affinity off, its templates name no group.
    expect((await planCloudCleanup(cloud, 'tb', 'capi', 'tb', logger, 'tb', { referenced: [], servers: ['srv-tb'] })).filter((i) => i.kind === 'server group')).toEqual([]);
    expect(logger.lines.join('\n')).toMatch(/server group capi-tb-controller \(sg-c\) is kept: no machine template of Cluster tb\/tb uses it/);
    // Staging's own delete takes both.
    const staging = await planCloudCleanup(cloud, 'tb', 'capi', 'staging-tb', logger, 'staging-tb-tb', { referenced: ['capi-tb-controller', 'capi-tb-worker'], servers: ['srv-staging'] });
    expect(staging.filter((i) => i.kind === 'server group').map((i) => i.id)).toEqual(['sg-c', 'sg-w']);
  });
});
