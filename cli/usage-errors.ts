import { UsageError } from '../lib/errors.js';
import { didYouMeanIn } from '../lib/settings/suggest.js';
import type { OptionTable } from './strict-booleans.js';

/**
 * The usage errors yargs would word in its own way, said as kaas says errors (what, where, how to
 * fix; exit 2): an unknown flag with a did-you-mean, as commands have one (yargs echoes
 * `Unknown arguments: dry-rn, dryRn`), and a missing argument by its name with an example (yargs says
 * `Not enough non-option arguments: got 0, need at least 1`). The hint points at the command's help.
 */

/** What yargs knows of a command's flags once its builder has run (getOptions()). */
export interface FlagTable extends OptionTable {
  key: Record<string, unknown>;
}

const kebab = (s: string) => s.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** The flags of argv (as typed, without their values) that the command does not have. */
export function unknownFlags(argv: readonly string[], opts: FlagTable): string[] {
  const long = new Set<string>();
  const short = new Set<string>();
  // One letter is a short flag, as typed (-A is not -a); a long one in its kebab-case spelling.
  const spelt = (k: string) => (k.length === 1 ? k : kebab(k));
  for (const k of [...Object.keys(opts.key), ...Object.values(opts.alias).flat()]) (k.length === 1 ? short : long).add(spelt(k));
  const booleans = new Set(opts.boolean.flatMap((b) => [spelt(b), ...(opts.alias[b] ?? []).map(spelt)]));
  const unknown: string[] = [];
  for (const word of argv) {
    if (word === '--') break;
    if (/^--[^-=]/.test(word)) {
      const name = kebab(word.slice(2).split('=')[0]);
      const negated = name.startsWith('no-') && booleans.has(name.slice(3));
      if (!long.has(name) && !negated) unknown.push(`--${word.slice(2).split('=')[0]}`);
    } else if (/^-[a-zA-Z]/.test(word)) {
      // -abc is a bundle of short flags, as yargs-parser reads it (-oyaml too: -o -y -a -m -l).
      for (const c of /^[a-zA-Z]+/.exec(word.slice(1))![0]) if (!short.has(c)) unknown.push(`-${c}`);
    }
  }
  return [...new Set(unknown)];
}

/** The flag names a suggestion may offer: the long ones, with dashes. */
const longFlags = (opts: FlagTable) => [...Object.keys(opts.key), ...Object.values(opts.alias).flat()].filter((k) => k.length > 1).map((k) => `--${kebab(k)}`);

/** Refuses unknown flags (exit 2), each with the closest flag the command has when one is close. */
export function checkUnknownFlags(argv: readonly string[], opts: FlagTable, command: string): void {
  const unknown = unknownFlags(argv, opts);
  if (!unknown.length) return;
  const candidates = [...new Set(longFlags(opts))];
  const said = unknown.map((f) => {
    const mean = f.startsWith('--') ? didYouMeanIn(f, candidates).replace(/^; /, '') : '';
    return mean ? `${f} (${mean})` : f;
  });
  throw new UsageError(`unknown flag${unknown.length > 1 ? 's' : ''} ${said.join(', ')}`, { hint: helpHint(command) });
}

/** `see kaas <command> --help` (kaas --help at the top). */
export function helpHint(command: string): string {
  return `see kaas ${command ? `${command} ` : ''}--help`;
}

/**
 * A yargs failure message said the kaas way: a missing positional by its name, with an example for
 * a cluster name. `usage` is the command's yargs command string, e.g. `create-cluster <cluster>`.
 */
export function usageFailure(message: string, command: string, usage: string | undefined): UsageError {
  const missing = /^Not enough non-option arguments/.test(message) ? [...(usage ?? '').matchAll(/<([^>]+)>/g)].map((m) => m[1]) : [];
  if (missing.length) {
    const synopsis = `kaas ${command} ${missing.map((m) => `<${m}>`).join(' ')}`;
    if (missing[0] === 'cluster') {
      return new UsageError(`kaas ${command} needs the cluster name: ${synopsis}`, {
        hint: `e.g. kaas ${command} demo; the names are the clusters: keys of <settings-dir>/<env>.yaml (kaas get clusters lists them)`,
      });
    }
    return new UsageError(`kaas ${command} needs ${missing.map((m) => `<${m}>`).join(' ')}: ${synopsis}`, { hint: helpHint(command) });
  }
  return new UsageError(message, { hint: helpHint(command) });
}
