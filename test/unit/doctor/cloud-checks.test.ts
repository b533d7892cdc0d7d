import { clusterNames } from '../../../lib/plan/cluster-model.js';
import type { Check } from '../../../lib/checks/check.js';
import {
  fipUnattached, lbError, lbRecreationLoop, lbStuckPending, ovnListenerAllowedCidrs, ovnPoolAlgorithm, ovnPoolMonitorType, quotaHeadroom,
} from '../../../lib/checks/cloud-checks.js';
import { quotaNeeds } from '../../../lib/checks/quota-needs.js';
import { cloud, input, lb } from './inputs.js';

const ING = 'kube_service_demo_ingress-nginx_ingress-nginx-controller';
const API = 'k8s-clusterapi-cluster-default-demo-kubeapi';
const ING_EDGE = { name: 'ingress-nginx', ports: 2, monitored: true };
const GW_EDGE = { name: 'gateway', ports: 1, monitored: true };
const run = (c: Check, i: ReturnType<typeof input>) => c.run(i).map((f) => `${f.check} ${f.severity} ${f.resource.type} ${f.resource.name}`);

describe('cloud-side checks', () => {
  it.each([
    ['ERROR LB of the cluster', [lb(ING, { provisioning_status: 'ERROR' })], [`lb-error error loadbalancer ${ING}`]],
    ['ERROR kube-API LB (CAPO name)', [lb(API, { provisioning_status: 'ERROR' })], [`lb-error error loadbalancer ${API}`]],
    ['ERROR LB of another cluster', [lb('kube_service_other_ns_svc', { provisioning_status: 'ERROR' })], []],
    ['ERROR LB not made by OCCM/CAPO', [lb('my-own-lb', { provisioning_status: 'ERROR' })], []],
    ['ACTIVE LB', [lb(ING)], []],
  ])('lb-error: %s', (_, loadBalancers, want) => {
    expect(run(lbError, input({ cloud: cloud({ loadBalancers }) }))).toEqual(want);
  });

  it.each([
    ['PENDING_CREATE for 59 minutes, threshold 10m', { provisioning_status: 'PENDING_CREATE', updated_at: '2026-05-01T11:01:00' }, 600, 1],
    ['PENDING_UPDATE for 5 minutes, threshold 10m', { provisioning_status: 'PENDING_UPDATE', updated_at: '2026-05-01T11:55:00' }, 600, 0],
    ['PENDING_UPDATE for 5 minutes, threshold 60s', { provisioning_status: 'PENDING_UPDATE', updated_at: '2026-05-01T11:55:00' }, 60, 1],
    ['no updated_at: created_at counts', { provisioning_status: 'PENDING_DELETE', updated_at: null, created_at: '2026-05-01T10:00:00' }, 600, 1],
    ['ACTIVE for hours', { provisioning_status: 'ACTIVE', updated_at: '2026-04-01T00:00:00' }, 600, 0],
  ])('lb-stuck-pending: %s', (_, over, stuckAfterSec, n) => {
    const f = lbStuckPending.run(input({ stuckAfterSec, cloud: cloud({ loadBalancers: [lb(ING, over)] }) }));
    expect(f).toHaveLength(n);
    if (n) expect(f[0].message).toMatch(/has been PENDING_\w+ for \d+ (minutes|seconds)/);
  });

  it.each([
    ['two OVN LBs with one Service name', [lb(ING, { id: 'a', provider: 'ovn' }), lb(ING, { id: 'b', provider: 'ovn' })], /refuses the HTTP health monitor/],
    ['three amphora LBs with one Service name', [lb(ING, { id: 'a' }), lb(ING, { id: 'b' }), lb(ING, { id: 'c' })], /again and again/],
  ])('lb-recreation-loop: %s', (_, loadBalancers, why) => {
    const f = lbRecreationLoop.run(input({ cloud: cloud({ loadBalancers }) }));
    expect(f).toHaveLength(1);
    expect(f[0].message).toMatch(why);
    expect(f[0].resource.id).toBe(loadBalancers.map((l) => l.id).join(','));
    expect(f[0].fix).toContain(`openstack loadbalancer delete --cascade ${loadBalancers[1].id}`);
  });

  it('lb-recreation-loop: one LB per name is fine, and so are two CAPO-less names', () => {
    expect(lbRecreationLoop.run(input({ cloud: cloud({ loadBalancers: [lb(ING), lb('kube_service_demo_app_web')] }) }))).toEqual([]);
  });

  const ovnLb = lb(ING, { provider: 'ovn' });
  const pool = (over: object) => ({ id: 'pool1', name: 'pool_0', protocol: 'TCP', lb_algorithm: 'SOURCE_IP_PORT', loadbalancers: [{ id: ovnLb.id }], ...over });
  it.each([
    ['OVN pool with HTTP monitor', ovnLb, 'HTTP', 1],
    ['OVN pool with HTTPS monitor', ovnLb, 'HTTPS', 1],
    ['OVN pool with TCP monitor', ovnLb, 'TCP', 0],
    ['amphora pool with HTTP monitor', lb(ING), 'HTTP', 0],
  ])('ovn-pool-monitor-type: %s', (_, theLb, type, n) => {
    const c = cloud({ loadBalancers: [theLb], pools: [pool({ healthmonitor_id: 'hm1', loadbalancers: [{ id: theLb.id }] })], healthMonitors: [{ id: 'hm1', type, pools: [{ id: 'pool1' }] }] });
    expect(ovnPoolMonitorType.run(input({ cloud: c }))).toHaveLength(n);
  });

  it.each([
    ['ROUND_ROBIN on OVN', ovnLb, 'ROUND_ROBIN', 1],
    ['SOURCE_IP_PORT on OVN', ovnLb, 'SOURCE_IP_PORT', 0],
    ['ROUND_ROBIN on amphora', lb(ING), 'ROUND_ROBIN', 0],
  ])('ovn-pool-algorithm: %s', (_, theLb, algo, n) => {
    const c = cloud({ loadBalancers: [theLb], pools: [pool({ lb_algorithm: algo, loadbalancers: [{ id: theLb.id }] })] });
    expect(ovnPoolAlgorithm.run(input({ cloud: c }))).toHaveLength(n);
  });

  it.each([
    ['OVN listener with allowed_cidrs', ovnLb, ['10.0.0.0/8'], 1],
    ['OVN listener with an empty list', ovnLb, [], 0],
    ['amphora listener with allowed_cidrs', lb(ING), ['10.0.0.0/8'], 0],
  ])('ovn-listener-allowed-cidrs: %s', (_, theLb, cidrs, n) => {
    const c = cloud({ loadBalancers: [theLb], listeners: [{ id: 'l1', protocol: 'TCP', protocol_port: 80, allowed_cidrs: cidrs, loadbalancers: [{ id: theLb.id }] }] });
    expect(ovnListenerAllowedCidrs.run(input({ cloud: c }))).toHaveLength(n);
  });

  const fip = (description: string, port_id: string | null) => ({ id: `f-${description.length}-${port_id}`, floating_ip_address: '172.24.4.9', port_id, description });
  it.each([
    ['OCCM FIP of this cluster, unattached', fip('Floating IP for Kubernetes external service app/web from cluster demo', null), 1],
    ['OCCM FIP of this cluster, attached', fip('Floating IP for Kubernetes external service app/web from cluster demo', 'port1'), 0],
    ['OCCM FIP of another cluster', fip('Floating IP for Kubernetes external service app/web from cluster other', null), 0],
    ['someone else\'s FIP', fip('my bastion', null), 0],
  ])('fip-unattached: %s', (_, f, n) => {
    expect(fipUnattached.run(input({ cloud: cloud({ floatingIps: [f] }) }))).toHaveLength(n);
  });

  it.each([
    ['OCCM FIP of staging-demo (OCCM\'s cluster-name with namespace staging)', 'staging-demo', 1],
    ['OCCM FIP of demo without the namespace: another cluster', 'demo', 0],
    ['OCCM FIP of a cluster whose name ends in -demo', 'prod-demo', 0],
  ])('fip-unattached, cluster demo in namespace staging: %s', (_, occmCluster, n) => {
    const f = fip(`Floating IP for Kubernetes external service app/web from cluster ${occmCluster}`, null);
    expect(fipUnattached.run(input({ names: clusterNames('staging', 'demo'), cloud: cloud({ floatingIps: [f] }) }))).toHaveLength(n);
  });

  it.each([
    ['Octavia LB quota full', { octaviaQuota: { load_balancer: 2 }, loadBalancers: [lb('a'), lb('b')] }, { load_balancer: 1 }, ['load_balancer']],
    ['Octavia unlimited (-1)', { octaviaQuota: { load_balancer: -1 }, loadBalancers: [lb('a')] }, { load_balancer: 1 }, []],
    ['Neutron FIPs: used + reserved counted', { neutronQuota: { floatingip: { limit: 3, used: 2, reserved: 1 } } }, { floatingip: 1 }, ['floatingip']],
    ['Neutron ports with room', { neutronQuota: { port: { limit: 50, used: 10 } } }, { port: 9 }, []],
    ['quota not read: no finding (reported as skipped by the fetcher)', {}, { load_balancer: 5 }, []],
  ])('quota-headroom: %s', (_, c, needs, want) => {
    expect(quotaHeadroom.run(input({ needs, cloud: cloud(c as object) })).map((f) => f.resource.name)).toEqual(want);
  });

  it.each([
    ['new cluster, 3+3 nodes, ingress with monitors', { exists: false, controllers: 3, workers: 3, edges: [ING_EDGE], apiFloatingIp: true, occmSecurityGroups: true },
      { load_balancer: 3, listener: 4, pool: 4, health_monitor: 4, floatingip: 3, port: 9, security_group: 4 }],
    ['new cluster without any edge, internal kube-API', { exists: false, controllers: 1, workers: 2, edges: [], apiFloatingIp: false, occmSecurityGroups: false },
      { load_balancer: 2, listener: 2, pool: 2, health_monitor: 2, floatingip: 1, port: 5, security_group: 2 }],
    ['new cluster, the gateway only (one HTTP listener), monitored', { exists: false, controllers: 3, workers: 3, edges: [GW_EDGE], apiFloatingIp: true, occmSecurityGroups: true },
      { load_balancer: 3, listener: 3, pool: 3, health_monitor: 3, floatingip: 3, port: 9, security_group: 4 }],
    ['new cluster, ingress-nginx and the gateway side by side (a migration)', { exists: false, controllers: 3, workers: 3, edges: [ING_EDGE, GW_EDGE], apiFloatingIp: true, occmSecurityGroups: true },
      { load_balancer: 4, listener: 5, pool: 5, health_monitor: 5, floatingip: 4, port: 10, security_group: 5 }],
    ['new cluster, both edges, monitors off', { exists: false, controllers: 3, workers: 3, edges: [{ ...ING_EDGE, monitored: false }, { ...GW_EDGE, monitored: false }], apiFloatingIp: true, occmSecurityGroups: false },
      { load_balancer: 4, listener: 5, pool: 5, health_monitor: 2, floatingip: 4, port: 10, security_group: 2 }],
    ['existing cluster: one more Service', { exists: true, controllers: 3, workers: 3, edges: [ING_EDGE, GW_EDGE], apiFloatingIp: true, occmSecurityGroups: true },
      { load_balancer: 1, listener: 1, pool: 1, health_monitor: 1, floatingip: 1, port: 1, security_group: 1 }],
  ])('quota needs: %s', (_, facts, want) => {
    expect(quotaNeeds(facts)).toEqual(want);
  });
});
