import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { codeCacheSuffix } from '../../lib/code-files.js';
import { componentVersions } from '../../lib/version/components.js';
import { KAAS, ROOT, tempDir, type CliRun } from '../support/cli.js';

/**
 * The release `npm run release` built (dist/release/; `npm run test:release` builds it, then runs
 * this file): the single-file executable runs the README's quick start from a directory that holds
 * nothing but the executable — no node_modules, no checkout, no Node.js on PATH — and prints what
 * the bundle prints; `kaas version` names this checkout's commit.
 */
const RELEASE = path.join(ROOT, 'dist', 'release');
const ARCH: Record<string, string> = { x64: 'amd64', arm64: 'arm64' };
const NAME = `kaas-linux-${ARCH[process.arch]}`;

describe('the single-file executable', () => {
  const dir = tempDir('kaas-release-');
  const home = path.join(dir, 'home');
  // PATH: an empty folder (no node, no kubectl): the quick start needs neither.
  const bin = path.join(dir, 'bin');
  const exe = path.join(dir, 'kaas');

  beforeAll(() => {
    if (!existsSync(path.join(RELEASE, NAME))) throw new Error(`${path.join(RELEASE, NAME)} is missing: run npm run test:release (it builds the release first)`);
    mkdirSync(home);
    mkdirSync(bin);
    copyFileSync(path.join(RELEASE, NAME), exe);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  const env = () => ({ PATH: bin, HOME: home, NO_COLOR: '1' });
  /** Runs the executable (or, with `bundle`, dist/bundle/kaas.js under this Node) in the temp dir. */
  const run = (args: string[], bundle = false): CliRun => {
    const [cmd, pre] = bundle ? [process.execPath, [KAAS]] : [exe, []];
    const r = spawnSync(cmd, [...pre, ...args], { cwd: dir, env: env(), encoding: 'utf8', timeout: 120_000, maxBuffer: 64 * 1024 * 1024 });
    if (r.error || r.signal) throw new Error(`kaas ${args.join(' ')}: ${r.error?.message ?? r.signal}\n${r.stderr}`);
    return { code: r.status, stdout: r.stdout, stderr: r.stderr };
  };

  it("carries the validators' V8 code caches (made on this CPU) in this CPU's executable only; the other CPU's gets none", () => {
    // The SEA blob holds each asset under its name (lib/assets.ts): look for the names in the files.
    const validators = readdirSync(path.join(ROOT, 'dist', 'bundle', 'validators')).filter((f) => f.endsWith('.cjs'));
    const probe = validators.find((f) => f.startsWith('crd-cluster.x-k8s.io_'))!;
    for (const [file, caches] of Object.entries(ARCH).map(([arch, name]) => [`kaas-linux-${name}`, arch === process.arch] as const)) {
      const bytes = readFileSync(path.join(RELEASE, file)); // ~130 MB: read once per executable
      expect([file, bytes.includes(`validators/${probe}`)]).toEqual([file, true]);
      expect([file, bytes.includes(`validators/${probe}${codeCacheSuffix()}`)]).toEqual([file, caches]);
      // No other validator's cache either (the script itself names only the suffix's pattern).
      expect([file, bytes.includes(`.cjs${codeCacheSuffix()}`)]).toEqual([file, caches]);
    }
  });

  it('is a directory of its own: nothing else beside it', () => {
    expect(readdirSync(dir).sort()).toEqual(['bin', 'home', 'kaas']);
  });

  it.each([
    [['create-cluster', 'demo', '--env', 'example', '--dry-run'], /^(?=[\s\S]*kind: OpenStackCluster)(?=[\s\S]*kind: KubeadmControlPlane)(?=[\s\S]*openstack-cloud-controller-manager)/],
    [['apply-ingress', 'demo', '--env', 'example', '--dry-run'], /^(?=[\s\S]*kind: Deployment)(?=[\s\S]*use-proxy-protocol: "true")/],
    [['apply-gateway', 'demo', '--env', 'example', '--dry-run'], /^(?=[\s\S]*name: httproutes\.gateway\.networking\.k8s\.io)(?=[\s\S]*kind: ClientTrafficPolicy)/],
    [['settings', 'show', 'demo', '--env', 'example'], /^# environment example, cluster demo \(kaas:settings\/example\.yaml\)\n[\s\S]*example-cloud +kaas:settings\/example\.yaml:\d+/],
  ])('runs the quick start: kaas %p, as the bundle does', (args, out) => {
    const r = run(args);
    expect(r.stderr).not.toMatch(/^error/m);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(out);
    // The bundle reads the package's settings/example.yaml, the executable its asset: only the name differs.
    const b = run(args, true);
    expect(r.stdout.replaceAll('kaas:settings/example.yaml', 'settings/example.yaml'))
      .toBe(b.stdout.replaceAll(path.join(ROOT, 'settings', 'example.yaml'), 'settings/example.yaml'));
    expect(r.stderr).toBe(b.stderr);
  }, 120_000);

  it('starts your own settings: settings init, then --list-variables', () => {
    const init = run(['settings', 'init', '--cloud', 'mycloud', '--cluster', 'demo']);
    expect(init.code).toBe(0);
    expect(init.stdout).toMatch(/wrote .*\.config\/kaas\/default\.yaml .*; for editors: kaas settings schema > .*\.config\/kaas\/schema\.json/);
    expect(readFileSync(path.join(home, '.config', 'kaas', 'default.yaml'), 'utf8')).toMatch(/^# yaml-language-server: \$schema=\.\/schema\.json\n[\s\S]*cloud: mycloud/);
    const vars = run(['create-cluster', 'demo', '--list-variables']);
    expect(vars.code).toBe(0);
    expect(vars.stdout).toMatch(/cloud +mycloud/);
  });

  it('prints the recorded --help', () => {
    const r = run(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(readFileSync(path.join(ROOT, 'dist', 'bundle', 'data', 'help.txt'), 'utf8'));
  });

  it("kaas version -o json: this checkout's version and commit, its Node.js, and the component tables", () => {
    const r = run(['version', '-o', 'json']);
    expect(r.code).toBe(0);
    const head = spawnSync('git', ['rev-parse', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).stdout.trim();
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    const report = JSON.parse(r.stdout) as { kaas: Record<string, unknown>; components: unknown };
    expect(report.kaas).toEqual({ version, commit: head, dirty: expect.any(Boolean), node: process.version, executable: true });
    expect(report.components).toEqual(componentVersions());
    const text = run(['version']);
    expect(text.stdout.split('\n')[0]).toBe(`kaas ${version}, commit ${head.slice(0, 12)}${report.kaas.dirty ? ' (with uncommitted changes)' : ''}, Node.js ${process.version}, single-file executable`);
    expect(run(['--version']).stdout).toBe(`${version}\n`);
  });

  it('comes with the arm64 executable and the npm tarball, and SHA256SUMS checks all three', () => {
    const sums = readFileSync(path.join(RELEASE, 'SHA256SUMS'), 'utf8').trim().split('\n').map((l) => l.split('  '));
    const { version } = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(sums.map(([, f]) => f)).toEqual([`kaas-${version}.tgz`, 'kaas-linux-amd64', 'kaas-linux-arm64']);
    expect(readdirSync(RELEASE).sort()).toEqual(['SHA256SUMS', ...sums.map(([, f]) => f)]);
    for (const [sum, f] of sums) expect(createHash('sha256').update(readFileSync(path.join(RELEASE, f))).digest('hex')).toBe(sum);
  });
});
