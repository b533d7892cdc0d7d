
import { handle, type Command } from '../context.js';

/** kaas settings schema */
export const settingsSchema: Command = {
  command: 'schema',
  describe: 'print the JSON Schema of settings files (for editors and ajv)',
  builder: (y) =>
    y
      .example('kaas settings schema > schema.json', 'then in a settings file: # yaml-language-server: $schema=./schema.json')
      .example('npx ajv-cli validate -s schema.json -d prod.yaml -c ajv-formats', 'check a file with ajv-cli (YAML: convert first)'),
  handler: handle(async () => {
    const { schemaText } = await import('../../lib/settings/show.js');
    return { raw: schemaText() };
  }),
};
