import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT, runKaas, tempDir } from '../support/cli.js';
import { runKaasOnTty } from '../support/pty.js';

/** Help, completion and hints of the built CLI, as a user sees them. */
const T = 180_000;

const COMMANDS = [
  'settings init', 'settings show', 'settings validate', 'settings schema', 'settings import',
  'detect', 'apply-ingress', 'create-cluster', 'delete-cluster', 'get kubeconfig',
];

const flagCache = new Map<string, Set<string>>();
/** The flags a command accepts, read from its --help (the global ones included). */
function flagsOf(cmd: string): Set<string> {
  let flags = flagCache.get(cmd);
  if (!flags) {
    const help = runKaas([...cmd.split(' '), '--help']).stdout;
    // The command's own flags ("Options:", absent when it has none), then the global ones.
    const options = help.slice(help.search(/^(Options|Global options):$/m), help.indexOf('Examples:') > 0 ? help.indexOf('Examples:') : undefined);
    flags = new Set([...options.matchAll(/(?:^|[\s,])(--[a-z][a-z-]*)/gm)].map((m) => m[1]));
    if (flags.has('--color')) flags.add('--no-color');
    flagCache.set(cmd, flags);
  }
  return flags;
}

/** Flags a hint offers to this command: segments that run another tool (or another kaas command) are not its flags. */
function hintFlags(stderr: string): string[] {
  const hint = /^hint: (.*)$/m.exec(stderr)?.[1] ?? '';
  return hint
    .split(/[;,]| or /)
    .filter((seg) => !/\b(kubectl|clusterctl|openstack|helm|cilium|npx|kaas)\b/.test(seg))
    .flatMap((seg) => seg.match(/--[a-z][a-z-]*/g) ?? []);
}

describe('help', () => {
  it.each(['', 'settings', 'get', ...COMMANDS])('kaas %s --help fits 80 columns on a wide terminal and has examples', (cmd) => {
    const r = runKaasOnTty([...cmd.split(' ').filter(Boolean), '--help'], { columns: 200 });
    expect(r.code).toBe(0);
    const lines = r.stdout.replace(/\r/g, '').split('\n');
    expect(lines.filter((l) => l.length > 80)).toEqual([]);
    expect(r.stdout).toMatch(/^Examples:$/m);
  }, T);

  it.each([['create-cluster'], ['delete-cluster'], ['apply-ingress'], ['settings show'], ['get kubeconfig']])('%s shows its cluster as required', (cmd) => {
    const r = runKaas([...cmd.split(' '), '--help']);
    expect(r.stdout).toContain(`kaas ${cmd} <cluster>`);
  }, T);

  // Which cluster --kubeconfig means is part of each command's contract: the workload cluster for the
  // commands that act inside it, the management cluster for those that drive Cluster API (the flag is
  // named after it, --kubeconfig its alias: test/cli/cli-values.test.ts).
  it.each([
    ['apply-ingress', 'workload'], ['apply-gateway', 'workload'], ['check-lb', 'workload'], ['doctor', 'workload'],
    ['create-cluster', 'management'], ['delete-cluster', 'management'], ['get kubeconfig', 'management'],
  ])('%s takes --kubeconfig of the %s cluster and --context', (cmd, of) => {
    const help = runKaas([...cmd.split(' '), '--help']).stdout.replace(/\s+/g, ' ');
    expect(help).toMatch(new RegExp(`--kubeconfig ${of} cluster kubeconfig`));
    expect(help).toMatch(new RegExp(`--context context in the ${of} cluster kubeconfig \\(default: [^)]*its current context\\)`));
  }, T);
});

