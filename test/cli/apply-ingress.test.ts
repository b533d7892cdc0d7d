import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { fakeTools, RECORDED, type FakeTools } from '../fakes/fake-tools.js';
import { runKaas, tempDir } from '../support/cli.js';

const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as { kind: string; metadata: { name: string; annotations?: Record<string, string> }; data?: Record<string, string> }).filter(Boolean);
const svc = (objs: ReturnType<typeof docs>) => objs.find((o) => o.kind === 'Service' && o.metadata.name === 'ingress-nginx-controller')!;
const cm = (objs: ReturnType<typeof docs>) => objs.find((o) => o.kind === 'ConfigMap' && o.metadata.name === 'ingress-nginx-controller')!;

describe('kaas apply-ingress --dry-run (built CLI, offline)', () => {
  it('prints only the manifests on stdout, and the plan with its reasons on stderr (the README main job)', () => {
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('---\napiVersion: v1\nkind: Namespace\n')).toBe(true);
    const objs = docs(r.stdout);
    expect(objs).toHaveLength(19);
    expect(svc(objs).metadata.annotations).toEqual({
      'loadbalancer.openstack.org/enable-health-monitor': 'true', 'loadbalancer.openstack.org/proxy-protocol': 'true',
    });
    expect(cm(objs).data).toMatchObject({ 'use-proxy-protocol': 'true', 'proxy-real-ip-cidr': '10.8.0.0/20' });
    expect(r.stderr).toMatch(/deploy +yes, ingress-nginx v1\.15\.1/);
    expect(r.stderr).toMatch(/variant +amphora-proxy/);
    expect(r.stderr).toMatch(/OVN not used: use_ovn_lb_provider is false/);
    expect(r.stderr).toMatch(/warning: ingress-nginx is retired upstream/);
  });

  it('-o json prints the same manifests as one kubectl-style v1 List of JSON, and nothing else', () => {
    const yaml = docs(runKaas(['apply-ingress', 'demo', '--env', 'example', '--dry-run']).stdout);
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', '--dry-run', '-o', 'json']);
    expect(r.code).toBe(0);
    const list = JSON.parse(r.stdout) as { apiVersion: string; kind: string; items: unknown[] };
    expect(list).toMatchObject({ apiVersion: 'v1', kind: 'List' });
    expect(list.items).toEqual(yaml);
  });

  it('writes ingress-nginx.yaml and cloud.conf (0600) with --output-dir, nothing on stdout', () => {
    const dir = tempDir();
    const env = {
      OS_AUTH_URL: 'https://keystone.example:5000/v3', OS_AUTH_TYPE: 'v3applicationcredential', OS_REGION_NAME: 'RegionOne',
      OS_APPLICATION_CREDENTIAL_ID: 'appcred-id-1', OS_APPLICATION_CREDENTIAL_SECRET: 'very-secret-appcred',
    };
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', '--dry-run', '--output-dir', dir, '--set', 'cloud='], { env });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('');
    const conf = readFileSync(path.join(dir, 'cloud.conf'), 'utf8');
    expect(statSync(path.join(dir, 'cloud.conf')).mode & 0o777).toBe(0o600);
    expect(conf).toContain('application-credential-secret="very-secret-appcred"');
    expect(conf).toMatch(/\[LoadBalancer\]\ncreate-monitor=true\nenable-ingress-hostname=true\nmanage-security-groups=true\n/);
    expect(r.stderr).not.toContain('very-secret-appcred');
    expect(docs(readFileSync(path.join(dir, 'ingress-nginx.yaml'), 'utf8'))).toHaveLength(19);
  });

  it('plans OVN from a capabilities file: upstream manifest unchanged, no PROXY protocol', () => {
    const r = runKaas(['apply-ingress', 'prod', '--env', 'example', '--dry-run', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json']);
    expect(r.code).toBe(0);
    expect(svc(docs(r.stdout)).metadata.annotations).toBeUndefined();
    expect(r.stderr).toMatch(/variant +ovn/);
    expect(r.stderr).toMatch(/cloud\.conf +create-monitor=true lb-method=SOURCE_IP_PORT lb-provider=ovn manage-security-groups=true/);
  });

  it.each([
    [['--set', 'deploy_nginx_ingress=v1.12.0'], /error: deploy_nginx_ingress: v1\.12\.0 is not a bundled ingress-nginx version\n  - v1\.15\.1 \(Kubernetes 1\.31–1\.35\)/],
    [['--set', 'use_ovn_lb_provider=true', '--set', 'restrict_kubeapi=[]', '--set', 'occm_loadbalancer={lb-provider: amphora}', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json'], /occm_loadbalancer\.lb-provider: amphora contradicts lb-provider=ovn required by the plan/],
    [['--set', 'use_ovn_lb_provider=true', '--set', 'restrict_kubeapi=[]', '--capabilities', 'test/fixtures/ingress/capabilities-ovn-victoria.json'], /older than Wallaby/],
    [['--output-dir', '/tmp/x'], /--output-dir needs --dry-run/],
    [['--set', 'use_ovn_lb_provider=auto', '--set', 'cloud='], /error: use_ovn_lb_provider is auto, so planning needs the cloud's capabilities: no OpenStack cloud configured\nhint: .*plan offline with --capabilities FILE/],
    [['--capabilities', '/nonexistent.json'], /cannot read --capabilities \/nonexistent\.json: does not exist/],
  ])('exits 2 with a clear error: %j', (extra, message) => {
    const dryRun = extra.includes('--output-dir') ? [] : ['--dry-run'];
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', ...dryRun, ...extra]);
    expect(r.stderr).toMatch(message);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('kaas apply-ingress cluster names', () => {
  // The name becomes ~/.kube/kaas/env.<env>/<ns>/<cluster>.yaml and …/<cluster>/applied/: "../x" escaped that folder.
  it.each(['../x', 'Foo_Bar', 'a/b', 'demo-'])('refuses %j with exit 2 before reading settings or the cluster', (name) => {
    const r = runKaas(['apply-ingress', name, '--env', 'example', '--dry-run']);
    expect(r.stderr).toContain(`error: cluster name "${name}" is not valid`);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
  });
});

describe('kaas apply-ingress (built CLI, fake kubectl on PATH)', () => {
  let fake: FakeTools | undefined;
  afterEach(() => fake?.cleanup());

  it('exits 2 before any kubectl call when the workload kubeconfig is missing', () => {
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: no kubeconfig for cluster demo of environment example: .*\.kube\/kaas\/env\.example\/demo\/demo\.yaml does not exist\nhint: kaas create-cluster demo --env example writes it/);
  });

  it('applies (--no-verify: no cloud to verify against); without a cloud, proxy-real-ip-cidr stays node_cidr', () => {
    const dir = tempDir();
    const kc = path.join(dir, 'kc.yaml');
    writeFileSync(kc, 'apiVersion: v1\nkind: Config\n');
    const NS = ['--namespace', 'ingress-nginx'];
    const get = ['--kubeconfig', kc, 'get', 'service', 'ingress-nginx-controller', ...NS, '-o', 'json'];
    fake = fakeTools([
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-secret-cloud-config.json` } },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], response: { stdoutFile: `${RECORDED}/get-daemonset-occm.json` } },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'delete', 'job', 'ingress-nginx-admission-create', 'ingress-nginx-admission-patch', ...NS, '--ignore-not-found'] },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'], stdinContains: ['kind: ValidatingWebhookConfiguration'] },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'rollout', 'status', 'deployment/ingress-nginx-controller', ...NS, '--timeout=300s'] },
      { tool: 'kubectl', argv: get, response: { stdoutFile: `${RECORDED}/get-service-lb-ip.json` } },
    ]);
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', '--kubeconfig', kc, '--set', 'cloud=', '--no-verify'], { env: fake.env });
    expect(r.stderr).toMatch(/could not ask Octavia for the LB VIP/);
    expect(r.stderr).not.toContain('s3cr3t-value');
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('ingress-nginx v1.15.1 (amphora-proxy) applied to cluster demo; address 203.0.113.45\n');
    fake.assertDone();
  });
});
