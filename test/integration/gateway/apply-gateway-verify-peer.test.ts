import { readFileSync } from 'node:fs';
import { runApplyGateway } from '../../../lib/gateway/apply-gateway.js';
import type { ApplyIngressOptions } from '../../../lib/ingress/apply-ingress.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { workloadHome } from '../../support/workload.js';
import { createLb, OCTAVIA, setLbStatus, setMemberStatus, setMonitorStatus, settled, sqliteRetry, testProject, type TestProject } from '../../support/doctor-project.js';
import { hm } from '../../unit/doctor/inputs.js';
import { withPeer } from '../../support/peer.js';
import { GATEWAY_OWNER, snapshotCalls } from '../../unit/doctor/kube-scenario.js';
import { crdNames } from '../../../lib/gateway/render.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../../../lib/plan/gateway-versions.js';

/**
 * apply-gateway's post-apply verification against the real Octavia of the peer: the workload
 * cluster is the kubectl fake (the envoy Service with Envoy Gateway's owner labels, its pods), the
 * LB is a real OVN load balancer built as OCCM builds it for the envoy Service (TCP listener, pool
 * SOURCE_IP_PORT, TCP monitor, one member per node), named with the namespace-prefixed OCCM
 * cluster-name of a `namespace: staging` cluster, beside the same name without the prefix (another
 * environment's cluster "demo"). Member health is set in Octavia's database: no ovn-controller runs
 * the monitors on the peer.
 */
const T = 240_000;
const PROJECT = 'kaas-gwverify-it';
const SVC = 'envoy-envoy-gateway-system-kaas-6e5e4f7a';
const STAGING_LB = `kube_service_staging-demo_envoy-gateway-system_${SVC}`;
const OTHER_LB = `kube_service_demo_envoy-gateway-system_${SVC}`;
const EG = 'test/fakes/recorded/envoy-gateway-v1.9';
const NODES = ['10.77.0.21', '10.77.0.22', '10.77.0.23'];
const NS = ['--namespace', 'envoy-gateway-system'];
const APPLY = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'];
let t: TestProject;
let pools: Record<string, string>;
let vips: Record<string, string>;
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

async function occmLikeLb(name: string): Promise<{ pool: string; vip: string }> {
  const id = await createLb(t, name, 'ovn');
  await settled(t, id);
  const call = <R>(p: string, body: unknown) => sqliteRetry(() => t.demo.call<R>('load-balancer', OCTAVIA, { method: 'POST', path: p, body }));
  const listener = (await call<{ listener: { id: string } }>('/v2/lbaas/listeners', { listener: { loadbalancer_id: id, protocol: 'TCP', protocol_port: 80 } })).data.listener;
  await settled(t, id);
  const pool = (await call<{ pool: { id: string } }>('/v2/lbaas/pools', { pool: { listener_id: listener.id, protocol: 'TCP', lb_algorithm: 'SOURCE_IP_PORT' } })).data.pool;
  await settled(t, id);
  await call('/v2/lbaas/healthmonitors', { healthmonitor: { pool_id: pool.id, type: 'TCP', delay: 5, timeout: 3, max_retries: 1 } });
  await settled(t, id);
  for (const address of NODES) {
    await call(`/v2/lbaas/pools/${pool.id}/members`, { member: { address, protocol_port: 30480, subnet_id: t.subnetId } });
    await settled(t, id);
  }
  const lb = (await t.demo.call<{ loadbalancer: { vip_address: string } }>('load-balancer', OCTAVIA, { method: 'GET', path: `/v2/lbaas/loadbalancers/${id}` })).data.loadbalancer;
  return { pool: pool.id, vip: lb.vip_address };
}

beforeAll(async () => {
  t = await withPeer(() => testProject(PROJECT));
  setLbStatus({ projectId: t.projectId }, 'DELETED'); // leftovers of earlier runs
  const staging = await withPeer(() => occmLikeLb(STAGING_LB));
  const other = await withPeer(() => occmLikeLb(OTHER_LB));
  pools = { [STAGING_LB]: staging.pool, [OTHER_LB]: other.pool };
  vips = { [STAGING_LB]: staging.vip, [OTHER_LB]: other.vip };
}, T);
afterAll(() => setLbStatus({ projectId: t.projectId }, 'DELETED'));

