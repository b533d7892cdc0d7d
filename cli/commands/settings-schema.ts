
import { handle, type Command } from '../context.js';

/** kaas settings schema */
export const settingsSchema: Command = {
  command: 'schema',
  describe: 'print the JSON Schema of settings files (for yaml-language-server: # yaml-language-server: $schema=<file>)',
  handler: handle(async () => {
    const { schemaText } = await import('../../lib/settings/show.js');
    return { raw: schemaText() };
  }),
};
