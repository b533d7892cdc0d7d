import { healthMonitorMissing, healthMonitorNotActive } from '../../../lib/checks/monitor-checks.js';
import { monitorState } from '../../../lib/checks/monitor-status.js';
import { DOCTOR_CHECKS } from '../../../lib/checks/catalogue.js';
import type { Pool } from '../../../lib/openstack/octavia.js';
import { cloud, hm, input, kube, lb, OVN, svc } from './inputs.js';

const ING = 'kube_service_demo_ingress-nginx_ingress-nginx-controller';
const pool = (lbId: string, over: Partial<Pool> = {}): Pool => ({ id: 'pool1', name: 'pool_0_' + ING, protocol: 'TCP', lb_algorithm: 'SOURCE_IP_PORT', healthmonitor_id: 'hm1', loadbalancers: [{ id: lbId }], ...over });

describe('health monitor states (provisioning_status as Octavia reports it)', () => {
  it.each([
    ['ACTIVE', 'ok'],
    ['PENDING_CREATE', 'pending'],
    ['PENDING_UPDATE', 'pending'],
    ['PENDING_DELETE', 'pending'],
    ['ERROR', 'broken'],
    ['DELETED', 'broken'],
    [undefined, 'broken'],
  ])('%s → %s', (status, want) => {
    expect(monitorState({ provisioning_status: status })).toBe(want);
  });
});

