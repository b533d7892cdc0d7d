import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ROOT } from '../support/cli.js';

/**
 * The published package: `npm pack` (of the built tree), installed offline into an empty project,
 * runs as `kaas` from node_modules/.bin — the bundle alone, without TypeScript, the sources, the
 * templates/ folder or any dependency.
 */
const npm = (args: string[], cwd: string) => spawnSync('npm', [...args, '--no-audit', '--no-fund', '--loglevel=error'], { cwd, encoding: 'utf8', timeout: 300_000 });

describe('the packed kaas package', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'kaas-pack-'));
  let project: string;
  let files: string[];

  beforeAll(() => {
    // The tree is built already (npm test builds first): skip `prepare`.
    const pack = npm(['pack', '--ignore-scripts', '--json', '--pack-destination', dir], ROOT);
    expect(pack.stderr).toBe('');
    const [info] = JSON.parse(pack.stdout) as { filename: string; files: { path: string }[] }[];
    files = info.files.map((f) => f.path);
    project = path.join(dir, 'project');
    spawnSync('mkdir', ['-p', project]);
    writeFileSync(path.join(project, 'package.json'), '{ "name": "user-project", "private": true }\n');
    // An Ingress for migrate-ingress (its routes are checked against the bundled Gateway API CRDs).
    copyFileSync(path.join(ROOT, 'test/fixtures/migrate/01-basic-prefix/ingress.yaml'), path.join(project, 'ingress.yaml'));
    // The package needs no install script (the bundle is in it); none may touch this checkout.
    const install = npm(['install', '--offline', '--ignore-scripts', path.join(dir, info.filename)], project);
    expect(install.status).toBe(0);
  }, 300_000);

  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('holds the bundle (with its data and validators) and the example settings and schema, not the sources or the tsc tree', () => {
    expect(files).toContain('dist/bundle/kaas.js');
    expect(files).toContain('dist/bundle/package.json');
    expect(files).toContain('dist/bundle/chunks/package.json');
    expect(files).toContain('dist/bundle/data/gateway/gateway-api-v1.6.1/standard-install.yaml');
    expect(files).toContain('dist/bundle/data/gateway/gateway-api-v1.6.1/LICENSE');
    expect(files).toContain('dist/bundle/validators/v1.9.0-gateway.networking.k8s.io_v1_HTTPRoute.cjs');
    expect(files).toContain('settings/example.yaml');
    expect(files).toContain('settings/schema.json');
    expect(files.filter((f) => /\.ts$|^dist\/(cli|lib|test)\/|^templates\//.test(f))).toEqual([]);
  });

  it('installs no dependencies', () => {
    expect(readdirSync(path.join(project, 'node_modules')).filter((n) => !n.startsWith('.')).sort()).toEqual(['kaas']);
  });

  it.each([
    [['--version'], /^0\.\d+\.\d+\n$/],
    [['--help'], /kaas — Kubernetes clusters on OpenStack/],
    [['apply-ingress', 'demo', '--env', 'example', '--dry-run', '--settings-dir', 'node_modules/kaas/settings'], /^(?=[\s\S]*kind: Deployment)(?=[\s\S]*use-proxy-protocol: "true")/],
    [['create-cluster', 'demo', '--env', 'example', '--dry-run', '--settings-dir', 'node_modules/kaas/settings', '--set', 'kubernetes_version=v1.33.4'], /kind: OpenStackCluster/],
    [['apply-gateway', 'demo', '--env', 'example', '--dry-run', '--settings-dir', 'node_modules/kaas/settings'], /^(?=[\s\S]*name: httproutes\.gateway\.networking\.k8s\.io)(?=[\s\S]*kind: ClientTrafficPolicy)/],
    [['migrate-ingress', '--env', 'example', '--settings-dir', 'node_modules/kaas/settings', '--file', 'ingress.yaml'], /kind: HTTPRoute[\s\S]*name: myservicea/],
    [['settings', 'init', '--env', 'new', '--settings-dir', 'node_modules/kaas/settings', '--dry-run'], /\$schema=\/.*\/node_modules\/kaas\/settings\/schema\.json/],
  ])('runs kaas %p from node_modules/.bin', (args, out) => {
    const r = spawnSync(path.join(project, 'node_modules', '.bin', 'kaas'), args, {
      cwd: project,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: project, NO_COLOR: '1' },
      maxBuffer: 64 * 1024 * 1024, // apply-gateway prints the 3.7 MB of CRDs
    });
    expect(r.stderr).not.toMatch(/^error/m);
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(out);
  }, 60_000);
});
