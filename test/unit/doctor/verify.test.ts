import { readFileSync } from 'node:fs';
import { verifyEdge } from '../../../lib/checks/verify.js';
import { edgeExpectation } from '../../../lib/plan/edge-expectation.js';
import type { CloudSnapshot } from '../../../lib/openstack/snapshot.js';
import { runApplyIngress, type ApplyIngressOptions } from '../../../lib/ingress/apply-ingress.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { workloadHome, fakeKubectlFor } from '../../support/workload.js';
import { cloud, hm, ingressPlan, input, kube, lb, OVN, svc } from './inputs.js';
import { snapshotCalls } from './kube-scenario.js';

const NAME = 'kube_service_demo_ingress-nginx_ingress-nginx-controller';
const nodes = [{ name: 'w1', internalIp: '10.8.0.21' }, { name: 'w2', internalIp: '10.8.0.22' }, { name: 'w3', internalIp: '10.8.0.23' }];
const pods = [{ name: 'c1', nodeName: 'w1', ready: true }, { name: 'c2', nodeName: 'w2', ready: true }];
const member = (address: string, operating_status: string) => ({ id: `m-${address}`, address, protocol_port: 30080, operating_status });

/** The LB OCCM builds for amphora + PROXY: two PROXY pools with HTTP monitors, members ONLINE where the pods run. */
function amphoraProxyLb(over: { protocol?: string; monitor?: string | null; online?: string[]; status?: [string, string]; fip?: string; hmStatus?: string } = {}): CloudSnapshot {
  const online = over.online ?? ['10.8.0.21', '10.8.0.22'];
  const pools = ['p80', 'p443'].map((id) => ({ id, name: id, protocol: over.protocol ?? 'PROXY', lb_algorithm: 'ROUND_ROBIN', healthmonitor_id: over.monitor === null ? null : `hm-${id}`, loadbalancers: [{ id: `id-${NAME}` }] }));
  return cloud({
    loadBalancers: [lb(NAME, { provisioning_status: over.status?.[0] ?? 'ACTIVE', operating_status: over.status?.[1] ?? 'DEGRADED', vip_address: '10.8.0.50' })],
    pools,
    healthMonitors: over.monitor === null ? [] : pools.map((p) => hm(`hm-${p.id}`, over.monitor ?? 'HTTP', [p.id], { provisioning_status: over.hmStatus ?? 'ACTIVE' })),
    floatingIps: [{ id: 'f1', floating_ip_address: over.fip ?? '203.0.113.45', port_id: `port-${NAME}` }],
    members: Object.fromEntries(pools.map((p) => [p.id, nodes.map((n) => member(n.internalIp, online.includes(n.internalIp) ? 'ONLINE' : 'ERROR'))])),
  });
}
const ingressSvc = (annotations: Record<string, string>, ingress: { hostname?: string; ip?: string }[] = [{ hostname: '203.0.113.45.nip.io' }]) =>
  svc('ingress-nginx', 'ingress-nginx-controller', { etp: 'Local', annotations: { 'loadbalancer.openstack.org/load-balancer-address': '203.0.113.45', ...annotations }, ingress });
const proxyAnn = { 'loadbalancer.openstack.org/proxy-protocol': 'true', 'loadbalancer.openstack.org/enable-health-monitor': 'true' };
const liveConf = { text: '[LoadBalancer]\nmanage-security-groups=true\nenable-ingress-hostname=true\n' };

