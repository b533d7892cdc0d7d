import { cpSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { parse as parseYaml } from 'yaml';
import { cleanEnv, ROOT, runKaas, tempDir } from '../support/cli.js';

const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

describe('kaas CLI basics', () => {
  it('--help prints usage and the commands, exit 0', () => {
    const r = runKaas(['--help']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/Usage: kaas <command>/);
    expect(r.stdout).toMatch(/kaas settings <command>/);
  });

  it('settings --help lists the settings commands', () => {
    const r = runKaas(['settings', '--help']);
    expect(r.code).toBe(0);
    for (const c of ['show', 'validate', 'schema', 'import']) expect(r.stdout).toContain(`kaas settings ${c}`);
  });

  it.each([
    ['an unknown command', ['frobnicate']],
    ['an unknown flag', ['settings', 'show', 'demo', '--env', 'example', '--frob']],
    ['a bad -o value', ['settings', 'show', 'demo', '--env', 'example', '-o', 'xml']],
    ['a missing positional', ['settings', 'show']],
  ])('%s is bad usage: exit 2, no stack trace', (_n, args) => {
    const r = runKaas(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: /m);
    expect(r.stderr).not.toMatch(STACK_FRAME);
  });

  // `kaas` alone prints the help, exit 0 (issue 33 §4): test/cli/cli-conventions.test.ts.

  it('kaas completion prints a shell completion script', () => {
    const r = runKaas(['completion']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/complete -o/);
    expect(r.stdout).toMatch(/kaas/);
  });

  it('npx kaas --help works from the repo root (bin → dist/bundle/kaas.js), without rebuilding dist/', () => {
    // npx installs the checkout into its cache (a fresh HOME: an empty one), which runs `prepare`:
    // that must find dist/ built from these sources and leave it alone, not rebuild it under the
    // other test files running from it.
    const built = ['dist/bundle/kaas.js', 'dist/cli/main.js'].map((f) => statSync(path.join(ROOT, f)).mtimeMs);
    const r = spawnSync('npx', ['--no-install', 'kaas', '--help'], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60000 });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/Usage: kaas <command>/);
    expect(['dist/bundle/kaas.js', 'dist/cli/main.js'].map((f) => statSync(path.join(ROOT, f)).mtimeMs)).toEqual(built);
  });
});

