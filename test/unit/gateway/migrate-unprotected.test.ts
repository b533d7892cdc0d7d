import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { runMigrateIngress, type MigrateOptions } from '../../../lib/gateway/migrate/run.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, type FakeTools } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';

/**
 * B1 of the newcomer review: a protected Ingress (auth, IP lists, client certificates) never becomes
 * a route on the public Gateway without its protection unless the user says so; --apply applies nothing then.
 */
const CORPUS = path.resolve(process.cwd(), 'test/fixtures/migrate');
const base = (o: Partial<MigrateOptions> = {}): MigrateOptions => ({ settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home: tempDir('kaas-home-'), ...o });
const N = 'nginx.ingress.kubernetes.io/';
const ingress = (name: string, annotations: Record<string, string>) => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name, namespace: 'ops', annotations },
  spec: { ingressClassName: 'nginx', rules: [{ host: `${name}.example.org`, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name, port: { number: 80 } } } }] } }] },
});
const APPLY = (kc: string) => ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas-migrate-ingress', '-f', '-'];
const GET = (kc: string) => ['--kubeconfig', kc, 'get', 'ingresses.networking.k8s.io', '--all-namespaces', '-o', 'json'];
const SECRET = (kc: string, ns: string, name: string) => ['--kubeconfig', kc, 'get', 'secret', name, '--namespace', ns, '--ignore-not-found', '-o', 'go-template={{with .data}}{{if index . ".htpasswd"}}present{{end}}{{end}}'];
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

