import { readFileSync } from 'node:fs';
import path from 'node:path';
import { PlanError, UsageError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';
import { runApplyIngress, type ApplyIngressOptions } from '../../../lib/ingress/apply-ingress.js';
import { appliedDir } from '../../../lib/ingress/applied.js';
import { localKey } from '../../../lib/state/local-state.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { workloadHome, fakeKubectlFor } from '../../support/workload.js';

const NS = ['--namespace', 'ingress-nginx'];
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

function setup(calls: (kc: string) => FakeCall[], cloud: Partial<IngressCloud> = {}) {
  const { home, kubeconfig } = workloadHome();
  fake = fakeTools(calls(kubeconfig));
  const looked: string[] = [];
  const logger = memoryLogger();
  const opts: ApplyIngressOptions = {
    cluster: 'demo', settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home, kubeconfig,
    timeouts: { pollMs: 1, addressSec: 60 },
  };
  const deps = {
    logger,
    runner: fakeRunner(fake),
    kubectlFor: fakeKubectlFor(() => fake!),
    sleep: async () => {},
    cloud: {
      credentials: () => ({ problem: 'none in tests' }),
      capabilities: () => Promise.reject(new Error('not asked in tests')),
      loadBalancerVip: async (name: string) => {
        looked.push(name);
        return '10.8.0.17';
      },
      ...cloud,
    } as IngressCloud,
  };
  return { opts, deps, home, looked, logger };
}

const secretCall = (kc: string, response: FakeCall['response']): FakeCall => ({
  tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], response,
});
const secretWith = (cloudConf: string) => ({
  stdout: JSON.stringify({ apiVersion: 'v1', kind: 'Secret', metadata: { name: 'cloud-config', namespace: 'kube-system' }, data: { 'cloud.conf': Buffer.from(cloudConf).toString('base64') } }),
});
const APPLY = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'];
const occmCall = (kc: string, file = 'get-daemonset-occm.json'): FakeCall => ({
  tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], response: { stdoutFile: `${RECORDED}/${file}` },
});