describe('kaas settings on the bundled example', () => {
  it('show -o json gives every value with its origin', () => {
    const r = runKaas(['settings', 'show', 'demo', '--env', 'example', '-o', 'json']);
    expect(r.code).toBe(0);
    const data = JSON.parse(r.stdout);
    expect(data).toMatchObject({ env: 'example', cluster: 'demo' });
    expect(data.settings.worker_count).toEqual({ value: 2, origin: expect.stringMatching(/^settings\/example\.yaml:\d+ \(cluster section\)$/) });
    expect(data.settings.cloud).toEqual({ value: 'example-cloud', origin: expect.stringMatching(/^settings\/example\.yaml:\d+$/) });
    expect(data.settings.pod_cidr).toEqual({ value: '192.168.0.0/16', origin: 'default' });
  });

  it('show -o yaml is YAML with the same data; env vars and --set show as origins', () => {
    const r = runKaas(['settings', 'show', 'demo', '--env', 'example', '-o', 'yaml', '--set', 'mtu=1400'], { env: { KAAS_WORKER_COUNT: '4' } });
    expect(r.code).toBe(0);
    const data = parseYaml(r.stdout);
    expect(data.settings.worker_count).toEqual({ value: 4, origin: 'env KAAS_WORKER_COUNT' });
    expect(data.settings.mtu).toEqual({ value: 1400, origin: 'flag --set mtu' });
  });

  it('show in text has one line per setting; --no-color has no escape codes', () => {
    const r = runKaas(['settings', 'show', 'demo', '--env', 'example', '--no-color']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^# environment example, cluster demo \(settings\/example\.yaml\)$/m);
    expect(r.stdout).toMatch(/^worker_count\s+2\s+settings\/example\.yaml:\d+ \(cluster section\)$/m);
    expect(r.stdout + r.stderr).not.toMatch(/\u001b\[/);
  });

  it('validate --env example is ok', () => {
    const r = runKaas(['settings', 'validate', '--env', 'example']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe('settings/example.yaml: valid (clusters: demo, prod)\n');
    expect(r.stderr).toBe('');
  });

  it('validate and show of env default without its file say so instead of calling the missing file valid', () => {
    const dir = tempDir();
    const r = runKaas(['settings', 'validate', '--settings-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${path.join(dir, 'default.yaml')} does not exist: only the built-in defaults, KAAS_* variables and --set flags were checked (valid)\n`);
    expect(JSON.parse(runKaas(['settings', 'validate', '--settings-dir', dir, '-o', 'json']).stdout)).toEqual({ valid: true, file: null, clusters: [], problems: [], warnings: [] });
    expect(runKaas(['settings', 'show', 'demo', '--settings-dir', dir]).stdout).toMatch(/^# environment default, cluster demo \(.*default\.yaml does not exist: built-in defaults\)$/m);
  });

  it('KAAS_ENV and KAAS_SETTINGS_DIR choose the environment', () => {
    const r = runKaas(['settings', 'validate'], { env: { KAAS_ENV: 'example', KAAS_SETTINGS_DIR: path.join(ROOT, 'settings') } });
    expect(r.code).toBe(0);
  });

  it('schema prints valid JSON', () => {
    const r = runKaas(['settings', 'schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#', type: 'object' });
  });

  it('a legacy key works with a warning on stderr naming the new key', () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'old.yaml'), 'USE_OVN_LB_PROVIDER: auto\n');
    const r = runKaas(['settings', 'show', 'x', '--env', 'old', '--settings-dir', dir, '-o', 'json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).settings.use_ovn_lb_provider.value).toBe('auto');
    expect(r.stderr).toContain('USE_OVN_LB_PROVIDER is the legacy SCS name; use use_ovn_lb_provider instead');
  });

  it('a missing environment file is exit 2 with the environments that exist', () => {
    const r = runKaas(['settings', 'show', 'demo', '--env', 'nope']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/hint: environments in .*: example/);
  });
});

describe('kaas settings import through the CLI', () => {
  const scs = path.join(ROOT, 'test', 'fixtures', 'scs');
  const args = (dir: string, ...more: string[]) => [
    'settings', 'import', path.join(scs, 'clusterctl.yaml'), '--cloud-conf', path.join(scs, 'cloud.conf'),
    '--harbor-settings', path.join(scs, 'harbor-settings'), '--cluster', 'prod1', '--env', 'imported', '--settings-dir', dir, ...more,
  ];
  const secrets = () => {
    const text = readFileSync(path.join(scs, 'clusterctl.yaml'), 'utf8');
    const b64 = [...text.matchAll(/_B64: (\S+)$/gm)].map((m) => m[1]);
    return [...b64, ...b64.map((b) => Buffer.from(b, 'base64').toString()), 'S3cr3t-cloud-conf-fixture-55d0', 'S3cr3t-clouds-yaml-fixture-91c2'];
  };

  it('--dry-run prints the file on stdout and the report on stderr; no secret in either', () => {
    const dir = tempDir();
    const r = runKaas(args(dir, '--dry-run'));
    expect(r.code).toBe(0);
    expect(parseYaml(r.stdout).clusters.prod1.worker_count).toBe(4);
    expect(r.stderr).toMatch(/OPENSTACK_CLOUD_YAML_B64\s+secret/);
    for (const s of secrets()) expect(r.stdout + r.stderr).not.toContain(s);
  });

  it('writes a file that validates, then refuses to overwrite a changed section without --force', () => {
    const dir = tempDir();
    expect(runKaas(args(dir)).code).toBe(0);
    const file = path.join(dir, 'imported.yaml');
    for (const s of secrets()) expect(readFileSync(file, 'utf8')).not.toContain(s);
    expect(runKaas(['settings', 'validate', 'prod1', '--env', 'imported', '--settings-dir', dir]).code).toBe(0);
    writeFileSync(file, readFileSync(file, 'utf8').replace('worker_count: 4', 'worker_count: 5'));
    const again = runKaas(args(dir));
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists with other values.*\nhint: use --force/);
    expect(runKaas(args(dir, '--force')).code).toBe(0);
  });

  it('imports into a copy of the example, keeping its comments', () => {
    const dir = tempDir();
    cpSync(path.join(ROOT, 'settings', 'example.yaml'), path.join(dir, 'imported.yaml'));
    const r = runKaas(args(dir, '-o', 'json'));
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ status: 'added', written: true, cluster: 'prod1' });
    const text = readFileSync(path.join(dir, 'imported.yaml'), 'utf8');
    expect(text).toContain('# The kaas example environment');
    expect(text).toContain('nginx_use_proxy: true # amphora: PROXY protocol keeps client IPs');
  });
});