/** Runs --apply against a fake cluster holding these Ingresses. */
async function applyTo(items: object[], calls: (kc: string) => Parameters<typeof fakeTools>[0], o: Partial<MigrateOptions> = {}) {
  const opts = base({ cluster: 'demo', apply: true, ...o });
  const kc = path.join(opts.home, 'kc.yaml');
  writeFileSync(kc, 'apiVersion: v1\nkind: Config\n');
  fake = fakeTools([{ tool: 'kubectl', argv: GET(kc), response: { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items }) } }, ...calls(kc)]);
  return runMigrateIngress({ ...opts, kubeconfig: kc }, { logger: memoryLogger(), runner: fakeRunner(fake), kubectlFor: (t) => createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl')) });
}
const applied = () => fake!.calls().filter((c) => c.argv.includes('apply'));

describe('migrate-ingress and protection it cannot convert', () => {
  it('is refused by default (exit 2), naming each Ingress and annotation; nothing is written', async () => {
    const out = path.join(tempDir('kaas-migrate-out-'), 'routes');
    const err = await runMigrateIngress(base({ file: path.join(CORPUS, '35-auth-tls'), outputDir: out }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as UsageError).message).toMatch(/^1 Ingress\(es\) restrict access in ways the Gateway API objects would not enforce; .*nothing was written or applied$/);
    expect((err as UsageError).problems).toEqual([
      expect.stringMatching(/^Ingress secure\/mtls-api, annotation nginx.ingress.kubernetes.io\/auth-tls-secret: client-certificate verification is per listener/),
      'Ingress secure/mtls-api, annotation nginx.ingress.kubernetes.io/auth-tls-verify-client: client certificates: see auth-tls-secret',
      'Ingress secure/mtls-api, annotation nginx.ingress.kubernetes.io/auth-tls-verify-depth: client certificates: see auth-tls-secret',
    ]);
    expect((err as UsageError).hint).toMatch(/--detach-unprotected .*--allow-unprotected/);
    expect(existsSync(out)).toBe(false);
  });

  it('--apply is refused before anything is applied (no kubectl apply call)', async () => {
    const err = await applyTo([ingress('grafana', { [`${N}auth-url`]: 'https://sso.example.com/check' })], () => []).catch((e: unknown) => e);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as UsageError).problems).toEqual([expect.stringMatching(/^Ingress ops\/grafana, annotation nginx.ingress.kubernetes.io\/auth-url: "https:\/\/sso.example.com\/check" cannot be an extAuth backend/)]);
    fake!.assertDone();
    expect(applied()).toEqual([]);
  });

  it('an allow-list where the plan loses client IPs is refused too (amphora without PROXY protocol)', async () => {
    const err = await applyTo([ingress('admin', { [`${N}whitelist-source-range`]: '10.0.0.0/8' })], () => [], { sets: ['use_ovn_lb_provider=false', 'nginx_use_proxy=false'] }).catch((e: unknown) => e);
    expect((err as UsageError).problems).toEqual([expect.stringMatching(/whitelist-source-range: a client-IP list needs the client's address at Envoy, and the gateway plan \(amphora without PROXY protocol\) loses them/)]);
    expect(applied()).toEqual([]);
  });

  it('--file without a cluster: an allow-list stays unconverted (the plan that keeps client IPs is per cluster)', async () => {
    const err = await runMigrateIngress(base({ file: path.join(CORPUS, '31-allowlist-source-range') }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) }).catch((e: unknown) => e);
    expect((err as UsageError).problems).toEqual([expect.stringMatching(/whitelist-source-range: a client-IP list needs the client's address at Envoy, and no cluster is named/)]);
    const named = await runMigrateIngress(base({ cluster: 'demo', file: path.join(CORPUS, '31-allowlist-source-range'), json: true }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) });
    expect(named.data.objects.map((o) => o.kind)).toEqual(['HTTPRoute', 'SecurityPolicy']);
  });

  it('--allow-unprotected --apply attaches the route anyway, and says so', async () => {
    const r = await applyTo([ingress('grafana', { [`${N}auth-url`]: 'https://sso.example.com/check' })], (kc) => [
      { tool: 'kubectl', argv: APPLY(kc), stdinContains: ['kind: HTTPRoute', 'sectionName: http'], response: { stdout: 'httproute.gateway.networking.k8s.io/grafana serverside-applied\n' } },
    ], { unprotected: 'attach' });
    fake!.assertDone();
    expect(r.text).toMatch(/^1 Gateway API object\(s\) applied/);
  });

  it('--detach-unprotected writes the route without parentRefs, the reason on it', async () => {
    const out = tempDir('kaas-migrate-out-');
    await runMigrateIngress(base({ file: path.join(CORPUS, '19-external-auth'), outputDir: out, unprotected: 'detach' }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) });
    const route = readFileSync(path.join(out, 'default', 'httproute-external-auth.yaml'), 'utf8');
    expect(route).not.toMatch(/^\s*parentRefs:/m);
    expect(route).toMatch(/kaas.io\/detached: "not attached to the Gateway: the Ingress's auth-url is not enforced here/);
  });
});

describe('migrate-ingress --apply and converted basic auth', () => {
  const basic = ingress('grafana', { [`${N}auth-type`]: 'basic', [`${N}auth-secret`]: 'grafana-auth' });

  it('refuses (exit 2, nothing applied) while the .htpasswd Secret does not exist, naming the command that makes it', async () => {
    const err = await applyTo([basic], (kc) => [{ tool: 'kubectl', argv: SECRET(kc, 'ops', 'grafana-auth-htpasswd'), response: { stdout: '' } }]).catch((e: unknown) => e);
    fake!.assertDone();
    expect(applied()).toEqual([]);
    expect((err as UsageError).exitCode).toBe(2);
    expect((err as UsageError).problems).toEqual([
      'Secret ops/grafana-auth-htpasswd (key .htpasswd) for the basic auth of Ingress ops/grafana: kubectl -n ops create secret generic grafana-auth-htpasswd --from-file=.htpasswd=<(kubectl -n ops get secret grafana-auth -o jsonpath=\'{.data.auth}\' | base64 -d)',
    ]);
  });

  it('applies the route and its SecurityPolicy once the Secret exists', async () => {
    const r = await applyTo([basic], (kc) => [
      { tool: 'kubectl', argv: SECRET(kc, 'ops', 'grafana-auth-htpasswd'), response: { stdout: 'present' } },
      { tool: 'kubectl', argv: APPLY(kc), stdinContains: ['kind: SecurityPolicy', 'name: grafana-auth-htpasswd', 'sectionName: http'], response: { stdout: 'applied\n' } },
    ]);
    fake!.assertDone();
    expect(r.text).toMatch(/^2 Gateway API object\(s\) applied/);
  });
});
