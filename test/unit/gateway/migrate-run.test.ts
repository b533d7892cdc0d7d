import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { captureGroups } from '../../../lib/gateway/migrate/features.js';
import { runMigrateIngress, type MigrateOptions } from '../../../lib/gateway/migrate/run.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { stringifyDocuments, type KubeObject } from '../../../lib/render/documents.js';
import { fakeRunner, fakeTools, type FakeTools } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';

const CORPUS = path.resolve(process.cwd(), 'test/fixtures/migrate');
const base = (o: Partial<MigrateOptions> = {}): MigrateOptions => ({ settingsDir: 'settings', env: 'example', environ: {}, cwd: process.cwd(), home: tempDir('kaas-home-'), ...o });
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

describe('kaas migrate-ingress', () => {
  it('converts a directory offline: YAML on stdout, the not-converted list per Ingress on stderr', async () => {
    const logger = memoryLogger();
    const r = await runMigrateIngress(base({ file: path.join(CORPUS, '18-basic-auth') }), { logger, runner: fakeRunner(fakeTools([])) });
    expect(r.raw).toMatch(/kind: HTTPRoute\n/);
    const err = logger.lines.join('\n');
    expect(err).toMatch(/not converted in default\/ingress-with-auth:\n.*- nginx.ingress.kubernetes.io\/auth-realm: Envoy Gateway basicAuth has no realm/);
    // Basic auth converts; the .htpasswd Secret it reads is named with the command that makes it.
    expect(err).toMatch(/kubectl -n default create secret generic basic-auth-htpasswd --from-file=.htpasswd=<\(kubectl -n default get secret basic-auth/);
  });

  it('-o json: objects and notConverted [{ingress, annotation, reason}] side by side, nothing on stderr but the summary', async () => {
    const logger = memoryLogger();
    // Named cluster: its gateway plan (amphora + PROXY) keeps client IPs, so the allow-list converts.
    const r = await runMigrateIngress(base({ cluster: 'demo', file: CORPUS, namespace: 'ops', json: true }), { logger, runner: fakeRunner(fakeTools([])) });
    expect(r.raw).toBeUndefined();
    expect(r.data.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['HTTPRoute/admin', 'SecurityPolicy/admin-auth']);
    expect(r.data.notConverted.map((n) => n.annotation)).toEqual([
      'nginx.ingress.kubernetes.io/configuration-snippet', 'nginx.ingress.kubernetes.io/limit-rps', 'nginx.ingress.kubernetes.io/whitelist-source-range',
    ]);
    expect(r.data.notConverted[0].ingress).toBe('ops/admin');
    expect(logger.lines.join('\n')).not.toMatch(/not converted in/);
  });

  it('--output-dir writes one file per object under its namespace', async () => {
    const dir = tempDir('kaas-migrate-');
    const r = await runMigrateIngress(base({ file: path.join(CORPUS, '06-tls-default-redirect'), outputDir: dir }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) });
    expect((r.data as { files: string[] }).files.map((f) => path.relative(dir, f))).toEqual([
      'envoy-gateway-system/gateway-kaas.yaml', 'default/referencegrant-kaas-gateway-tls.yaml', 'default/httproute-foo-tls.yaml', 'default/httproute-foo-tls-https-redirect.yaml',
    ]);
  });

  it('reads the cluster and --apply applies server-side under its own field manager (the http listener stays kaas\'s)', async () => {
    const o = base({ cluster: 'demo', apply: true });
    const kc = path.join(o.home, 'kc.yaml');
    writeFileSync(kc, 'apiVersion: v1\nkind: Config\n');
    const list = { apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'shop' }, spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.org', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } }] };
    fake = fakeTools([
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'ingresses.networking.k8s.io', '--all-namespaces', '-o', 'json'], response: { stdout: JSON.stringify(list) } },
      { tool: 'kubectl', argv: ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas-migrate-ingress', '-f', '-'], stdinContains: ['kind: HTTPRoute', 'name: web', 'sectionName: http'], response: { stdout: 'httproute.gateway.networking.k8s.io/web serverside-applied\n' } },
    ]);
    const r = await runMigrateIngress({ ...o, kubeconfig: kc }, { logger: memoryLogger(), runner: fakeRunner(fake), kubectlFor: (t) => createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl')) });
    fake.assertDone();
    expect(r.text).toBe('1 Gateway API object(s) applied to cluster demo; the Ingresses stay until you delete them (switch DNS per host first)');
  });

  describe('named Service ports', () => {
    const namedIngress = (ns: string) => ({ apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: ns }, spec: { ingressClassName: 'nginx', rules: [{ host: `${ns}.example.org`, http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { name: 'http' } } } }] } }] } });
    const svc = (ns: string, ports: object[]) => ({ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: ns }, spec: { ports } });
    const list = (items: object[]) => JSON.stringify({ apiVersion: 'v1', kind: 'List', items, metadata: { resourceVersion: '' } });
    const cluster = (calls: (kc: string) => Parameters<typeof fakeTools>[0]) => {
      const o = base({ cluster: 'demo', apply: true });
      const kc = path.join(o.home, 'kc.yaml');
      writeFileSync(kc, 'apiVersion: v1\nkind: Config\n');
      fake = fakeTools(calls(kc));
      return runMigrateIngress({ ...o, kubeconfig: kc }, { logger: memoryLogger(), runner: fakeRunner(fake), kubectlFor: (t) => createKubectl(fakeRunner(fake!), t, fake!.bin('kubectl')) });
    };

    it('--file: a Service in the input resolves the name to its port', async () => {
      const dir = tempDir('kaas-migrate-in-');
      writeFileSync(path.join(dir, 'all.yaml'), stringifyDocuments([namedIngress('shop'), svc('shop', [{ name: 'http', port: 80, targetPort: 8080 }])] as KubeObject[]));
      const r = await runMigrateIngress(base({ file: dir, json: true }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) });
      expect((r.data.objects[0].spec as { rules: { backendRefs: object[] }[] }).rules[0].backendRefs).toEqual([{ name: 'web', port: 80 }]);
    });

    it('--file: an unresolved name is refused with exit 2, every backend named, nothing written', async () => {
      const dir = tempDir('kaas-migrate-in-');
      const out = path.join(tempDir('kaas-migrate-out-'), 'routes');
      writeFileSync(path.join(dir, 'all.yaml'), stringifyDocuments([namedIngress('shop'), namedIngress('blog')] as KubeObject[]));
      const err = await runMigrateIngress(base({ file: dir, outputDir: out }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(UsageError);
      expect((err as UsageError).exitCode).toBe(2);
      expect((err as UsageError).message).toMatch(/^2 Ingress backend\(s\) name a Service port kaas cannot resolve to its number; .*"Must have port for Service reference"\), so nothing was written$/);
      expect((err as UsageError).problems).toEqual([
        'blog/web host blog.example.org path / (spec.rules[0].http.paths[0]): Service web port "http": no Service blog/web among the Services read',
        'shop/web host shop.example.org path / (spec.rules[0].http.paths[0]): Service web port "http": no Service shop/web among the Services read',
      ]);
      expect((err as UsageError).hint).toBe('add the Service manifests to --file, name the cluster (kaas migrate-ingress <cluster> --file …) to read its live Services, or give the backend port.number instead of port.name');
      expect(existsSync(out)).toBe(false);
    });

    it('from the cluster: the live Services of the Ingress\'s namespace resolve the name, then the route is applied with the number', async () => {
      const r = await cluster((kc) => [
        { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'ingresses.networking.k8s.io', '--all-namespaces', '-o', 'json'], response: { stdout: list([namedIngress('shop')]) } },
        { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'services', '--namespace', 'shop', '-o', 'json'], response: { stdout: list([svc('shop', [{ name: 'metrics', port: 9090 }, { name: 'http', port: 80, targetPort: 8080 }])]) } },
        { tool: 'kubectl', argv: ['--kubeconfig', kc, 'apply', '--server-side', '--field-manager=kaas-migrate-ingress', '-f', '-'], stdinContains: ['kind: HTTPRoute', '- name: web\n          port: 80\n'], response: { stdout: 'httproute.gateway.networking.k8s.io/web serverside-applied\n' } },
      ]);
      fake!.assertDone();
      expect(r.text).toMatch(/^1 Gateway API object\(s\) applied/);
    });

    it('from the cluster: a live Service without the port name is refused before anything is applied', async () => {
      const err = await cluster((kc) => [
        { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'ingresses.networking.k8s.io', '--all-namespaces', '-o', 'json'], response: { stdout: list([namedIngress('shop')]) } },
        { tool: 'kubectl', argv: ['--kubeconfig', kc, 'get', 'services', '--namespace', 'shop', '-o', 'json'], response: { stdout: list([svc('shop', [{ name: 'web', port: 80 }])]) } },
      ]).catch((e: unknown) => e);
      fake!.assertDone();
      expect((err as UsageError).problems).toEqual(['shop/web host shop.example.org path / (spec.rules[0].http.paths[0]): Service web port "http": Service shop/web has no port named "http" (its ports: 80 "web")']);
      expect((err as UsageError).hint).toBe('create the Service (or correct the port name) in the cluster, or give the backend port.number instead of port.name');
    });
  });

  it.each([
    [{}, /name a cluster to read its Ingresses, or --file/],
    [{ file: CORPUS, apply: true }, /--apply needs the cluster/],
    [{ file: '/nonexistent/x.yaml' }, /--file \/nonexistent\/x.yaml does not exist/],
  ])('refuses %j', async (o, msg) => {
    const err = await runMigrateIngress(base(o), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect((err as Error).message).toMatch(msg);
    expect(existsSync('/nonexistent')).toBe(false);
  });
});

