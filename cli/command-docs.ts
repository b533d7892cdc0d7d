/**
 * The command reference pages (docs/reference/commands/) from kaas's own yargs definitions: the
 * command modules of cli/commands and the global flags, read by lib/docs/command-tree.ts's recorder.
 * Used by `npm run docs` (scripts/command-docs.mjs) and by the test that fails when a page is stale.
 */
import { commandDocs } from '../lib/docs/command-pages.js';
import { commandTree, recordOptions, type CommandModuleLike } from '../lib/docs/command-tree.js';
import { commands } from './commands/index.js';
import { globalOptions } from './context.js';

/** Every generated page (file name → Markdown), independent of this machine's environment. */
export function generatedCommandDocs(): Map<string, string> {
  const tree = commands.map((c) => commandTree(c as CommandModuleLike));
  // The defaults shown are those of an empty environment (KAAS_ENV unset), not this shell's.
  const globals = recordOptions((y) => globalOptions(y, {}));
  return commandDocs(tree, globals);
}