/** Members ONLINE exactly where `online` lists (what the TCP monitor reports for ETP Local), the monitor `monitor` (ACTIVE: a provider with a health-check source port). */
function health(lbName: string, online: string[], monitor = 'ACTIVE'): void {
  for (const a of NODES) setMemberStatus(pools[lbName], a, online.includes(a) ? 'ONLINE' : 'ERROR');
  setMonitorStatus(pools[lbName], monitor);
}

/** The workload cluster as kubectl shows it: OCCM on OVN, Envoy Gateway's envoy Service publishing the VIP of `lbName`. */
function cluster(kc: string, lbName: string): FakeCall[] {
  const k = (argv: string[], rest: Partial<FakeCall> = {}): FakeCall => ({ tool: 'kubectl', argv: ['--kubeconfig', kc, ...argv], ...rest });
  const conf = '[Global]\nauth-url=http://127.0.0.1:5000/v3\n[LoadBalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=true\nmanage-security-groups=true\n';
  const secret = { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cloud-config', namespace: 'kube-system' }, data: { 'cloud.conf': Buffer.from(conf).toString('base64') } }) };
  const svc = JSON.parse(readFileSync(`${EG}/get-envoy-service.json`, 'utf8'));
  svc.metadata.annotations = {};
  svc.status = { loadBalancer: { ingress: [{ ip: vips[lbName], ipMode: 'VIP' }] } };
  const list = (items: unknown[]) => ({ stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', metadata: { resourceVersion: '' }, items }) });
  const nodes = list(['demo-md-0-a1b2c', 'demo-md-0-d3e4f', 'demo-md-0-g5h6i'].map((name, i) => ({ metadata: { name }, status: { addresses: [{ type: 'InternalIP', address: NODES[i] }] } })));
  const gw = JSON.parse(readFileSync(`${EG}/get-gateway-programmed.json`, 'utf8'));
  gw.status.addresses = [{ type: 'IPAddress', value: vips[lbName] }];
  return [
    k(['get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], { response: secret }),
    k(['get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], { response: { stdoutFile: `${RECORDED}/get-daemonset-occm-scs.json` } }),
    // The look at existing Gateway API CRDs (the unit tests' subject): none here.
    k(['get', 'crd', ...crdNames(BUNDLED_GATEWAY_VERSIONS[0]).filter((n) => n.endsWith('.gateway.networking.k8s.io')), '--ignore-not-found', '-o', 'go-template={{range .items}}{{.metadata.name}} {{with .metadata.annotations}}{{index . "gateway.networking.k8s.io/bundle-version"}} {{index . "gateway.networking.k8s.io/channel"}}{{end}}{{"\\n"}}{{end}}'], { response: { stdout: '' } }),
    k(APPLY, { stdinContains: ['name: envoyproxies.gateway.envoyproxy.io'], response: { stdout: 'ok\n' } }),
    // The CRD phase is the unit tests' subject; here it only has to pass.
    k(['wait', ...crdNames(BUNDLED_GATEWAY_VERSIONS[0]).map((n) => `crd/${n}`), '--for=condition=Established', '--timeout=60s']),
    k(['delete', 'job', 'gateway-helm-certgen', ...NS, '--ignore-not-found']),
    k(APPLY, { stdinContains: ['kind: Namespace'], response: { stdout: 'ok\n' } }),
    k(['rollout', 'status', 'deployment/envoy-gateway', ...NS, '--timeout=300s']),
    k(APPLY, { stdinContains: ['kind: EnvoyProxy', 'externalTrafficPolicy: Local'], response: { stdout: 'ok\n' } }),
    // OVN: no PROXY protocol, so kaas looks for a ClientTrafficPolicy an earlier PROXY apply left (none here).
    k(['get', 'clienttrafficpolicy', 'kaas', ...NS, '-o', 'json', '--show-managed-fields'], { response: { exitCode: 1, stderr: 'Error from server (NotFound): clienttrafficpolicies.gateway.envoyproxy.io "kaas" not found\n' } }),
    k(['get', 'gateway', 'kaas', ...NS, '-o', 'json'], { response: { stdout: JSON.stringify(gw) } }),
    k(['get', 'service', ...NS, '--selector', GATEWAY_OWNER, '-o', 'json'], { response: list([svc]) }),
    k(['get', 'service', SVC, ...NS, '-o', 'json'], { response: { stdout: JSON.stringify(svc) } }),
    ...snapshotCalls(kc, {
      services: list([svc]), nodes, gatewayPods: { stdoutFile: `${EG}/get-pods-envoy.json` }, secret, clientTrafficPolicies: list([]),
    }),
  ];
}

function run(lbName: string) {
  const { home, kubeconfig: kc } = workloadHome();
  fake = fakeTools(cluster(kc, lbName));
  const o: ApplyIngressOptions = {
    cluster: 'demo', settingsDir: 'settings', env: 'example', environ: { OS_CLIENT_CONFIG_FILE: t.cloudsFile }, cwd: process.cwd(), home, kubeconfig: kc,
    sets: [`cloud=${PROJECT}`, 'use_ovn_lb_provider=true', 'namespace=staging', 'external_network=public'], verify: true, timeouts: { pollMs: 1, addressSec: 60, verifySec: 0 },
  };
  const logger = memoryLogger();
  const deps = { logger, runner: fakeRunner(fake), sleep: async () => {}, kubectlFor: (tg: { kubeconfig?: string }) => createKubectl(fakeRunner(fake!), tg, fake!.bin('kubectl')) };
  return { promise: runApplyGateway(o, deps), logger };
}

describe('kaas apply-gateway verifies the envoy LB in the real Octavia (peer)', () => {
  it('passes on the namespaced cluster\'s LB: OVN, TCP pool SOURCE_IP_PORT, TCP monitor, members ONLINE where the envoy pods run', async () => {
    health(STAGING_LB, NODES.slice(1)); // the envoy pods run on the 2nd and 3rd node, ingress-nginx's on the 1st and 2nd
    health(OTHER_LB, NODES); // the other environment's LB would fail the members check
    const { promise, logger } = run(STAGING_LB);
    const r = await withPeer(() => promise);
    fake!.assertDone();
    expect(r.data.applied).toMatchObject({ loadBalancer: STAGING_LB });
    expect(logger.lines.join('\n')).toContain(`load balancer ${STAGING_LB}: ACTIVE, TCP pools, health monitors, members where the pods run`);
  }, T);

  it('the monitor as the real Octavia returns it has every field of the unit tests\' fixture (test/unit/doctor/inputs.ts hm), its provisioning_status among them', async () => {
    const res = await withPeer(() => t.demo.call<{ healthmonitors: { pools?: { id: string }[] }[] }>('load-balancer', OCTAVIA, { method: 'GET', path: '/v2/lbaas/healthmonitors' }));
    const real = res.data.healthmonitors.find((m) => m.pools?.some((p) => p.id === pools[STAGING_LB]))!;
    expect(Object.keys(real).sort()).toEqual(expect.arrayContaining(Object.keys(hm('x', 'TCP', ['p'])).sort()));
    expect(real).toMatchObject({ type: 'TCP', pools: [{ id: pools[STAGING_LB] }], provisioning_status: expect.stringMatching(/^(ACTIVE|ERROR|PENDING_\w+)$/), operating_status: expect.any(String) });
  }, T);

  // Issue 29: the peer's ovn provider leaves the monitor in ERROR beside an ACTIVE LB, and the verification passed.
  it('exits 1 naming the monitor when Octavia has it in ERROR, though members and LB look right', async () => {
    health(STAGING_LB, NODES.slice(1), 'ERROR');
    const { promise } = run(STAGING_LB);
    const err = (await withPeer(() => promise.catch((e: unknown) => e))) as { exitCode: number; problems: string[] };
    fake!.assertDone();
    expect(err.exitCode).toBe(1);
    expect(err.problems).toEqual([expect.stringMatching(new RegExp(`^\\[verify-monitor-status\\] Health monitor \\S+ \\(TCP\\) of pool \\S+ of load balancer ${STAGING_LB} is ERROR: no health check runs.*\\(fix: openstack loadbalancer healthmonitor show \\S+\\. The ovn provider needs a health-monitor source port`))]);
  }, T);

  it('exits 1 when Octavia has a member ONLINE on a node without an envoy pod', async () => {
    health(STAGING_LB, NODES);
    const { promise } = run(STAGING_LB);
    const err = (await withPeer(() => promise.catch((e: unknown) => e))) as { exitCode: number; message: string; problems: string[] };
    fake!.assertDone();
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(`the load balancer of envoy-gateway-system/${SVC} does not match the plan`);
    expect(err.problems).toEqual([expect.stringMatching(/^\[verify-members\] Members ONLINE at 10\.77\.0\.21, 10\.77\.0\.22, 10\.77\.0\.23, but the envoy pods of the Gateway run on 10\.77\.0\.22, 10\.77\.0\.23/)]);
  }, T);
});
