import { handle, type Command } from '../context.js';

/** kaas settings schema [-o yaml] */
export const settingsSchema: Command = {
  command: 'schema',
  describe: 'print the JSON Schema of settings files (for editors and ajv); -o yaml prints the same schema as YAML',
  builder: (y) =>
    y
      .example('kaas settings schema > schema.json', 'then in a settings file: # yaml-language-server: $schema=./schema.json')
      .example('kaas settings schema -o yaml > schema.yaml', 'the same schema, as YAML')
      .example('npx ajv-cli validate -s schema.json -d prod.yaml -c ajv-formats', 'check a file with ajv-cli (YAML: convert first)'),
  handler: handle(async (ctx) => {
    const { schemaText } = await import('../../lib/settings/show.js');
    // The schema is a document, not a result: -o text and -o json both print its JSON, -o yaml its YAML.
    if (ctx.output !== 'yaml') return { raw: schemaText() };
    const { default: YAML } = await import('yaml');
    return { raw: YAML.stringify(JSON.parse(schemaText())) };
  }),
};
