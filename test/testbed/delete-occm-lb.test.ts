/**
 * Issue 20 item 4, delete-cluster with real finalizers and asynchronous deletion while a load balancer
 * of the kind OCCM creates is still there (review B1): a `kube_service_<cluster>_default_web` Octavia
 * LB with its VIP port in the cluster subnet and a floating IP on it, as OCCM leaves one when the
 * workload cluster cannot be reached to delete its Services. CAPO's reconcileDelete cannot remove the
 * router interface nor the network while that VIP port and FIP are there; kaas must still finish and
 * leave nothing in Neutron, Octavia and Nova (counted against the project's state before the test).
 */
import { capoResources, createOccmLoadBalancer, openstack, type CloudCounts } from './openstack.js';
import { getObject, kaas, kaasDelete, kaasUser, leakedSecrets, RES, tail, until, type KaasUser } from './support.js';

const CLUSTER = 'tbdelete';
const NS = CLUSTER;
let u: KaasUser;
let baseline: CloudCounts;
let occmLb: { lbId: string; fipId: string } | undefined;

beforeAll(async () => {
  u = kaasUser();
  const os = await openstack();
  baseline = await os.counts();
  const r = await kaas(u, ['create-cluster', CLUSTER, '--no-wait', '--new-cluster']);
  if (r.code !== 0) throw new Error(`create-cluster ${CLUSTER} failed: ${tail(r)}`);
  const osc = await until('OpenStackCluster ready with network and API load balancer', 900_000, async () => {
    const o = await getObject(RES.openStackCluster, CLUSTER, NS);
    return o?.status?.ready === true && o.status.apiServerLoadBalancer?.id && o.status.network?.subnets?.length ? o : undefined;
  }, 5000);
  occmLb = await createOccmLoadBalancer(os, CLUSTER, osc.status.network.subnets[0].id, osc.status.externalNetwork.id);
}, 1_500_000);

afterAll(async () => {
  // Whatever the outcome, leave the testbed clean for the next file: the OCCM-style LB and FIP by hand
  // (what unblocks CAPO), then the cluster.
  const os = await openstack();
  if (occmLb) {
    await os.send('network', 'DELETE', `/floatingips/${occmLb.fipId}`);
    await os.send('load-balancer', 'DELETE', `/lbaas/loadbalancers/${occmLb.lbId}?cascade=true`);
  }
  if ((await getObject(RES.cluster, CLUSTER, NS)) !== undefined) {
    const r = await kaasDelete(u, CLUSTER, 1_200_000);
    if (r.code !== 0) process.stderr.write(`cleanup: delete-cluster ${CLUSTER}: ${tail(r)}\n`);
  }
}, 1_500_000);

describe('delete-cluster with a leftover OCCM load balancer in the cluster subnet', () => {
  test('the OCCM-style load balancer and its floating IP sit in the cluster subnet', async () => {
    const os = await openstack();
    const lbs = (await os.get('load-balancer', `/lbaas/loadbalancers?project_id=${os.projectId}`)).loadbalancers as { name: string; vip_subnet_id: string }[];
    const osc = await getObject(RES.openStackCluster, CLUSTER, NS);
    expect(lbs.filter((l) => l.name === `kube_service_${CLUSTER}_default_web`).map((l) => l.vip_subnet_id)).toEqual([osc!.status.network.subnets[0].id]);
  });

  test('delete-cluster finishes and leaves nothing in Neutron, Octavia and Nova', async () => {
    // A bounded deadline, not kaas's own 30 min: CAPO deletes a cluster in ~80 s on the testbed, or is blocked for ever.
    const r = await kaas(u, ['delete-cluster', CLUSTER, '--yes'], { timeoutMs: 480_000 });
    // Before the B1 fix kaas deletes the Cluster first and waits up to 1800 s for it while CAPO fails to
    // remove the router interface and the network (the LB's VIP port and FIP hold them): killed here.
    expect({ code: r.code, timedOut: r.timedOut, out: r.code === 0 ? '' : tail(r) }).toEqual({ code: 0, timedOut: false, out: '' });
    expect(await getObject(RES.cluster, CLUSTER, NS)).toBeUndefined();
    const os = await openstack();
    expect(await os.counts()).toEqual(baseline);
    const got = await capoResources(os, NS, CLUSTER);
    expect({ ...got }).toEqual({ networks: [], subnets: [], routers: [], sgs: [], lbs: [], apiFips: [], servers: [] });
    occmLb = undefined;
  });

  test('no secret of the peer appears in anything kaas printed', () => {
    expect(leakedSecrets(u)).toEqual([]);
  });
});