describe('verification of the edge LB against the plan', () => {
  const base = input();
  const ingressX = (plan = ingressPlan()) => edgeExpectation('ingress-nginx', base.names!, { namespace: 'ingress-nginx', name: 'ingress-nginx-controller' }, { ...plan, externalTrafficPolicy: plan.externalTrafficPolicy! });
  const x = ingressX();
  const k = (annotations = proxyAnn, ingress?: { hostname?: string; ip?: string }[]) =>
    kube({ nodes, ingressPods: pods, cloudConf: liveConf, ingressConfig: { 'use-proxy-protocol': 'true' }, services: [ingressSvc(annotations, ingress)] });

  it.each([
    ['what OCCM builds for the plan (DEGRADED: nodes without pods are down by design)', amphoraProxyLb(), k(), []],
    ['no LB at all', cloud(), k(), ['verify-lb']],
    ['pools speak TCP, not PROXY', amphoraProxyLb({ protocol: 'TCP' }), k(), ['verify-pool-protocol', 'verify-pool-protocol']],
    ['no health monitor: every member ONLINE', amphoraProxyLb({ monitor: null, online: ['10.8.0.21', '10.8.0.22', '10.8.0.23'] }), k({ 'loadbalancer.openstack.org/proxy-protocol': 'true' } as typeof proxyAnn),
      ['verify-lb-status', 'verify-monitor', 'etp-local-no-monitor', 'verify-monitor', 'verify-members']],
    ['ERROR LB', amphoraProxyLb({ status: ['ERROR', 'OFFLINE'] }), k(), ['verify-lb-status', 'lb-error']],
    ['published address is not the FIP', amphoraProxyLb({ fip: '203.0.113.99' }), k(), ['verify-address']],
    ['plain IP with PROXY protocol', amphoraProxyLb(), k(proxyAnn, [{ ip: '203.0.113.45' }]), ['verify-address']],
    // Issue 29: a monitor Octavia never made ACTIVE checks nothing, whatever the LB's own status says.
    ['monitors in ERROR, LB ACTIVE', amphoraProxyLb({ hmStatus: 'ERROR' }), k(), ['verify-monitor-status', 'verify-monitor-status']],
    ['monitors DELETED', amphoraProxyLb({ hmStatus: 'DELETED' }), k(), ['verify-monitor-status', 'verify-monitor-status']],
    ['monitors still PENDING_CREATE (re-read until the timeout)', amphoraProxyLb({ hmStatus: 'PENDING_CREATE' }), k(), ['verify-monitor-status', 'verify-monitor-status']],
  ])('%s', (_, c, kk, want) => {
    expect(verifyEdge(x, { ...base, cloud: c, kube: kk }).map((f) => f.check)).toEqual(want);
  });

  it('OVN monitor in ERROR (provider without a health-check source port): the mismatch names LB, pool and monitor, what it means and the fix', () => {
    const c = amphoraProxyLb({ protocol: 'TCP', monitor: 'TCP', hmStatus: 'ERROR' });
    c.loadBalancers[0].provider = 'ovn';
    c.pools.forEach((p) => (p.lb_algorithm = 'SOURCE_IP_PORT'));
    const ovnKube = { ...k({} as typeof proxyAnn), cloudConf: { text: '[LoadBalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=true\n' }, ingressConfig: {} };
    const got = verifyEdge(ingressX(ingressPlan(OVN)), { ...input({ lb: OVN }), cloud: c, kube: ovnKube });
    expect(got.map((f) => `${f.check} ${f.severity}`)).toEqual(['verify-monitor-status error', 'verify-monitor-status error']);
    expect(got[0].message).toBe(`Health monitor hm-p80 (TCP) of pool p80 of load balancer ${NAME} is ERROR: no health check runs, so with externalTrafficPolicy: Local the load balancer keeps sending requests to nodes without a pod, and those requests fail.`);
    expect(got[0].fix).toMatch(/^openstack loadbalancer healthmonitor show hm-p80\. The ovn provider needs a health-monitor source port on the member network: ovn-octavia-provider older than 4\.0\.0 uses the OVN metadata port, .*ovn_metadata_enabled = true.*use_ovn_lb_provider: false/);
  });

  it('OVN: SOURCE_IP_PORT and TCP monitors expected; ROUND_ROBIN explained by ovn-pool-algorithm', () => {
    const i = input({ lb: OVN });
    const ox = ingressX(ingressPlan(OVN));
    const c = amphoraProxyLb({ protocol: 'TCP', monitor: 'TCP' });
    c.loadBalancers[0].provider = 'ovn';
    const ovnKube = { ...k({} as typeof proxyAnn), cloudConf: { text: '[LoadBalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=true\n' }, ingressConfig: {} };
    const got = verifyEdge(ox, { ...i, cloud: c, kube: ovnKube });
    expect(got.map((f) => f.check)).toEqual(['verify-pool-algorithm', 'ovn-pool-algorithm', 'ovn-pool-algorithm', 'verify-pool-algorithm']);
    c.pools.forEach((p) => (p.lb_algorithm = 'SOURCE_IP_PORT'));
    expect(verifyEdge(ox, { ...i, cloud: c, kube: ovnKube })).toEqual([]);
    // The same LB with OCCM still on amphora's cloud.conf: the contradiction is named as well.
    c.pools.forEach((p) => (p.lb_algorithm = 'ROUND_ROBIN'));
    expect(verifyEdge(ox, { ...i, cloud: c, kube: k({} as typeof proxyAnn) }).map((f) => f.check)).toContain('occm-config-contradicts-plan');
  });
});