const happy = (kc: string, nodeCidr = '10.8.0.0/20'): FakeCall[] => [
  secretCall(kc, { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` }),
  occmCall(kc),
  { tool: 'kubectl', argv: ['--kubeconfig', kc, 'delete', 'job', 'ingress-nginx-admission-create', 'ingress-nginx-admission-patch', ...NS, '--ignore-not-found'] },
  {
    tool: 'kubectl', argv: ['--kubeconfig', kc, ...APPLY],
    stdinContains: ['kind: Deployment', `proxy-real-ip-cidr: ${nodeCidr}`, 'loadbalancer.openstack.org/proxy-protocol: "true"'],
    response: { stdout: 'namespace/ingress-nginx serverside-applied\n' },
  },
  { tool: 'kubectl', argv: ['--kubeconfig', kc, 'rollout', 'status', 'deployment/ingress-nginx-controller', ...NS, '--timeout=300s'] },
  { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'service', 'ingress-nginx-controller', ...NS, '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-service-pending.json` } },
  { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'service', 'ingress-nginx-controller', ...NS, '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-service-lb-hostname.json` } },
];

describe('apply-ingress against a (fake) workload cluster', () => {
  it('checks OCCM, re-creates the admission Jobs, applies, waits, and keeps node_cidr as the trusted real-IP range', async () => {
    const { opts, deps, home, looked, logger } = setup(happy);
    const r = await runApplyIngress(opts, deps);
    fake!.assertDone();
    expect(looked).toEqual(['kube_service_demo_ingress-nginx_ingress-nginx-controller']);
    expect(r.text).toBe('ingress-nginx v1.15.1 (amphora-proxy) applied to cluster demo; address 203.0.113.45');
    expect(r.data.applied).toMatchObject({ realIpCidr: '10.8.0.0/20' });
    // No second apply: the VIP is not the source the nodes see, so there is nothing to narrow to.
    expect(fake!.calls().filter((c) => c.argv.includes('apply'))).toHaveLength(1);
    expect(logger.lines.join('\n')).toMatch(/proxy-real-ip-cidr: trusting PROXY headers from node_cidr 10\.8\.0\.0\/20: amphorae send to the nodes from their own ports/);
    const kept = readFileSync(path.join(appliedDir(localKey(home, 'example', '', 'demo')), 'ingress-nginx.yaml'), 'utf8');
    expect(kept).toContain('proxy-real-ip-cidr: 10.8.0.0/20');
  });

  it('trusts the configured node_cidr (not the example default, not the VIP) in the manifest and the record', async () => {
    const { opts, deps, home, logger } = setup((kc) => happy(kc, '10.20.0.0/16'), { loadBalancerVip: async () => '10.20.0.17' });
    const r = await runApplyIngress({ ...opts, sets: ['node_cidr=10.20.0.0/16'] }, deps);
    fake!.assertDone();
    expect(r.data.applied).toMatchObject({ realIpCidr: '10.20.0.0/16' });
    expect(logger.lines.join('\n')).toMatch(/trusting PROXY headers from node_cidr 10\.20\.0\.0\/16: .*the LB VIP 10\.20\.0\.17 is inside node_cidr/);
    expect(readFileSync(path.join(appliedDir(localKey(home, 'example', '', 'demo')), 'ingress-nginx.yaml'), 'utf8')).toContain('proxy-real-ip-cidr: 10.20.0.0/16');
  });

  it('keeps node_cidr when Octavia cannot be asked, and says why', async () => {
    const { opts, deps, logger } = setup(happy, { loadBalancerVip: () => Promise.reject(new Error('no cloud configured')) });
    const r = await runApplyIngress(opts, deps);
    fake!.assertDone();
    expect(r.data.applied).toMatchObject({ realIpCidr: '10.8.0.0/20' });
    expect(logger.lines.join('\n')).toMatch(/could not ask Octavia for the LB VIP: no cloud configured/);
  });

  it('refuses, applying nothing, when OCCM lacks enable-ingress-hostname for PROXY protocol', async () => {
    const { opts, deps } = setup((kc) => [secretCall(kc, secretWith('[Global]\nauth-url=x\n[LoadBalancer]\nmanage-security-groups=true\n')), occmCall(kc, 'get-daemonset-occm-scs.json')]);
    const err = await runApplyIngress(opts, deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems[0]).toMatch(/lacks enable-ingress-hostname=true/);
    fake!.assertDone();
  });

  it('applies anyway with --force, warning', async () => {
    const { opts, deps, logger } = setup((kc) => [secretCall(kc, secretWith('[LoadBalancer]\n')), occmCall(kc, 'get-daemonset-occm-scs.json'), ...happy(kc).slice(2)]);
    await runApplyIngress({ ...opts, force: true }, deps);
    fake!.assertDone();
    expect(logger.lines.join('\n')).toMatch(/warning: --force: the plan uses PROXY protocol/);
  });

  it('refuses, applying nothing, when OCCM runs an older cloud.conf than the Secret (changed without a rollout)', async () => {
    const { opts, deps, logger } = setup((kc) => [secretCall(kc, { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` }), occmCall(kc, 'get-daemonset-occm-stale.json')]);
    const err = await runApplyIngress(opts, deps).catch((e: unknown) => e);
    fake!.assertDone();
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).problems).toEqual([
      'OCCM runs an older cloud.conf than the Secret holds (pod template sha256:000000000000…, Secret sha256:8b7fd8d708f5…): kaas create-cluster rolls it, or kubectl -n kube-system rollout restart daemonset/openstack-cloud-controller-manager',
    ]);
    expect(logger.lines.join('\n')).not.toMatch(/s3cr3t/);
  });

  it('only warns when OCCM was not deployed by kaas (no hash to compare)', async () => {
    const { opts, deps, logger } = setup((kc) => [happy(kc)[0], occmCall(kc, 'get-daemonset-occm-scs.json'), ...happy(kc).slice(2)]);
    await runApplyIngress(opts, deps);
    fake!.assertDone();
    expect(logger.lines.join('\n')).toMatch(/OCCM was not deployed by kaas create-cluster .*rollout restart daemonset\/openstack-cloud-controller-manager/);
  });

  it('fails with a hint when the LB address does not come in time', async () => {
    const { opts, deps } = setup((kc) => happy(kc).slice(0, 6));
    const err = await runApplyIngress({ ...opts, timeouts: { pollMs: 1, addressSec: 0 } }, deps).catch((e: Error) => e);
    expect((err as Error).message).toBe('the Service ingress-nginx/ingress-nginx-controller got no load-balancer address within 0s');
    fake!.assertDone();
  });

  it.each([
    ['a number', 7, 'status.loadBalancer.ingress[0].ip is 7 (a number), not an IP address'],
    ['an object', { a: 1 }, 'status.loadBalancer.ingress[0].ip is {"a":1} (an object), not an IP address'],
  ])('a Service whose ingress[0].ip is %s: an OperationError naming the Service and the field (was read as an address)', async (_, ip, said) => {
    const svcAnswer = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'ingress-nginx-controller', namespace: 'ingress-nginx' }, status: { loadBalancer: { ingress: [{ ip }] } } };
    const { opts, deps } = setup((kc) => [...happy(kc).slice(0, 5), { ...happy(kc)[5], response: { stdout: JSON.stringify(svcAnswer) } }]);
    const err = await runApplyIngress(opts, deps).catch((e: Error) => e);
    expect(err).toMatchObject({ exitCode: 1, message: `Service ingress-nginx/ingress-nginx-controller: ${said}`, hint: expect.stringContaining('kubectl get service -n ingress-nginx ingress-nginx-controller -o yaml') });
    fake!.assertDone();
  });

  it('needs the workload kubeconfig, and says where it comes from', async () => {
    const { opts, deps } = setup(() => []);
    const err = await runApplyIngress({ ...opts, kubeconfig: '/nonexistent/kc.yaml' }, deps).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).message).toBe('the workload kubeconfig /nonexistent/kc.yaml does not exist');
    expect(fake!.calls()).toEqual([]);
  });

  it('applies nothing and says why when the ingress is off', async () => {
    const { opts, deps, logger } = setup(() => []);
    const r = await runApplyIngress({ ...opts, sets: ['deploy_nginx_ingress=false'] }, deps);
    expect(r.text).toBe('');
    expect(logger.lines.join('\n')).toMatch(/not deployed: deploy_nginx_ingress is false/);
    expect(fake!.calls()).toEqual([]);
  });
});
