/**
 * The command reference pages (docs/reference/commands/) from kaas's own yargs definitions: the
 * command modules of cli/commands and the global flags, read by lib/docs/command-tree.ts's recorder.
 * Used by `npm run docs` (scripts/command-docs.mjs) and by the test that fails when a page is stale.
 */
import { commandDocs } from '../lib/docs/command-pages.js';
import { commandTree, recordOptions, type CommandModuleLike } from '../lib/docs/command-tree.js';
import { commands } from './commands/index.js';
import { globalOptions } from './context.js';

/** The hand-written page that explains each command (links relative to docs/reference/commands/). */
const GUIDES: Record<string, string> = {
  'settings': '[settings](../settings.md)',
  'settings init': '[settings](../settings.md#where-settings-live)',
  'settings show': '[settings](../settings.md#where-settings-live)',
  'settings validate': '[settings](../settings.md#where-settings-live)',
  'settings schema': '[settings](../settings.md#where-settings-live)',
  'settings import': '[moving from the SCS scripts](../../guides/moving-from-scs.md#importing-an-scs-cluster)',
  'detect': '[load balancers](../../concepts/load-balancers.md#kaas-detect)',
  'apply-ingress': '[load balancers](../../concepts/load-balancers.md#kaas-apply-ingress)',
  'apply-gateway': '[the Gateway API edge](../../concepts/gateway.md)',
  'migrate-ingress': '[moving Ingresses to the Gateway API](../../guides/gateway-migration.md)',
  'create-cluster': '[creating and converging clusters](../../guides/create-cluster.md)',
  'delete-cluster': '[deleting a cluster](../../guides/delete-cluster.md)',
  'get kubeconfig': '[creating and converging clusters](../../guides/create-cluster.md#kaas-get-kubeconfig)',
  'doctor': '[troubleshooting](../../troubleshooting.md#kaas-doctor)',
  'check-lb': '[troubleshooting](../../troubleshooting.md#kaas-check-lb)',
};

/** Every generated page (file name → Markdown), independent of this machine's environment. */
export function generatedCommandDocs(): Map<string, string> {
  const tree = commands.map((c) => commandTree(c as CommandModuleLike));
  // The defaults shown are those of an empty environment (KAAS_ENV unset), not this shell's.
  const globals = recordOptions((y) => globalOptions(y, {}));
  return commandDocs(tree, globals, GUIDES);
}