describe('health-monitor-not-active', () => {
  const ovnLb = lb(ING, { provider: 'ovn' });
  const run = (theLb: ReturnType<typeof lb>, status: string, over: { updated_at?: string } = {}, stuckAfterSec = 600) =>
    healthMonitorNotActive.run(input({ lb: OVN, stuckAfterSec, cloud: cloud({ loadBalancers: [theLb], pools: [pool(theLb.id)], healthMonitors: [hm('hm1', 'TCP', ['pool1'], { provisioning_status: status, ...over })] }) }))
      .map((f) => `${f.check} ${f.severity} ${f.resource.type} ${f.resource.id} ${f.resource.name}`);

  it.each([
    // What the testbed's peer really has: provider 3.0.0 without the OVN metadata port, the LB ACTIVE.
    ['ovn monitor in ERROR beside an ACTIVE LB', ovnLb, 'ERROR', {}, 600, [`health-monitor-not-active error healthmonitor hm1 ${ING}/pool_0_${ING}`]],
    ['amphora monitor in ERROR', lb(ING), 'ERROR', {}, 600, [`health-monitor-not-active error healthmonitor hm1 ${ING}/pool_0_${ING}`]],
    ['monitor DELETED but still on the pool', ovnLb, 'DELETED', {}, 600, [`health-monitor-not-active error healthmonitor hm1 ${ING}/pool_0_${ING}`]],
    ['ACTIVE monitor', ovnLb, 'ACTIVE', {}, 600, []],
    ['PENDING_CREATE for 59 minutes, threshold 10m', ovnLb, 'PENDING_CREATE', { updated_at: '2026-05-01T11:01:00' }, 600, [`health-monitor-not-active error healthmonitor hm1 ${ING}/pool_0_${ING}`]],
    ['PENDING_UPDATE for 5 minutes, threshold 10m', ovnLb, 'PENDING_UPDATE', { updated_at: '2026-05-01T11:55:00' }, 600, []],
    ['ERROR monitor of another cluster\'s LB', lb('kube_service_other_ns_svc', { provider: 'ovn' }), 'ERROR', {}, 600, []],
  ])('%s', (_, theLb, status, over, stuck, want) => {
    expect(run(theLb, status, over, stuck)).toEqual(want);
  });

  it.each([
    ['ovn', 'ovn', /The ovn provider needs a health-monitor source port on the member network: ovn-octavia-provider older than 4\.0\.0 uses the OVN metadata port, which Neutron creates only with \[ovn\] ovn_metadata_enabled = true/],
    ['amphora', 'amphora', /ask the cloud operator to look at the Octavia worker's log for this monitor/],
  ])('the %s finding names LB, pool and monitor, what it means and the fix', (_, provider, fix) => {
    const theLb = lb(ING, { provider });
    const [f] = healthMonitorNotActive.run(input({ cloud: cloud({ loadBalancers: [theLb], pools: [pool(theLb.id)], healthMonitors: [hm('hm1', 'TCP', ['pool1'], { provisioning_status: 'ERROR', name: 'monitor_0_x' })] }) }));
    expect(f.message).toBe(`Health monitor monitor_0_x (hm1) (TCP) of pool pool_0_${ING} of load balancer ${ING} is ERROR: no health check runs, so with externalTrafficPolicy: Local the load balancer keeps sending requests to nodes without a pod, and those requests fail.`);
    expect(f.fix).toMatch(/^openstack loadbalancer healthmonitor show hm1/);
    expect(f.fix).toMatch(fix);
  });

  // Launchpad bug 1997094 (ovn-octavia-provider < 3.1.0, Debian bookworm's 3.0.0 on the testbed): OCCM's one-call
  // create leaves the monitors PENDING_CREATE for ever beside an ACTIVE ovn LB.
  it.each([
    ['ovn LB ACTIVE, monitor PENDING_CREATE: the one-call-create bug', 'ovn', 'ACTIVE', 'PENDING_CREATE', true],
    ['ovn LB still PENDING_CREATE itself: Octavia is working', 'ovn', 'PENDING_CREATE', 'PENDING_CREATE', false],
    ['amphora LB ACTIVE, monitor PENDING_CREATE: not the ovn bug', 'amphora', 'ACTIVE', 'PENDING_CREATE', false],
    ['ovn LB ACTIVE, monitor PENDING_UPDATE: not a create', 'ovn', 'ACTIVE', 'PENDING_UPDATE', false],
    ['ovn LB ACTIVE, monitor ERROR: the metadata-port cause', 'ovn', 'ACTIVE', 'ERROR', false],
  ])('%s', (_, provider, lbStatus, hmStatus, bug) => {
    const theLb = lb(ING, { provider, provisioning_status: lbStatus });
    const found = healthMonitorNotActive.run(input({ stuckAfterSec: 600, cloud: cloud({ loadBalancers: [theLb], pools: [pool(theLb.id)], healthMonitors: [hm('hm1', 'TCP', ['pool1'], { provisioning_status: hmStatus, updated_at: '2026-05-01T11:01:00' })] }) }));
    expect(found).toHaveLength(1);
    expect(/Launchpad bug 1997094/.test(found[0].message)).toBe(bug);
    expect(/provider-requires-serial-api-calls: "true"/.test(found[0].fix)).toBe(bug);
    if (bug) expect(found[0].fix).toMatch(/upgrade ovn-octavia-provider to 3\.1\.0 or later$/);
  });

  it('is a doctor check, run before the OVN pool checks', () => {
    const ids = DOCTOR_CHECKS.map((c) => c.id);
    expect(ids.indexOf('health-monitor-not-active')).toBeGreaterThan(ids.indexOf('lb-recreation-loop'));
    expect(ids).toContain('health-monitor-missing');
  });
});

describe('health-monitor-missing', () => {
  const theLb = lb(ING, { provider: 'ovn' });
  const ovnConf = { text: '[LoadBalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=true\n' };
  const noMonitorConf = { text: '[LoadBalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=false\n' };
  const run = (etp: string, conf: { text: string }, monitorId: string | null, annotations: Record<string, string> = {}) =>
    healthMonitorMissing.run(input({
      lb: OVN,
      cloud: cloud({ loadBalancers: [theLb], pools: [pool(theLb.id, { healthmonitor_id: monitorId })], healthMonitors: monitorId ? [hm(monitorId, 'TCP', ['pool1'])] : [] }),
      kube: kube({ cloudConf: conf, services: [svc('ingress-nginx', 'ingress-nginx-controller', { etp, annotations })] }),
    })).map((f) => `${f.check} ${f.severity} ${f.resource.type} ${f.resource.name}`);

  it.each([
    ['ETP Local, create-monitor=true, no monitor in Octavia', 'Local', ovnConf, null, {}, [`health-monitor-missing error pool ${ING}/pool_0_${ING}`]],
    ['ETP Local, the annotation asks, no monitor in Octavia', 'Local', noMonitorConf, null, { 'loadbalancer.openstack.org/enable-health-monitor': 'true' }, [`health-monitor-missing error pool ${ING}/pool_0_${ING}`]],
    ['ETP Local with its monitor', 'Local', ovnConf, 'hm1', {}, []],
    ['ETP Local, no monitor asked (etp-local-no-monitor says so)', 'Local', noMonitorConf, null, {}, []],
    ['ETP Cluster without a monitor', 'Cluster', ovnConf, null, {}, []],
  ])('%s', (_, etp, conf, monitorId, annotations, want) => {
    expect(run(etp, conf, monitorId, annotations)).toEqual(want);
  });
});
