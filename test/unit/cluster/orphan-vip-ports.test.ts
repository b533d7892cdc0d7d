import { OVN_VIP_PORT_PREFIX, sweepOrphanOvnVipPorts } from '../../../lib/cluster/delete-cloud.js';
import type { ClusterCloud } from '../../../lib/cluster/cloud.js';
import { memoryLogger } from '../../../lib/log.js';

/**
 * The ovn provider's VIP ports a refused create left behind (found on the testbed's workload side: OCCM
 * told ovn without SOURCE_IP_PORT asks for ROUND_ROBIN, Octavia answers 501 after the provider made
 * `ovn-lb-vip-<LB id>`, OCCM retries). They keep the cluster network in use; CAPO's delete loops on 409.
 */
const NET = 'net-1';
const PROJECT = 'p-1';
const port = (id: string, name: string, projectId = PROJECT) => ({ id, name, projectId });

function cloud(ports: ReturnType<typeof port>[], lbIds: string[]): { c: ClusterCloud; deleted: string[] } {
  const deleted: string[] = [];
  const c = {
    projectId: PROJECT,
    loadBalancers: async () => lbIds.map((id) => ({ id, name: `lb-${id}` })),
    portsOfNetwork: async (n: string) => (n === NET ? ports : []),
    deletePort: async (id: string) => { deleted.push(id); },
  } as unknown as ClusterCloud;
  return { c, deleted };
}

describe('sweepOrphanOvnVipPorts (delete-cluster, once no Machine is left)', () => {
  it.each([
    ['an orphan VIP port (its LB never existed) is deleted', [port('a', `${OVN_VIP_PORT_PREFIX}lb-gone`)], [], ['a']],
    ['the VIP port of a load balancer that exists stays (OCCM or the sweep deletes the LB, the provider its port)', [port('a', `${OVN_VIP_PORT_PREFIX}lb-1`)], ['lb-1'], []],
    ['other ports stay (CAPO deletes its own, named after the cluster)', [port('a', 'k8s-clusterapi-cluster-demo-demo-control-plane-x'), port('b', '')], [], []],
    ['another project\'s port stays (an admin token lists every project\'s)', [port('a', `${OVN_VIP_PORT_PREFIX}lb-gone`, 'p-2')], [], []],
    ['several orphans and a live one', [port('a', `${OVN_VIP_PORT_PREFIX}x`), port('b', `${OVN_VIP_PORT_PREFIX}lb-1`), port('c', `${OVN_VIP_PORT_PREFIX}y`)], ['lb-1'], ['a', 'c']],
  ] as const)('%s', async (_what, ports, lbs, want) => {
    const { c, deleted } = cloud([...ports], [...lbs]);
    const actions = await sweepOrphanOvnVipPorts(c, NET, memoryLogger());
    expect(deleted).toEqual(want);
    expect(actions).toHaveLength(want.length);
    for (const a of actions) expect(a).toMatch(/^port ovn-lb-vip-\S+ \(\w+\): the ovn provider's VIP port of a load balancer that does not exist$/);
  });

  it('only the cluster\'s network is looked at, and a cloud without port support does nothing', async () => {
    const { c, deleted } = cloud([port('a', `${OVN_VIP_PORT_PREFIX}lb-gone`)], []);
    expect(await sweepOrphanOvnVipPorts(c, 'other-net', memoryLogger())).toEqual([]);
    const bare = { ...c, portsOfNetwork: undefined, deletePort: undefined } as ClusterCloud;
    expect(await sweepOrphanOvnVipPorts(bare, NET, memoryLogger())).toEqual([]);
    expect(deleted).toEqual([]);
  });
});
