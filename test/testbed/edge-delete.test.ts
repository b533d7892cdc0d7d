/**
 * Deletion for real: the edge removal and `kaas delete-cluster`'s workload part (Services first) leave no
 * load balancer, listener, pool, member, health monitor or floating IP of the cluster behind in the
 * peer — counted in Octavia and Neutron with the independent reader. Destroys the testbed's cluster:
 * run it last and on its own (`run.js edge-delete`).
 */
import { jest } from '@jest/globals';
import { applyEdge, kaas, lbName, note, removeIngress, testbed, until, wk, type Testbed } from './workload-support.js';

jest.setTimeout(40 * 60_000);

let tb: Testbed;
const prefix = () => `kube_service_${tb.occmName}_`;

beforeAll(() => { tb = testbed(); });

test('edge removal: deleting the ingress leaves nothing of its LB behind', async () => {
  await applyEdge(tb, 'delete-edge', { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true' }, { full: false, command: 'apply-ingress' });
  await until('the ingress LB ACTIVE', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, 'ingress-nginx', 'ingress-nginx-controller')))[0]?.provisioning_status === 'ACTIVE');
  const during = await tb.os.counts(prefix());
  note(tb, `edge removal: before ${JSON.stringify(during)}`);
  expect(during).toMatchObject({ loadbalancers: 1, listeners: 2, pools: 2, members: 4, healthmonitors: 2, floatingips: 1 });
  await removeIngress(tb);
  const after = await until('OCCM to delete everything', 300_000, async () => {
    const c = await tb.os.counts(prefix());
    return Object.values(c).every((n) => n === 0) ? c : undefined;
  });
  expect(after).toEqual({ loadbalancers: 0, listeners: 0, pools: 0, members: 0, healthmonitors: 0, floatingips: 0 });
});

test('delete-cluster: the ingress, the Gateway and a user LoadBalancer Service first, then the cluster; nothing left in Octavia/Neutron', async () => {
  const edge = { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true' };
  await applyEdge(tb, 'delete-cluster', edge, { full: false, command: 'apply-ingress' });
  // The Gateway's envoy Service (Envoy Gateway's controller runs on the testbed) gets its own LB.
  await applyEdge(tb, 'delete-cluster-gateway', { ...edge, deploy_gateway: 'true' }, { full: false, command: 'apply-gateway' });
  wk(tb, ['create', 'namespace', 'user-app']);
  wk(tb, ['-n', 'user-app', 'create', 'service', 'loadbalancer', 'web', '--tcp', '80:8080']);
  await until('the three LBs ACTIVE with floating IPs', 900_000, async () => {
    const c = await tb.os.counts(prefix());
    return c.loadbalancers === 3 && c.floatingips === 3 ? c : undefined;
  });
  const r = kaas(tb, ['delete-cluster', tb.cluster, '--yes'], { timeoutMs: 35 * 60_000 });
  note(tb, `delete-cluster exit ${r.code} in ${r.ms} ms\n${r.stderr.slice(-5000)}`);
  expect(r.code).toBe(0);
  const left = await tb.os.counts(prefix());
  expect(left).toEqual({ loadbalancers: 0, listeners: 0, pools: 0, members: 0, healthmonitors: 0, floatingips: 0 });
  // The ovn provider's VIP ports that edge-failures' refused creates left on the cluster network were
  // deleted by kaas (the network is gone with the cluster: CAPO's delete would have looped on them).
  if (/port ovn-lb-vip-/.test(r.stderr + r.stdout)) expect(r.stderr + r.stdout).toMatch(/the ovn provider's VIP port of a load balancer that does not exist/);
  // The kube-API LB (CAPO's) is gone with the cluster too.
  expect((await tb.os.loadBalancers()).filter((l) => l.name.startsWith(`k8s-clusterapi-cluster-`) && l.name.includes(`-${tb.cluster}-`))).toEqual([]);
});
