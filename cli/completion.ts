import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { readCloudsFiles } from '../lib/openstack/clouds-files.js';

/**
 * Shell completion beyond what yargs knows from the command table: environment names after
 * `--env`, cluster names where a command takes a cluster (both read from the settings files), and
 * the clouds.yaml entries after `--cloud` (their names only; yargs itself offers the choices of a
 * flag such as -o). Completion never talks to a cloud or a cluster.
 */

/** Commands (by their words) whose first positional is a cluster name. */
const CLUSTER_COMMANDS = ['create-cluster', 'delete-cluster', 'apply-ingress', 'detect', 'settings show', 'settings validate', 'get kubeconfig'];

/** Flags that take a value (so the word after them is not a positional). */
const VALUE_FLAGS = new Set([
  '--env', '-e', '--settings-dir', '--output', '-o', '--set', '--cloud', '--capabilities', '--kubeconfig', '--context', '--output-dir',
  '--output-file', '--timeout', '--rollout-timeout', '--address-timeout', '--cloud-conf', '--harbor-settings', '--cluster', '--tfvars',
  '--mgmt-kubeconfig', '--workload-kubeconfig', '--verify-timeout', '--stuck-after', '--namespace', '-n', '--file', '-f', '--port', '--tries',
]);

/** What to complete at the cursor, from the words typed so far (the last one is being typed). */
export type CompletionWant = { kind: 'env' } | { kind: 'cluster' } | { kind: 'cloud' } | { kind: 'default' };

/** Decides what the word under the cursor is: an environment, a cluster, or anything yargs knows. */
export function completionWant(words: string[]): CompletionWant {
  const typed = words.slice(0, -1);
  const current = words[words.length - 1] ?? '';
  const prev = typed[typed.length - 1];
  if (prev === '--env' || prev === '-e') return { kind: 'env' };
  if (prev === '--cluster') return { kind: 'cluster' };
  if (prev === '--cloud') return { kind: 'cloud' };
  if (current.startsWith('-')) return { kind: 'default' };
  const positionals: string[] = [];
  for (let i = 0; i < typed.length; i++) {
    const w = typed[i];
    if (w.startsWith('-')) {
      if (VALUE_FLAGS.has(w)) i++;
      continue;
    }
    positionals.push(w);
  }
  const cmd = CLUSTER_COMMANDS.find((c) => c === positionals.slice(0, c.split(' ').length).join(' '));
  if (cmd && positionals.length === cmd.split(' ').length) return { kind: 'cluster' };
  return { kind: 'default' };
}

/** The value of a flag among the typed words (`--env x` or `--env=x`). */
export function flagValue(words: string[], names: string[]): string | undefined {
  for (let i = words.length - 2; i >= 0; i--) {
    if (names.includes(words[i])) return words[i + 1];
    const eq = names.map((n) => `${n}=`).find((n) => words[i].startsWith(n));
    if (eq) return words[i].slice(eq.length);
  }
  return undefined;
}

/** Environment names: the `<env>.yaml` files of the settings directory. */
export function environmentNames(settingsDir: string): string[] {
  try {
    return readdirSync(settingsDir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)).sort();
  } catch {
    return [];
  }
}

/** Cluster names: the `clusters:` keys of one environment file (none when it does not parse). */
export function clusterNames(settingsDir: string, env: string): string[] {
  try {
    const doc = parse(readFileSync(path.join(settingsDir, `${env}.yaml`), 'utf8')) as { clusters?: Record<string, unknown> } | null;
    return Object.keys(doc?.clusters ?? {}).sort();
  } catch {
    return [];
  }
}

/** Cloud names: the entries of the clouds.yaml openstacksdk would read (none when it does not parse). */
export function cloudNames(environ: NodeJS.ProcessEnv, cwd: string, home: string): string[] {
  try {
    return Object.keys(readCloudsFiles({ environ, cwd, home }).clouds).sort();
  } catch {
    return [];
  }
}

/** yargs's own completions without the one-letter aliases it offers as long flags (`--e`, `--q`). */
export function withoutLetterFlags(words: string[]): string[] {
  return words.filter((w) => !/^--[a-zA-Z](:|$)/.test(w));
}