describe('completion', () => {
  it.each([
    ['bash', /complete -o bashdefault -o default -F _kaas_yargs_completions kaas/],
    ['zsh', /^#compdef kaas$/m],
    ['fish', /complete -f -c kaas/],
  ])('kaas completion %s prints the %s script whatever $SHELL is', (shell, pattern) => {
    const r = runKaas(['completion', shell], { env: { SHELL: '/bin/bash' } });
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(pattern);
  }, T);

  it('refuses a shell it has no script for (exit 2)', () => {
    const r = runKaas(['completion', 'tcsh']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/unknown shell "tcsh"\nhint: one of bash, zsh, fish/);
  }, T);

  it.each([
    [['kaas', '--env', ''], ['example']],
    [['kaas', 'create-cluster', '--env', 'example', ''], ['demo', 'prod']],
    [['kaas', 'delete-cluster', '-e', 'example', 'p'], ['prod']],
    [['kaas', 'get', 'kubeconfig', '--env=example', ''], ['demo', 'prod']],
    [['kaas', 'settings', 'show', '--env', 'example', '--settings-dir', 'settings', 'd'], ['demo']],
  ])('completes %j with %j', (words, want) => {
    const r = runKaas(['--get-yargs-completions', ...words]);
    expect(r.stdout.split('\n').filter(Boolean)).toEqual(want);
  }, T);

  it('still completes commands and flags as yargs does', () => {
    expect(runKaas(['--get-yargs-completions', 'kaas', '']).stdout).toMatch(/^create-cluster$/m);
    expect(runKaas(['--get-yargs-completions', 'kaas', 'delete-cluster', '--']).stdout).toMatch(/^--yes$/m);
  }, T);
});

describe('hints name only flags the command has', () => {
  /** Every .ts file under a source folder. */
  const sources = (dir: string): string[] =>
    readdirSync(path.join(ROOT, dir)).flatMap((f) => {
      const p = path.join(dir, f);
      return statSync(path.join(ROOT, p)).isDirectory() ? sources(p) : p.endsWith('.ts') ? [p] : [];
    });

  it('every "kaas <command> … --flag" written in lib/ and cli/ names a flag of that command', () => {
    const wrong: string[] = [];
    for (const file of [...sources('lib'), ...sources('cli')]) {
      const text = readFileSync(path.join(ROOT, file), 'utf8');
      for (const m of text.matchAll(/kaas ((?:settings|get) [a-z]+|[a-z][a-z-]+)([^'"`\n;)]*)/g)) {
        const cmd = m[1];
        if (!COMMANDS.includes(cmd)) continue;
        for (const flag of m[2].match(/--[a-z][a-z-]*/g) ?? []) if (!flagsOf(cmd).has(flag)) wrong.push(`${file}: kaas ${cmd} ${flag}`);
      }
    }
    expect(wrong).toEqual([]);
  }, T);

  const noCloud = tempDir();
  it.each([
    ['detect', ['detect', '--env', 'example']],
    ['apply-ingress', ['apply-ingress', 'demo', '--env', 'example', '--set', 'use_ovn_lb_provider=auto']],
    ['apply-ingress', ['apply-ingress', 'demo', '--env', 'example', '--output-dir', 'x']],
    ['create-cluster', ['create-cluster', 'demo', '--env', 'example']],
    ['delete-cluster', ['delete-cluster', 'demo', '--env', 'example']],
    ['delete-cluster', ['delete-cluster', 'demo', '--env', 'example', '--yes']],
    ['settings validate', ['settings', 'validate', '--env', 'nope']],
    ['settings init', ['settings', 'init', '--settings-dir', 'settings', '--env', 'example']],
    ['get kubeconfig', ['get', 'kubeconfig', 'demo', '--env', 'example']],
  ])('%s: the hint of %j', (cmd, args) => {
    const r = runKaas(args as string[], { env: { PATH: noCloud, OS_CLIENT_CONFIG_FILE: path.join(noCloud, 'none.yaml') } });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/^hint: /m);
    expect(hintFlags(r.stderr).filter((f) => !flagsOf(cmd).has(f))).toEqual([]);
  }, T);
});

describe('-o json shapes (docs/reference/output.md table)', () => {
  const readme = readFileSync(path.join(ROOT, 'docs', 'reference', 'output.md'), 'utf8');
  /** The documented top-level keys of a command's -o json result. */
  const documented = (cmd: string): string[] => {
    const row = readme.split('\n').find((l) => l.startsWith(`| \`${cmd}\``));
    if (!row) throw new Error(`docs/reference/output.md has no -o json row for ${cmd}`);
    return [...row.split('|')[2].matchAll(/`([a-zA-Z]+)\??`/g)].map((m) => m[1]);
  };
  const dir = tempDir();

  it.each([
    ['settings init', ['settings', 'init', '--settings-dir', dir, '--env', 'shape']],
    ['settings show', ['settings', 'show', 'demo', '--env', 'example']],
    ['settings validate', ['settings', 'validate', '--env', 'example']],
    ['settings import', ['settings', 'import', 'test/fixtures/scs/clusterctl.yaml', '--cluster', 'demo', '--settings-dir', dir, '--env', 'imp']],
    ['create-cluster', ['create-cluster', 'demo', '--env', 'example', '--dry-run', '--output-dir', path.join(dir, 'out')]],
    ['create-cluster --list-variables', ['create-cluster', 'demo', '--env', 'example', '--list-variables']],
    ['apply-ingress', ['apply-ingress', 'demo', '--env', 'example', '--dry-run', '--output-dir', path.join(dir, 'ing')]],
    ['apply-gateway', ['apply-gateway', 'demo', '--env', 'example', '--dry-run', '--output-dir', path.join(dir, 'gw')]],
    ['migrate-ingress', ['migrate-ingress', '--file', 'test/fixtures/migrate/01-basic-prefix/ingress.yaml', '--output-dir', path.join(dir, 'routes')]],
  ])('%s -o json has exactly the documented keys', (cmd, args) => {
    const r = runKaas([...args, '-o', 'json']);
    expect(r.code).toBe(0);
    const keys = Object.keys(JSON.parse(r.stdout));
    const doc = documented(cmd);
    expect(keys.filter((k) => !doc.includes(k))).toEqual([]);
    const optional = readme.split('\n').find((l) => l.startsWith(`| \`${cmd}\``))!;
    expect(doc.filter((k) => !keys.includes(k) && !optional.includes(`\`${k}?\``))).toEqual([]);
  }, T);
});
