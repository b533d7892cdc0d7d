import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PlanError } from '../../../lib/errors.js';
import { runApplyGateway } from '../../../lib/gateway/apply-gateway.js';
import type { ApplyIngressOptions } from '../../../lib/ingress/apply-ingress.js';
import { appliedDir } from '../../../lib/ingress/applied.js';
import { localKey } from '../../../lib/state/local-state.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { workloadHome, fakeKubectlFor } from '../../support/workload.js';
import type { CloudSnapshot } from '../../../lib/openstack/snapshot.js';
import { cloud as cloudSnap, hm, lb as octaviaLb } from '../doctor/inputs.js';
import { snapshotCalls } from '../doctor/kube-scenario.js';

const EG = 'test/fakes/recorded/envoy-gateway-v1.9';
const NS = ['--namespace', 'envoy-gateway-system'];
const APPLY = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'];
const LABELS = 'gateway.envoyproxy.io/owning-gateway-name=kaas,gateway.envoyproxy.io/owning-gateway-namespace=envoy-gateway-system';
const CRDS = [
  'backendtlspolicies', 'gatewayclasses', 'gateways', 'grpcroutes', 'httproutes', 'listenersets', 'referencegrants', 'tcproutes', 'tlsroutes', 'udproutes',
].map((n) => `crd/${n}.gateway.networking.k8s.io`).concat([
  'backends', 'backendtrafficpolicies', 'clienttrafficpolicies', 'envoyextensionpolicies', 'envoypatchpolicies', 'envoyproxies', 'httproutefilters', 'securitypolicies',
].map((n) => `crd/${n}.gateway.envoyproxy.io`));

/** apply-gateway's look at the Gateway API CRDs already there (lib/gateway/existing.ts readExisting). */
const GET_CRDS = ['get', 'crd', ...CRDS.slice(0, 10).map((c) => c.slice(4)), '--ignore-not-found', '-o', 'go-template={{range .items}}{{.metadata.name}} {{with .metadata.annotations}}{{index . "gateway.networking.k8s.io/bundle-version"}} {{index . "gateway.networking.k8s.io/channel"}}{{end}}{{"\\n"}}{{end}}'];
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

function setup(calls: (kc: string) => FakeCall[]) {
  const { home, kubeconfig } = workloadHome();
  fake = fakeTools(calls(kubeconfig));
  const logger = memoryLogger();
  const opts: ApplyIngressOptions = {
    cluster: 'demo', settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home, kubeconfig, timeouts: { pollMs: 1, addressSec: 60 },
  };
  const deps = {
    logger, runner: fakeRunner(fake),
    kubectlFor: fakeKubectlFor(() => fake!),
    sleep: async () => {},
    cloud: { credentials: () => ({ problem: 'none in tests' }), capabilities: () => Promise.reject(new Error('not asked')), loadBalancerVip: async () => undefined } as IngressCloud,
  };
  return { opts, deps, home, logger };
}