describe('apply-ingress ends with the verification (kubectl fake, injected Octavia snapshot)', () => {
  let fake: FakeTools | undefined;
  afterEach(() => fake?.cleanup());
  const NS = ['--namespace', 'ingress-nginx'];

  function run(extra: (kc: string) => FakeCall[], snapshot: CloudSnapshot, sets: string[] = []) {
    const { home, kubeconfig: kc } = workloadHome();
    fake = fakeTools([
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` } },
      // OCCM's pod-template cloud-config hash, compared with the Secret's before applying.
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-daemonset-occm.json` } },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'delete', 'job', 'ingress-nginx-admission-create', 'ingress-nginx-admission-patch', ...NS, '--ignore-not-found'] },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], stdinContains: ['kind: Deployment'], response: { stdout: 'ok\n' } },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'rollout', 'status', 'deployment/ingress-nginx-controller', ...NS, '--timeout=300s'] },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'service', 'ingress-nginx-controller', ...NS, '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-service-lb-hostname.json` } },
      ...extra(kc),
    ]);
    const asked: string[] = [];
    const o: ApplyIngressOptions = { cluster: 'demo', settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home, kubeconfig: kc, verify: true, sets, timeouts: { pollMs: 1, addressSec: 60, verifySec: 0 } };
    const cloudAdapter = {
      credentials: () => ({ problem: 'none in tests' }), capabilities: () => Promise.reject(new Error('not asked')), loadBalancerVip: async (name: string) => (asked.push(`vip ${name}`), '10.8.0.50'),
      loadBalancerSnapshot: async (name: string) => {
        asked.push(name);
        return snapshot;
      },
    } as IngressCloud;
    const deps = { logger: memoryLogger(), runner: fakeRunner(fake), sleep: async () => {}, cloud: cloudAdapter,
      kubectlFor: fakeKubectlFor(() => fake!) };
    return { promise: runApplyIngress(o, deps), asked };
  }

  // The recorded nodes/pods: ingress pods on demo-md-0-a1b2c (10.8.0.21) and demo-md-0-d3e4f (10.8.0.22).
  it('passes when the LB matches the plan', async () => {
    const { promise, asked } = run((kc) => snapshotCalls(kc), amphoraProxyLb());
    await expect(promise).resolves.toMatchObject({ text: expect.stringContaining('applied to cluster demo') });
    expect(asked).toEqual([NAME, `vip ${NAME}`]);
    fake!.assertDone();
  });

  it('a namespace setting: verification and the VIP lookup use OCCM\'s namespace-prefixed cluster-name', async () => {
    const name = 'kube_service_staging-demo_ingress-nginx_ingress-nginx-controller';
    const snap = amphoraProxyLb();
    snap.loadBalancers[0].name = name;
    const { promise, asked } = run((kc) => snapshotCalls(kc), snap, ['namespace=staging']);
    await expect(promise).resolves.toMatchObject({ text: expect.stringContaining('applied to cluster demo') });
    expect(asked).toEqual([name, `vip ${name}`]);
    fake!.assertDone();
  });

  it('exits 1 with the mismatch and the doctor finding that explains it', async () => {
    const services = JSON.parse(readFileSync(`${RECORDED}/get-services-all-lb.json`, 'utf8'));
    delete services.items[1].metadata.annotations['loadbalancer.openstack.org/enable-health-monitor'];
    const { promise } = run((kc) => snapshotCalls(kc, { services: { stdout: JSON.stringify(services) } }), amphoraProxyLb({ monitor: null, online: ['10.8.0.10', '10.8.0.21', '10.8.0.22', '10.8.0.23'] }));
    const err = (await promise.catch((e: unknown) => e)) as { exitCode: number; message: string; problems: string[]; hint: string };
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe('the load balancer of ingress-nginx/ingress-nginx-controller does not match the plan');
    expect(err.problems[0]).toMatch(/^\[verify-lb-status\] Load balancer \S+ is ACTIVE\/DEGRADED/);
    expect(err.problems[1]).toMatch(/^\[verify-monitor\] Pool p80 of kube_service_demo_ingress-nginx_ingress-nginx-controller has no health monitor/);
    expect(err.problems[2]).toMatch(/^\[etp-local-no-monitor\] Service ingress-nginx\/ingress-nginx-controller has externalTrafficPolicy: Local but its amphora load balancer has no health monitor/);
    expect(err.problems.some((p) => p.startsWith('[verify-members]'))).toBe(true);
    expect(err.hint).toMatch(/kaas doctor demo/);
    fake!.assertDone();
  });
});
