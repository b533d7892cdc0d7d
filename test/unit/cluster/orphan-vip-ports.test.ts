import { OVN_VIP_PORT_PREFIX, orphanOvnPorts, orphanSweepNetwork, sweepOrphanOvnVipPorts } from '../../../lib/cluster/delete/cloud.js';
import type { ClusterCloud } from '../../../lib/cluster/cloud.js';
import { memoryLogger } from '../../../lib/log.js';

/**
 * The ovn provider's VIP ports a refused create left behind (found on the testbed's workload side: OCCM
 * told ovn without SOURCE_IP_PORT asks for ROUND_ROBIN, Octavia answers 501 after the provider made
 * `ovn-lb-vip-<LB id>`, OCCM retries). They keep the cluster network in use; CAPO's delete loops on 409.
 * Review 2026-11-27 n1/n2: exact names only (not a live LB's additional VIPs), the health-monitor
 * ports once no load balancer is left, and only on a network CAPO made.
 */
const NET = 'net-1';
const PROJECT = 'p-1';
const GONE = '0b5c1f2e-8d3a-4c1e-9f7a-2a6b3c4d5e6f';
const GONE2 = '7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const LIVE = '9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a';
const SUBNET = '3f2e1d0c-9b8a-4765-8432-10fedcba9876';
const port = (id: string, name: string, projectId = PROJECT) => ({ id, name, projectId });
const vip = (lb: string) => `${OVN_VIP_PORT_PREFIX}${lb}`;
const hm = `ovn-lb-hm-${SUBNET}`;

function cloud(ports: ReturnType<typeof port>[], lbs: { id: string; vipPortId?: string }[]): { c: ClusterCloud; deleted: string[] } {
  const deleted: string[] = [];
  const c = {
    projectId: PROJECT,
    loadBalancers: async () => lbs.map((l) => ({ ...l, name: `lb-${l.id}` })),
    portsOfNetwork: async (n: string) => (n === NET ? ports : []),
    deletePort: async (id: string) => { deleted.push(id); },
  } as unknown as ClusterCloud;
  return { c, deleted };
}

describe('sweepOrphanOvnVipPorts (delete-cluster, once no Machine is left)', () => {
  it.each([
    ['an orphan VIP port (its LB never existed) is deleted', [port('a', vip(GONE))], [], ['a']],
    ['the VIP port of a load balancer that exists stays (OCCM or the sweep deletes the LB, the provider its port)', [port('a', vip(LIVE))], [{ id: LIVE, vipPortId: 'a' }], []],
    ['other ports stay (CAPO deletes its own, named after the cluster)', [port('a', 'k8s-clusterapi-cluster-demo-demo-control-plane-x'), port('b', '')], [], []],
    ['another project\'s port stays (an admin token lists every project\'s)', [port('a', vip(GONE), 'p-2')], [], []],
    ['several orphans and a live one', [port('a', vip(GONE)), port('b', vip(LIVE)), port('c', vip(GONE2))], [{ id: LIVE, vipPortId: 'b' }], ['a', 'c']],
    // n1(a): before, the prefix matched and "additional-1-<id>" was never an LB id: the live LB's port went.
    ['a live load balancer\'s additional VIP port stays (ovn-lb-vip-additional-<n>-<LB id>)', [port('a', vip(LIVE)), port('b', `${OVN_VIP_PORT_PREFIX}additional-1-${LIVE}`)], [{ id: LIVE, vipPortId: 'a' }], []],
    ['a name that is no LB id stays', [port('a', vip('lb-gone'))], [], []],
    // n2: the provider's health-monitor port of the subnet blocks the network delete as a VIP port does.
    ['the health-monitor port goes once no load balancer has its VIP in the network', [port('a', vip(GONE)), port('h', hm)], [], ['a', 'h']],
    ['the health-monitor port stays while a load balancer is in the network (its monitors use it)', [port('a', vip(LIVE)), port('h', hm)], [{ id: LIVE, vipPortId: 'a' }], []],
    ['an amphora LB\'s VIP in the network keeps the health-monitor port too', [port('o', `octavia-lb-${LIVE}`), port('h', hm)], [{ id: LIVE, vipPortId: 'o' }], []],
  ] as const)('%s', async (_what, ports, lbs, want) => {
    const { c, deleted } = cloud([...ports], [...lbs]);
    const actions = await sweepOrphanOvnVipPorts(c, NET, memoryLogger());
    expect(deleted).toEqual(want);
    expect(actions).toHaveLength(want.length);
    for (const a of actions) expect(a).toMatch(/^port ovn-lb-(vip|hm)-[0-9a-f-]{36} \(\w+\): the ovn provider's (VIP port of a load balancer that does not exist|health-monitor port, no load balancer left in the network)$/);
  });

  it('only the cluster\'s network is looked at, and a cloud without port support does nothing', async () => {
    const { c, deleted } = cloud([port('a', vip(GONE))], []);
    expect(await sweepOrphanOvnVipPorts(c, 'other-net', memoryLogger())).toEqual([]);
    const bare = { ...c, portsOfNetwork: undefined, deletePort: undefined } as ClusterCloud;
    expect(await sweepOrphanOvnVipPorts(bare, NET, memoryLogger())).toEqual([]);
    expect(deleted).toEqual([]);
  });

  it('orphanOvnPorts is the same decision, pure', () => {
    expect(orphanOvnPorts([port('a', vip(GONE)), port('h', hm)], [{ id: LIVE }]).map((p) => p.id)).toEqual(['a', 'h']);
  });
});

describe('orphanSweepNetwork: only a network CAPO made (n1(c))', () => {
  it.each([
    ['CAPO made it (spec.managedSubnets)', { spec: { managedSubnets: [{ cidr: '10.8.0.0/20' }] }, status: { network: { id: NET } } }, NET],
    ['a network the cluster was given (no managedSubnets): another cluster\'s OCCM may be creating an LB there', { spec: { network: { id: NET } }, status: { network: { id: NET } } }, undefined],
    ['empty managedSubnets', { spec: { managedSubnets: [] }, status: { network: { id: NET } } }, undefined],
    ['no network in the status', { spec: { managedSubnets: [{ cidr: '10.8.0.0/20' }] }, status: {} }, undefined],
    ['no OpenStackCluster', undefined, undefined],
  ])('%s', (_what, osc, want) => expect(orphanSweepNetwork(osc as never)).toBe(want));
});
