import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runKaas, tempDir } from '../support/cli.js';

const T = 120_000;

/**
 * Issue 33 §3: with the edge switches unset, a new cluster gets the Gateway and no ingress-nginx; a
 * cluster kaas already created with the old default (its kubeconfig and the applied ingress-nginx
 * recorded under ~/.kube/kaas/env.<env>/<namespace>/) keeps ingress-nginx and gets no Gateway.
 */
describe('the default edge of create-cluster --dry-run', () => {
  // The example environment without its two edge lines.
  const settingsDir = tempDir();
  const example = readFileSync(path.join(ROOT, 'settings', 'example.yaml'), 'utf8');
  const text = example.replace(/^deploy_nginx_ingress:.*\n/m, '').replace(/^deploy_gateway:.*\n/m, '');
  if (text === example || /deploy_(nginx_ingress|gateway):/.test(text)) throw new Error('settings/example.yaml no longer sets the edge as this test expects');
  writeFileSync(path.join(settingsDir, 'edge.yaml'), text);
  const run = (home: string) => runKaas(['create-cluster', 'demo', '--settings-dir', settingsDir, '--env', 'edge', '--dry-run'], { env: { HOME: home } });

  it('a new cluster: Envoy Gateway, no ingress-nginx', () => {
    const r = run(tempDir('kaas-home-'));
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^ingress step: none: ingress-nginx not deployed: deploy_nginx_ingress is false\.$/m);
    expect(r.stderr).toMatch(/^gateway step: Envoy Gateway v1\.9\.0 /m);
    expect(r.stderr).toMatch(/deploy_gateway is not set: a new cluster gets the Gateway API edge/);
    expect(r.stdout).toMatch(/^# envoy-gateway\.yaml$/m);
    expect(r.stdout).not.toMatch(/^# ingress-nginx\.yaml$/m);
  }, T);

  it('a cluster created with the old default keeps ingress-nginx and gets no Gateway, and says so', () => {
    const home = tempDir('kaas-home-');
    const state = path.join(home, '.kube', 'kaas', 'env.edge', 'demo');
    mkdirSync(path.join(state, 'demo', 'applied'), { recursive: true });
    writeFileSync(path.join(state, 'demo.yaml'), 'apiVersion: v1\nkind: Config\n', { mode: 0o600 });
    writeFileSync(path.join(state, 'demo', 'applied', 'ingress-nginx.yaml'), 'apiVersion: v1\nkind: Namespace\nmetadata: {name: ingress-nginx}\n', { mode: 0o600 });
    const r = run(home);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^ingress step: ingress-nginx v1\.15\.1 /m);
    expect(r.stderr).toMatch(/^gateway step: none: deploy_gateway is false$/m);
    expect(r.stderr).toMatch(/deploy_nginx_ingress is not set: cluster demo runs ingress-nginx \(kaas's records of what it applied, .*env\.edge\/demo\), so kaas keeps it/);
    expect(r.stderr).toMatch(/deploy_gateway is not set: cluster demo does not run the Gateway API edge .*so kaas adds none/);
    expect(r.stdout).toMatch(/^# ingress-nginx\.yaml$/m);
    expect(r.stdout).not.toMatch(/^# envoy-gateway\.yaml$/m);
  }, T);
});
