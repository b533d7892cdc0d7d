import type { Argv } from 'yargs';
import type { Command } from './context.js';

/**
 * Help layout as kubectl, helm and clusterctl print it: a command's own flags first, under
 * "Options:", and the flags every command has after them, under "Global options:".
 *
 * yargs lists a help text's groups in the order they were made, with the groups of global options
 * (kept from the parent) after the command's own, and puts every flag without a group into a default
 * "Options:" group it makes last. So the global flags get their group once (globalGroup, on the top
 * parser), and each command's builder gives its own flags theirs (ownFlagsFirst) before yargs would.
 */

export const OWN_GROUP = 'Options:';
export const GLOBAL_GROUP = 'Global options:';

/** The long names of the flags every command has (cli/context.ts globalOptions, yargs's help and version). */
export const GLOBAL_FLAGS = ['env', 'settings-dir', 'output', 'set', 'verbose', 'quiet', 'color', 'help', 'version'];

/** Puts the global flags into their group (call on the top parser once help and version exist). */
export function globalGroup<T>(y: Argv<T>): Argv<T> {
  return y.group(GLOBAL_FLAGS, GLOBAL_GROUP);
}

type Builder = (y: Argv) => Argv;

/** The keys yargs knows at this point (flags and positionals, with their aliases). */
const known = (y: Argv): Set<string> => new Set(Object.keys((y as unknown as { getOptions(): { key: Record<string, unknown> } }).getOptions().key));

/**
 * Wraps a command so that the flags its builder declares are grouped under "Options:", before the
 * global ones. Subcommands (`settings …`, `get …`) are wrapped where they are declared.
 */
export function ownFlagsFirst(cmd: Command): Command {
  const builder = cmd.builder;
  if (typeof builder !== 'function') return cmd;
  return {
    ...cmd,
    builder: (y: Argv) => {
      const before = known(y);
      const out = ((builder as Builder)(y) ?? y) as Argv;
      const groups = (out as unknown as { getGroups(): Record<string, string[]> }).getGroups();
      // Not a real yargs parser (the reference pages' recorder, lib/docs/command-tree.ts): nothing to group.
      if (groups === null || typeof groups !== 'object' || !Array.isArray(groups['Positionals:'] ?? [])) return out;
      const positional = new Set(groups['Positionals:'] ?? []);
      const aliases = (out as unknown as { getOptions(): { alias: Record<string, string[]> } }).getOptions().alias;
      const own: string[] = [];
      for (const k of known(out)) {
        if (before.has(k) || positional.has(k) || GLOBAL_FLAGS.includes(k)) continue;
        // A flag and its alias are one entry (the first declared names it).
        if (!own.some((o) => aliases[o]?.includes(k))) own.push(k);
      }
      return own.length ? out.group(own, OWN_GROUP) : out;
    },
  };
}