const k = (kc: string, argv: string[], rest: Partial<FakeCall> = {}): FakeCall => ({ tool: 'kubectl', argv: ['--kubeconfig', kc, ...argv], ...rest });
const happy = (kc: string): FakeCall[] => [
  k(kc, ['get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], { response: { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` } }),
  // OCCM's pod-template hash of the cloud config, compared with the Secret's.
  k(kc, ['get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], { response: { stdoutFile: `${RECORDED}/get-daemonset-occm.json` } }),
  k(kc, GET_CRDS, { response: { stdout: '' } }),
  k(kc, APPLY, { stdinContains: ['name: envoyproxies.gateway.envoyproxy.io', 'name: httproutes.gateway.networking.k8s.io', 'kind: ValidatingAdmissionPolicy'], response: { stdout: 'customresourcedefinition.apiextensions.k8s.io/gateways.gateway.networking.k8s.io serverside-applied\n' } }),
  k(kc, ['wait', ...CRDS, '--for=condition=Established', '--timeout=60s']),
  k(kc, ['delete', 'job', 'gateway-helm-certgen', ...NS, '--ignore-not-found']),
  k(kc, APPLY, { stdinContains: ['kind: Namespace', 'image: docker.io/envoyproxy/gateway:v1.9.0', 'imagePullPolicy: IfNotPresent'], response: { stdout: 'deployment.apps/envoy-gateway serverside-applied\n' } }),
  k(kc, ['rollout', 'status', 'deployment/envoy-gateway', ...NS, '--timeout=300s']),
  k(kc, APPLY, { stdinContains: ['kind: EnvoyProxy', 'loadbalancer.openstack.org/proxy-protocol: "true"', 'kind: ClientTrafficPolicy', 'proxyProtocol: {}', 'kind: GatewayClass'], response: { stdout: 'gateway.gateway.networking.k8s.io/kaas serverside-applied\n' } }),
  k(kc, ['get', 'gateway', 'kaas', ...NS, '-o', 'json'], { response: { stdoutFile: `${EG}/get-gateway-pending.json` } }),
  k(kc, ['get', 'gateway', 'kaas', ...NS, '-o', 'json'], { response: { stdoutFile: `${EG}/get-gateway-programmed.json` } }),
  k(kc, ['get', 'service', ...NS, '--selector', LABELS, '-o', 'json'], { response: { stdoutFile: `${EG}/get-envoy-services.json` } }),
  k(kc, ['get', 'service', 'envoy-envoy-gateway-system-kaas-6e5e4f7a', ...NS, '-o', 'json'], { response: { stdoutFile: `${EG}/get-envoy-service.json` } }),
];

describe('apply-gateway against a (fake) workload cluster', () => {
  it('checks OCCM, applies CRDs (Established), control plane (rollout), edge objects, waits for Programmed and the LB', async () => {
    const { opts, deps, home, logger } = setup(happy);
    const r = await runApplyGateway(opts, deps);
    fake!.assertDone();
    expect(r.text).toBe('Envoy Gateway v1.9.0 (Gateway API v1.6.1) applied to cluster demo; Gateway envoy-gateway-system/kaas at 203.0.113.45.nip.io');
    expect(r.data.applied).toMatchObject({ service: 'envoy-envoy-gateway-system-kaas-6e5e4f7a', loadBalancer: 'kube_service_demo_envoy-gateway-system_envoy-envoy-gateway-system-kaas-6e5e4f7a', lb: { annotatedAddress: '203.0.113.45' } });
    expect(logger.lines.join('\n')).toMatch(/Programmed False: AddressNotAssigned/);
    const kept = readFileSync(path.join(appliedDir(localKey(home, 'example', '', 'demo')), 'envoy-gateway.yaml'), 'utf8');
    expect(kept).toContain('kind: EnvoyProxy');
    expect(kept).not.toContain('CustomResourceDefinition');
  });

  // The log names node_cidr alone even when pod_cidr is trusted too (monitors off: externalTrafficPolicy Cluster).
  it.each([
    ['with a health monitor', []],
    ['monitors off, pod_cidr set', ['occm_loadbalancer={create-monitor: false}', 'pod_cidr=10.244.0.0/16']],
  ])('PROXY protocol, %s: says the amphorae send the header from node_cidr 10.8.0.0/20', async (_n, sets) => {
    const { opts, deps, logger } = setup(happy);
    await runApplyGateway({ ...opts, sets }, deps);
    expect(logger.lines.join('\n')).toMatch(/the amphorae send it from their ports in node_cidr 10\.8\.0\.0\/20, but Envoy Gateway cannot limit it/);
  });

  // kubectl prints managedFields only with --show-managed-fields: without it the real kubectl (testbed) never
  // showed kaas as the policy's manager, and the policy stayed.
  it('PROXY protocol turned off: removes the ClientTrafficPolicy an earlier apply made (Envoy would keep expecting the header), only if kaas made it', async () => {
    const noProxy = (ctp: object | undefined) => (kc: string): FakeCall[] => {
      const calls = happy(kc);
      const i = calls.findIndex((c) => c.stdinContains?.includes('kind: EnvoyProxy'));
      calls[i] = k(kc, APPLY, { stdinContains: ['kind: EnvoyProxy', 'kind: GatewayClass'], response: { stdout: 'gateway.gateway.networking.k8s.io/kaas serverside-applied\n' } });
      const get = k(kc, ['get', 'clienttrafficpolicy', 'kaas', ...NS, '-o', 'json', '--show-managed-fields'], ctp ? { response: { stdout: JSON.stringify(ctp) } } : { response: { exitCode: 1, stderr: 'Error from server (NotFound): clienttrafficpolicies.gateway.envoyproxy.io "kaas" not found\n' } });
      const del = ctp && (ctp as any).metadata.managedFields[0].manager === 'kaas' ? [k(kc, ['delete', 'clienttrafficpolicy/kaas', ...NS, '--ignore-not-found'])] : [];
      calls.splice(i + 1, 0, get, ...del);
      return calls;
    };
    const ctp = (manager: string) => ({ apiVersion: 'gateway.envoyproxy.io/v1alpha1', kind: 'ClientTrafficPolicy', metadata: { name: 'kaas', namespace: 'envoy-gateway-system', managedFields: [{ manager, operation: 'Apply' }] }, spec: { proxyProtocol: {} } });
    for (const [live, removed] of [[ctp('kaas'), true], [ctp('someone-else'), false], [undefined, false]] as const) {
      const { opts, deps, logger } = setup(noProxy(live));
      await runApplyGateway({ ...opts, sets: ['nginx_use_proxy=false'] }, deps);
      fake!.assertDone();
      expect(logger.lines.some((l) => /removing ClientTrafficPolicy envoy-gateway-system\/kaas \(PROXY protocol is off now/.test(l))).toBe(removed);
      fake!.cleanup();
      fake = undefined;
    }
  });

  it('experimental-channel Gateway API CRDs (SCS with Cilium): said and refused before the forced CRD apply (exit 2, nothing applied); --force goes on', async () => {
    const existing = 'gatewayclasses.gateway.networking.k8s.io v1.2.1 experimental\nhttproutes.gateway.networking.k8s.io v1.2.1 experimental\n';
    const classes = (kc: string) => k(kc, ['get', 'gatewayclasses.gateway.networking.k8s.io', '-o', 'go-template={{range .items}}{{.metadata.name}} {{.spec.controllerName}}{{"\\n"}}{{end}}'], { response: { stdout: 'cilium io.cilium/gateway-controller\n' } });
    const upTo = (kc: string) => {
      const calls = happy(kc);
      const i = calls.findIndex((c) => c.argv.includes('crd'));
      calls[i] = k(kc, GET_CRDS, { response: { stdout: existing } });
      calls.splice(i + 1, 0, classes(kc));
      return calls;
    };
    const refused = setup((kc) => upTo(kc).slice(0, 4));
    const err = await runApplyGateway(refused.opts, refused.deps).catch((e: unknown) => e);
    fake!.assertDone();
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems).toEqual([
      expect.stringMatching(/^CRD gatewayclasses.gateway.networking.k8s.io is experimental channel v1.2.1/),
      expect.stringMatching(/^CRD httproutes.gateway.networking.k8s.io is experimental channel v1.2.1/),
    ]);
    expect(refused.logger.lines.join('\n')).toMatch(/GatewayClass cilium \(controller io.cilium\/gateway-controller\) is left alone/);
    expect(fake!.calls().some((c) => c.argv.includes('apply'))).toBe(false);
    fake!.cleanup();
    const forced = setup(upTo);
    await runApplyGateway({ ...forced.opts, force: true }, forced.deps);
    fake!.assertDone();
    expect(forced.logger.lines.join('\n')).toMatch(/--force: CRD httproutes.gateway.networking.k8s.io is experimental channel/);
  });

  it('refuses, applying nothing, when OCCM lacks enable-ingress-hostname for PROXY protocol', async () => {
    const secret = { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cloud-config' }, data: { 'cloud.conf': Buffer.from('[LoadBalancer]\nmanage-security-groups=true\n').toString('base64') } }) };
    const { opts, deps } = setup((kc) => [k(kc, ['get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], { response: secret }), k(kc, ['get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], { response: { stdoutFile: `${RECORDED}/get-daemonset-occm-scs.json` } })]);
    const err = await runApplyGateway(opts, deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems[0]).toMatch(/lacks enable-ingress-hostname=true/);
    fake!.assertDone();
  });

  it('fails with a hint when the Gateway is not Programmed in time', async () => {
    const { opts, deps } = setup((kc) => happy(kc).slice(0, 10));
    const err = await runApplyGateway({ ...opts, timeouts: { pollMs: 1, addressSec: 0 } }, deps).catch((e: Error) => e);
    expect((err as Error).message).toBe('Gateway envoy-gateway-system/kaas was not Programmed with an address within 0s (Programmed False: AddressNotAssigned (No addresses have been assigned to the Gateway))');
    fake!.assertDone();
  });

  it('applies nothing and says why when deploy_gateway is false', async () => {
    const { opts, deps, logger } = setup(() => []);
    const r = await runApplyGateway({ ...opts, sets: ['deploy_gateway=false'] }, deps);
    expect(r.text).toBe('');
    expect(logger.lines.join('\n')).toMatch(/not deployed: deploy_gateway is false/);
    expect(fake!.calls()).toEqual([]);
  });
});

const ENVOY_SVC = 'envoy-envoy-gateway-system-kaas-6e5e4f7a';
const LB_NAME = `kube_service_demo_envoy-gateway-system_${ENVOY_SVC}`;

/** The LB OCCM builds for the envoy Service on amphora + PROXY: PROXY pools with HTTP monitors, members ONLINE where the envoy pods run (10.8.0.22/.23; the ingress-nginx pods run on .21/.22). */
function envoyLb(name = LB_NAME, over: { protocol?: string; monitor?: string | null; online?: string[] } = {}): CloudSnapshot {
  const online = over.online ?? ['10.8.0.22', '10.8.0.23'];
  const pools = ['p80', 'p443'].map((id) => ({ id, name: id, protocol: over.protocol ?? 'PROXY', lb_algorithm: 'ROUND_ROBIN', healthmonitor_id: over.monitor === null ? null : `hm-${id}`, loadbalancers: [{ id: `id-${name}` }] }));
  return cloudSnap({
    loadBalancers: [octaviaLb(name, { operating_status: 'DEGRADED', vip_address: '10.8.0.50' })],
    pools,
    healthMonitors: over.monitor === null ? [] : pools.map((p) => hm(`hm-${p.id}`, over.monitor ?? 'HTTP', [p.id])),
    floatingIps: [{ id: 'f1', floating_ip_address: '203.0.113.45', port_id: `port-${name}` }],
    members: Object.fromEntries(pools.map((p) => [p.id, ['10.8.0.21', '10.8.0.22', '10.8.0.23'].map((address) => ({ id: `m-${address}`, address, protocol_port: 30480, operating_status: online.includes(address) ? 'ONLINE' : 'ERROR' }))])),
  });
}

/** The cluster snapshot of the verification: the envoy Service (owner labels), its pods, kaas's ClientTrafficPolicy. */
const gatewaySnapshot = (kc: string, services: { stdout?: string; stdoutFile?: string } = { stdoutFile: `${EG}/get-services-all-gateway.json` }, ctp: { stdout?: string; stdoutFile?: string } = { stdoutFile: `${EG}/get-clienttrafficpolicies.json` }) =>
  snapshotCalls(kc, { services, gatewayPods: { stdoutFile: `${EG}/get-pods-envoy.json` }, clientTrafficPolicies: ctp });

describe('apply-gateway verifies the envoy Service\'s load balancer against the plan (kubectl fake, Octavia snapshot)', () => {
  function run(calls: (kc: string) => FakeCall[], snapshot: CloudSnapshot, sets: string[] = []) {
    const { opts, deps, logger } = setup(calls);
    const asked: string[] = [];
    const cloud = { ...deps.cloud, loadBalancerSnapshot: async (name: string) => (asked.push(name), snapshot) };
    const promise = runApplyGateway({ ...opts, sets, verify: true, timeouts: { pollMs: 1, addressSec: 60, verifySec: 0 } }, { ...deps, cloud });
    return { promise, asked, logger };
  }

  it('passes when OCCM built the LB the plan asks for: PROXY pools, HTTP monitors, members where the envoy pods run', async () => {
    const { promise, asked, logger } = run((kc) => [...happy(kc), ...gatewaySnapshot(kc)], envoyLb());
    const r = await promise;
    fake!.assertDone();
    expect(asked).toEqual([LB_NAME]);
    expect(r.data.applied).toMatchObject({ loadBalancer: LB_NAME });
    expect(logger.lines.join('\n')).toMatch(new RegExp(`load balancer ${LB_NAME}: ACTIVE, PROXY pools, health monitors, members where the pods run`));
  });

  it('without --verify nothing is asked of Octavia after the address', async () => {
    const { opts, deps } = setup(happy);
    const cloud = { ...deps.cloud, loadBalancerSnapshot: async () => { throw new Error('not asked'); } };
    await runApplyGateway({ ...opts, verify: false }, { ...deps, cloud });
    fake!.assertDone();
  });

  it('exits 1 naming the mismatch and the doctor finding on the envoy Service (no monitor annotation, every member ONLINE)', async () => {
    const services = JSON.parse(readFileSync(`${EG}/get-services-all-gateway.json`, 'utf8'));
    delete services.items[1].metadata.annotations['loadbalancer.openstack.org/enable-health-monitor'];
    const { promise } = run((kc) => [...happy(kc), ...gatewaySnapshot(kc, { stdout: JSON.stringify(services) })], envoyLb(LB_NAME, { monitor: null, online: ['10.8.0.21', '10.8.0.22', '10.8.0.23'] }));
    const err = (await promise.catch((e: unknown) => e)) as { exitCode: number; message: string; problems: string[]; hint: string };
    fake!.assertDone();
    expect(err.exitCode).toBe(1);
    expect(err.message).toBe(`the load balancer of envoy-gateway-system/${ENVOY_SVC} does not match the plan`);
    expect(err.problems.map((p) => /^\[([a-z-]+)\]/.exec(p)![1])).toEqual(['verify-lb-status', 'verify-monitor', 'etp-local-no-monitor', 'verify-monitor', 'verify-members']);
    expect(err.problems[1]).toContain('fix: kaas apply-gateway demo');
    expect(err.problems[2]).toMatch(new RegExp(`^\\[etp-local-no-monitor\\] Service envoy-gateway-system/${ENVOY_SVC} has externalTrafficPolicy: Local`));
    expect(err.problems[4]).toMatch(/but the envoy pods of the Gateway run on 10\.8\.0\.22, 10\.8\.0\.23/);
  });

  it('TCP pools under a ClientTrafficPolicy with proxyProtocol: the mismatch is explained by proxy-protocol-mismatch on the envoy Service', async () => {
    const services = JSON.parse(readFileSync(`${EG}/get-services-all-gateway.json`, 'utf8'));
    delete services.items[1].metadata.annotations['loadbalancer.openstack.org/proxy-protocol'];
    const { promise } = run((kc) => [...happy(kc), ...gatewaySnapshot(kc, { stdout: JSON.stringify(services) })], envoyLb(LB_NAME, { protocol: 'TCP' }));
    const err = (await promise.catch((e: unknown) => e)) as { problems: string[] };
    fake!.assertDone();
    expect(err.problems[0]).toMatch(/^\[verify-pool-protocol\] Pool p80 .* speaks TCP, the plan says PROXY/);
    expect(err.problems[1]).toBe(`[proxy-protocol-mismatch] Envoy (Gateway envoy-gateway-system/kaas) expects PROXY headers but the load balancer of Service envoy-gateway-system/${ENVOY_SVC} sends none (no proxy-protocol annotation): every request fails. (fix: kaas apply-gateway demo (renders the EnvoyProxy annotation and the ClientTrafficPolicy from nginx_use_proxy))`);
  });

  it('a namespace setting: the LB is looked up under OCCM\'s namespace-prefixed cluster-name', async () => {
    const name = `kube_service_staging-demo_envoy-gateway-system_${ENVOY_SVC}`;
    const { promise, asked } = run((kc) => [...happy(kc), ...gatewaySnapshot(kc)], envoyLb(name), ['namespace=staging']);
    const r = await promise;
    fake!.assertDone();
    expect(asked).toEqual([name]);
    expect(r.data.applied).toMatchObject({ loadBalancer: name });
  });
});

describe('removeGateway (delete-cluster)', () => {
  const GW = 'gateway.gateway.networking.k8s.io';
  const delGw = (kc: string) => k(kc, ['delete', `${GW}/kaas`, ...NS, '--ignore-not-found', '--wait=false']);
  const getGw = (kc: string, gone: boolean) => k(kc, ['get', GW, 'kaas', ...NS, '-o', 'json'], {
    response: gone ? { exitCode: 1, stderr: `Error from server (NotFound): gateways.gateway.networking.k8s.io "kaas" not found\n` }
      : { stdout: JSON.stringify({ apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'kaas', namespace: 'envoy-gateway-system', deletionTimestamp: '2026-11-28T04:00:00Z', finalizers: ['gateway-exists-finalizer.gateway.networking.k8s.io'] } }) },
  });

  it('deletes the Gateway first without kubectl\'s wait (review n3: a stuck finalizer held kubectl until killed), waits itself until it is gone, then the recorded control plane, then the record', async () => {
    const { removeGateway, GATEWAY_RECORD } = await import('../../../lib/gateway/applied.js');
    const { recordApplied, readApplied } = await import('../../../lib/ingress/applied.js');
    const { home, deps, logger } = setup((kc) => [
      delGw(kc), getGw(kc, false), getGw(kc, true),
      k(kc, ['delete', '-f', '-', '--ignore-not-found', '--wait=false'], { stdin: '---\nkind: EnvoyProxy\n' }),
    ]);
    recordApplied(localKey(home, 'example', '', 'demo'), GATEWAY_RECORD, '---\nkind: EnvoyProxy\n');
    await removeGateway(deps.kubectlFor({ kubeconfig: path.join(home, 'workload.yaml') }), localKey(home, 'example', '', 'demo'), logger, { pollMs: 1, sleep: async () => {} });
    fake!.assertDone();
    expect(readApplied(localKey(home, 'example', '', 'demo'), GATEWAY_RECORD)).toBeUndefined();
    expect(logger.lines.join('\n')).not.toMatch(/still there/);
  });

  it('a Gateway its controller never lets go: bounded, the warning names what holds it, and the removal goes on', async () => {
    const { removeGateway, GATEWAY_RECORD } = await import('../../../lib/gateway/applied.js');
    const { recordApplied } = await import('../../../lib/ingress/applied.js');
    const { home, deps, logger } = setup((kc) => [
      delGw(kc), getGw(kc, false),
      k(kc, ['delete', '-f', '-', '--ignore-not-found', '--wait=false'], { stdin: '---\nkind: EnvoyProxy\n' }),
    ]);
    recordApplied(localKey(home, 'example', '', 'demo'), GATEWAY_RECORD, '---\nkind: EnvoyProxy\n');
    await removeGateway(deps.kubectlFor({ kubeconfig: path.join(home, 'workload.yaml') }), localKey(home, 'example', '', 'demo'), logger, { waitSec: 0, sleep: async () => {} });
    fake!.assertDone();
    expect(logger.lines.join('\n')).toContain('Gateway envoy-gateway-system/kaas is still there after 0s (being deleted since 2026-11-28T04:00:00Z; finalizers: "gateway-exists-finalizer.gateway.networking.k8s.io"): its controller does not let go; going on');
  });
});