/** Issue 23: `rewrite-target: /$2` on a path without regex groups became a substitution naming a missing group. */
describe('migrate-ingress and a rewrite-target naming a group the path lacks', () => {
  const MISSING = path.resolve(process.cwd(), 'test/fixtures/malformed/migrate/rewrite-missing-group.yaml');

  it('is refused (exit 2) naming the Ingress, the path, the annotation and the fix; nothing is written', async () => {
    const dir = tempDir('kaas-migrate-');
    const err = await runMigrateIngress(base({ file: MISSING, outputDir: dir }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) }).then(() => undefined, (e: UsageError) => e);
    expect(err).toBeInstanceOf(UsageError);
    expect(err!.message).toBe('1 Ingress path cannot be converted as written; nothing was written or applied');
    expect(err!.problems).toEqual([
      'Ingress web/shop, path /shop, annotation nginx.ingress.kubernetes.io/rewrite-target: rewrite-target "/$2" names group $2, but path "/shop" has no regex groups; '
        + 'ingress-nginx replaced $2 with nothing, sending every request under the path to "/". Fix the Ingress: give the path the groups (e.g. path "/shop(/|$)(.*)" with rewrite-target "/$2"), or set the target you mean without $n',
    ]);
    expect(err!.hint).toMatch(/kubectl edit ingress/);
    expect(existsSync(path.join(dir, 'web'))).toBe(false);
  });

  it('the documented idioms with their groups still convert (corpus 02, 04)', async () => {
    for (const c of ['02-rewrite-capture', '04-rewrite-regex']) {
      const r = await runMigrateIngress(base({ file: path.join(CORPUS, c) }), { logger: memoryLogger(), runner: fakeRunner(fakeTools([])) });
      expect(r.raw).toMatch(/kind: HTTPRoute\n/);
    }
  });

  it.each([
    ['/shop', 0], ['/shop(/|$)(.*)', 2], ['/legacy/(v[0-9]+)/(.*)', 2], ['/a\\(b\\)', 0], ['/(?:x|y)/(.*)', 1],
  ])('path %s has %i capture group(s)', (p, n) => expect(captureGroups(p)).toBe(n));
});
