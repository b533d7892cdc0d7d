import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { PlanError } from '../../../lib/errors.js';
import { runApplyGateway } from '../../../lib/gateway/apply-gateway.js';
import type { ApplyIngressOptions } from '../../../lib/ingress/apply-ingress.js';
import { appliedDir } from '../../../lib/ingress/applied.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';

const EG = 'test/fakes/recorded/envoy-gateway-v1.9';
const NS = ['--namespace', 'envoy-gateway-system'];
const APPLY = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'];
const LABELS = 'gateway.envoyproxy.io/owning-gateway-name=kaas,gateway.envoyproxy.io/owning-gateway-namespace=envoy-gateway-system';
const CRDS = [
  'backendtlspolicies', 'gatewayclasses', 'gateways', 'grpcroutes', 'httproutes', 'listenersets', 'referencegrants', 'tcproutes', 'tlsroutes', 'udproutes',
].map((n) => `crd/${n}.gateway.networking.k8s.io`).concat([
  'backends', 'backendtrafficpolicies', 'clienttrafficpolicies', 'envoyextensionpolicies', 'envoypatchpolicies', 'envoyproxies', 'httproutefilters', 'securitypolicies',
].map((n) => `crd/${n}.gateway.envoyproxy.io`));

let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

function setup(calls: (kc: string) => FakeCall[]) {
  const home = tempDir('kaas-home-');
  const kubeconfig = path.join(home, 'workload.yaml');
  writeFileSync(kubeconfig, 'apiVersion: v1\nkind: Config\n', { mode: 0o600 });
  fake = fakeTools(calls(kubeconfig));
  const logger = memoryLogger();
  const opts: ApplyIngressOptions = {
    cluster: 'demo', settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home, kubeconfig, timeouts: { pollMs: 1, addressSec: 60 },
  };
  const deps = {
    logger, runner: fakeRunner(fake),
    kubectlFor: (t: { kubeconfig?: string; context?: string }) => createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl')),
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
    const kept = readFileSync(path.join(appliedDir(home, 'demo'), 'envoy-gateway.yaml'), 'utf8');
    expect(kept).toContain('kind: EnvoyProxy');
    expect(kept).not.toContain('CustomResourceDefinition');
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
    const { opts, deps } = setup((kc) => happy(kc).slice(0, 9));
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

describe('removeGateway (delete-cluster)', () => {
  it('deletes the Gateway first (its LB goes), then the recorded control plane, then the record', async () => {
    const { removeGateway, GATEWAY_RECORD } = await import('../../../lib/gateway/applied.js');
    const { recordApplied, readApplied } = await import('../../../lib/ingress/applied.js');
    const { home, deps, logger } = setup((kc) => [
      k(kc, ['delete', 'gateway.gateway.networking.k8s.io/kaas', ...NS, '--ignore-not-found']),
      k(kc, ['delete', '-f', '-', '--ignore-not-found', '--wait=false'], { stdin: '---\nkind: EnvoyProxy\n' }),
    ]);
    recordApplied(home, 'demo', GATEWAY_RECORD, '---\nkind: EnvoyProxy\n');
    await removeGateway(deps.kubectlFor({ kubeconfig: path.join(home, 'workload.yaml') }), home, 'demo', logger);
    fake!.assertDone();
    expect(readApplied(home, 'demo', GATEWAY_RECORD)).toBeUndefined();
  });
});
