import { readFileSync } from 'node:fs';
import path from 'node:path';
import { KAAS, runKaas } from '../support/cli.js';

/**
 * Issue 33 §4 (newcomer m9, n1): the conventions kubectl, helm and clusterctl follow, held for every
 * command of the built CLI (docs/reference/cli-conventions.md).
 */
const T = 180_000;

/** Every command users run, by its words. */
const LEAVES = [
  'settings init', 'settings show', 'settings validate', 'settings schema', 'settings import',
  'detect', 'apply-ingress', 'apply-gateway', 'migrate-ingress', 'create-cluster', 'delete-cluster',
  'get kubeconfig', 'get clusters', 'doctor', 'check-lb',
];
const GLOBALS = ['--env', '--settings-dir', '--output', '--set', '--verbose', '--quiet', '--color', '--help', '--version'];

/** The long flags listed in one section of a help text (from its header to the next header). */
function section(help: string, header: string): string[] | undefined {
  const lines = help.split('\n');
  const start = lines.indexOf(header);
  if (start < 0) return undefined;
  const end = lines.findIndex((l, i) => i > start && /^\S.*:$/.test(l));
  const body = lines.slice(start + 1, end < 0 ? undefined : end);
  // A flag starts an entry: "  -e, --env", "      --dry-run" (not the --flags inside descriptions).
  return body.flatMap((l) => /^ {2}(?:-\w, )?\s*(--[a-z][a-z-]*)/.exec(l)?.[1] ?? []);
}

describe('help: the command\'s own flags first, the global ones after them', () => {
  it.each(LEAVES)('kaas %s --help', (cmd) => {
    const r = runKaas([...cmd.split(' '), '--help']);
    expect(r.code).toBe(0);
    const own = section(r.stdout, 'Options:') ?? [];
    const global = section(r.stdout, 'Global options:');
    expect(global?.sort()).toEqual([...GLOBALS].sort());
    expect(own.filter((f) => GLOBALS.includes(f))).toEqual([]);
    if (own.length) expect(r.stdout.indexOf('\nOptions:\n')).toBeLessThan(r.stdout.indexOf('\nGlobal options:\n'));
  }, T);

  it('kaas --help lists the commands, then the global options', () => {
    const r = runKaas(['--help', '--quiet']);
    expect(section(r.stdout, 'Global options:')?.sort()).toEqual([...GLOBALS].sort());
    expect(r.stdout.indexOf('Commands:')).toBeLessThan(r.stdout.indexOf('Global options:'));
  }, T);
});

describe('kaas alone', () => {
  it('prints the help and exits 0, as kubectl, helm and clusterctl do', () => {
    const r = runKaas([]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(runKaas(['--help']).stdout);
    // The recorded help (dist/bundle/data/help.txt) serves it as it serves kaas --help.
    expect(r.stdout).toBe(readFileSync(path.join(path.dirname(KAAS), 'data', 'help.txt'), 'utf8'));
  }, T);
});

describe('an unknown flag: exit 2, the flag as typed, a did-you-mean, the command\'s help', () => {
  it.each([
    [['create-cluster', 'demo', '--dry-rn'], '--dry-rn', '--dry-run', 'create-cluster'],
    [['apply-ingress', 'demo', '--dry-run', '--ouput-dir', 'x'], '--ouput-dir', '--output-dir', 'apply-ingress'],
    [['settings', 'show', 'demo', '--env', 'example', '--verbos'], '--verbos', '--verbose', 'settings show'],
    [['delete-cluster', 'demo', '--yess'], '--yess', '--yes', 'delete-cluster'],
    [['doctor', '--cloud-onyl'], '--cloud-onyl', '--cloud-only', 'doctor'],
  ])('%j', (args, typed, meant, cmd) => {
    const r = runKaas(args);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain(`error: unknown flag ${typed} (did you mean ${meant}?)`);
    expect(r.stderr).toContain(`hint: see kaas ${cmd} --help`);
    // No yargs camelCase echo (`Unknown arguments: dry-rn, dryRn`).
    expect(r.stderr).not.toMatch(/Unknown argument|[a-z][A-Z]/);
  }, T);

  it('names every unknown flag; one unlike any flag gets no suggestion', () => {
    const r = runKaas(['create-cluster', 'demo', '--zzzzzz', '--dry-rn']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: unknown flags --zzzzzz, --dry-rn \(did you mean --dry-run\?\)$/m);
    expect(r.stderr).not.toMatch(/--zzzzzz \(did you mean/);
  }, T);

  it('words after -- are not flags; --no-<flag> of a boolean and camelCase spellings stay known', () => {
    // Reaches the settings (exit 0), not the flag check.
    expect(runKaas(['settings', 'show', 'demo', '--env', 'example', '--no-color', '--settingsDir', 'settings']).code).toBe(0);
    const r = runKaas(['settings', 'show', 'demo', '--env', 'example', '--', '--not-a-flag']);
    expect(r.stderr).not.toContain('unknown flag');
  }, T);
});

describe('a missing argument: which one, and an example', () => {
  it.each([
    [['create-cluster'], 'create-cluster', 'cluster'],
    [['delete-cluster', '--yes'], 'delete-cluster', 'cluster'],
    [['apply-gateway', '--dry-run'], 'apply-gateway', 'cluster'],
    [['settings', 'show'], 'settings show', 'cluster'],
    [['get', 'kubeconfig'], 'get kubeconfig', 'cluster'],
    [['check-lb'], 'check-lb', 'cluster'],
  ])('%j', (args, cmd, what) => {
    const r = runKaas(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(new RegExp(`^error: kaas ${cmd} needs the ${what} name: kaas ${cmd} <${what}>$`, 'm'));
    expect(r.stderr).toMatch(new RegExp(`^hint: e\\.g\\. kaas ${cmd} demo; `, 'm'));
    expect(r.stderr).not.toContain('non-option arguments');
  }, T);

  it('settings import names its file', () => {
    const r = runKaas(['settings', 'import', '--cluster', 'demo']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^error: kaas settings import needs <clusterctl>: kaas settings import <clusterctl>$/m);
    expect(r.stderr).toMatch(/^hint: see kaas settings import --help/m);
  }, T);
});
