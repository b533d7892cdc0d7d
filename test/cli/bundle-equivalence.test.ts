import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/cli.js';
import { tempDir } from '../support/temp.js';

/**
 * The bundled CLI (dist/bundle/kaas.js: precompiled templates and validators, parsed manifests,
 * trimmed dependencies) prints byte for byte what the tsc-built CLI (dist/cli/main.js) prints, with
 * the same exit code, for every kind of command: help, settings, dry-runs in each format, detect
 * from a capabilities file, and errors.
 */
const TSC = path.join(ROOT, 'dist', 'cli', 'main.js');
const BUNDLE = path.join(ROOT, 'dist', 'bundle', 'kaas.js');
const unreachable = { OS_CLIENT_CONFIG_FILE: path.join(ROOT, 'test/fixtures/cluster/clouds-unreachable.yaml') };
const k8s = ['--set', 'kubernetes_version=v1.33.4'];
const ovn = ['--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json'];

const CASES: [string, string[], Record<string, string>?][] = [
  ['help', ['--help']],
  ['version', ['--version']],
  ['settings help', ['settings', '--help']],
  ['apply-ingress help', ['apply-ingress', '--help']],
  ['create-cluster help', ['create-cluster', '--help']],
  ['no command', []],
  ['misspelt command', ['aply-ingress']],
  ['completion', ['completion']],
  ['settings show', ['settings', 'show', 'demo', '--env', 'example']],
  ['settings show -o json', ['settings', 'show', 'demo', '--env', 'example', '-o', 'json']],
  ['settings show -o yaml', ['settings', 'show', 'demo', '--env', 'example', '-o', 'yaml']],
  ['settings validate', ['settings', 'validate', '--env', 'example']],
  ['settings validate, bad --set values', ['settings', 'validate', '--env', 'example', '--set', 'use_ovn_lb_provider=yes', '--set', 'restrict_kubeapi=[10.0.0.0/33, 10.1.0.0/16, 10.1.0.0/16]']],
  ['settings validate, missing env', ['settings', 'validate', '--env', 'nope']],
  ['settings schema', ['settings', 'schema']],
  ['apply-ingress --dry-run', ['apply-ingress', 'demo', '--env', 'example', '--dry-run']],
  ['apply-ingress --dry-run -o json', ['apply-ingress', 'demo', '--env', 'example', '--dry-run', '-o', 'json']],
  ['apply-ingress --dry-run -o yaml', ['apply-ingress', 'demo', '--env', 'example', '--dry-run', '-o', 'yaml']],
  ['apply-ingress --dry-run, OVN from a capabilities file', ['apply-ingress', 'prod', '--env', 'example', '--dry-run', ...ovn]],
  ['apply-ingress --dry-run, bad cidr', ['apply-ingress', 'demo', '--env', 'example', '--dry-run', '--set', 'node_cidr=10.8.0.0/40']],
  ['create-cluster --dry-run', ['create-cluster', 'demo', '--env', 'example', '--dry-run', ...k8s], unreachable],
  ['create-cluster --dry-run -o json', ['create-cluster', 'demo', '--env', 'example', '--dry-run', '-o', 'json', ...k8s], unreachable],
  ['create-cluster --dry-run, no cloud', ['create-cluster', 'demo', '--env', 'example', '--dry-run', ...k8s]],
  ['create-cluster --dry-run, patch version needed', ['create-cluster', 'demo', '--env', 'example', '--dry-run']],
  ['create-cluster --list-variables', ['create-cluster', 'demo', '--env', 'example', '--list-variables']],
  ['detect --capabilities', ['detect', '--env', 'example', ...ovn]],
  ['detect --capabilities -o json', ['detect', 'demo', '--env', 'example', '-o', 'json', ...ovn]],
  ['detect --capabilities, missing file', ['detect', '--env', 'example', '--capabilities', 'nope.json']],
  // The commands and flags added with the gateway, doctor, check-lb, get, settings init and completion.
  ['apply-gateway help', ['apply-gateway', '--help']],
  ['apply-gateway --dry-run', ['apply-gateway', 'demo', '--env', 'example', '--dry-run']],
  ['apply-gateway --dry-run -o json', ['apply-gateway', 'demo', '--env', 'example', '--dry-run', '-o', 'json']],
  ['apply-gateway --dry-run, OVN from a capabilities file', ['apply-gateway', 'prod', '--env', 'example', '--dry-run', ...ovn]],
  ['migrate-ingress --file (every fixture: each route kind and policy, unprotected routes detached)', ['migrate-ingress', '--env', 'example', '--file', 'test/fixtures/migrate', '--detach-unprotected']],
  ['migrate-ingress --file -o json', ['migrate-ingress', '--env', 'example', '--file', 'test/fixtures/migrate/01-basic-prefix', '-o', 'json']],
  ['migrate-ingress, missing file', ['migrate-ingress', '--env', 'example', '--file', 'nope.yaml']],
  ['create-cluster --dry-run with the gateway', ['create-cluster', 'demo', '--env', 'example', '--dry-run', '--set', 'deploy_gateway=true', ...k8s]],
  ['doctor help', ['doctor', '--help']],
  ['doctor, unreachable cloud', ['doctor', 'demo', '--env', 'example', '--cloud-only'], unreachable],
  ['check-lb help', ['check-lb', '--help']],
  ['get help', ['get', '--help']],
  ['get kubeconfig help', ['get', 'kubeconfig', '--help']],
  ['delete-cluster help', ['delete-cluster', '--help']],
  ['detect help', ['detect', '--help']],
  ['settings init --dry-run', ['settings', 'init', '--env', 'fresh', '--cloud', 'mycloud', '--cluster', 'demo', '--dry-run']],
  ['settings import --dry-run', ['settings', 'import', 'test/fixtures/scs/clusterctl.yaml', '--cluster', 'demo', '--tfvars', 'test/fixtures/scs/environment-mycloud.tfvars', '--dry-run']],
  ['completion bash', ['completion', 'bash']],
  ['completion zsh', ['completion', 'zsh']],
  ['completion fish', ['completion', 'fish']],
  ['completion --help', ['completion', '--help']],
  ['completion, unknown shell', ['completion', 'tcsh']],
  ['completing commands', ['--get-yargs-completions', 'kaas', '']],
  ['completing environments', ['--get-yargs-completions', 'kaas', 'settings', 'show', '--env', '']],
  ['completing clusters', ['--get-yargs-completions', 'kaas', 'apply-ingress', '--env', 'example', '']],
];

function run(entry: string, args: string[], env: Record<string, string>, home: string) {
  const r = spawnSync(process.execPath, [entry, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', ...env },
    timeout: 60_000,
    maxBuffer: 64 * 1024 * 1024, // apply-gateway prints the 3.7 MB of CRDs (-o json: more)
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

describe('the bundled CLI prints what the tsc-built CLI prints', () => {
  const home = tempDir('kaas-equiv-');

  it('is built (npm run build bundles after tsc)', () => {
    expect(existsSync(BUNDLE)).toBe(true);
  });

  it.each(CASES)('%s', (_name, args, env = {}) => {
    const tsc = run(TSC, args, env, home);
    const bundled = run(BUNDLE, args, env, home);
    expect(tsc.stdout.length + tsc.stderr.length).toBeGreaterThan(0);
    expect(tsc.code).not.toBeNull(); // ended by itself, not by the timeout or the buffer limit
    expect(bundled).toEqual(tsc);
  }, 120_000);
});
