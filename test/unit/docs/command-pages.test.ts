import { commandDocs, commandPage, usage } from '../../../lib/docs/command-pages.js';
import { commandTree, recordOptions, type CommandModuleLike } from '../../../lib/docs/command-tree.js';

type Y = Record<string, (...a: unknown[]) => Y>;

/** A command declared as kaas's are, exercising every declaration the pages read. */
const sample: CommandModuleLike = {
  command: 'frob <cluster>',
  describe: 'frob a cluster in <settings-dir>',
  builder: (y: Y) =>
    y.positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name' })
      .option('verify', { type: 'boolean', default: true, describe: 'check after' })
      .option('output-dir', { type: 'string', describe: 'a | b' })
      .options({ mode: { choices: ['a', 'b'], default: 'a', alias: 'm' }, secret: { type: 'string', hidden: true } })
      .option('tag', { type: 'string', array: true, default: [] })
      .conflicts('verify', ['output-dir'])
      .check(() => true)
      .example('kaas frob demo', 'frob demo'),
};

const parent: CommandModuleLike = { command: 'tools <command>', describe: 'tools', builder: (y: Y) => y.command(sample).demandCommand(1) };

describe('command pages from recorded yargs declarations', () => {
  const page = commandPage(commandTree(sample));

  it.each([
    ['usage line', '```\nkaas frob <cluster> [options]\n```'],
    ['required positional', '| `cluster` (required) | string | cluster name |'],
    ['a boolean defaulting to true is negatable', '| `--[no-]verify` | boolean | `true` | check after |'],
    ['pipes escaped in cells', '| `--output-dir` | string | – | a \\| b |'],
    ['choices, default and short alias', '| `-m`, `--mode` | one of `a`, `b` | `a` |'],
    ['repeatable, empty default shown as none', '| `--tag` | string (repeatable) | – |'],
    ['conflicts', 'Not together: `--verify` and `--output-dir`.'],
    ['examples', '# frob demo\nkaas frob demo'],
    ['angle brackets escaped in prose', 'frob a cluster in &lt;settings-dir&gt;'],
  ])('%s', (_what, expected) => {
    expect(page).toContain(expected);
  });

  it('leaves hidden options out', () => {
    expect(page).not.toContain('--secret');
  });

  it('a parent command lists and links its subcommands, and each gets its own page', () => {
    const tree = commandTree(parent);
    expect(usage(tree)).toBe('kaas tools <command> [options]');
    const files = commandDocs([tree], recordOptions((y: Y) => y.option('env', { alias: 'e', type: 'string', default: 'default' })));
    expect([...files.keys()]).toEqual(['README.md', 'tools.md', 'tools-frob.md']);
    expect(files.get('tools.md')).toContain('| [`kaas tools frob`](tools-frob.md) | frob a cluster in &lt;settings-dir&gt; |');
    expect(files.get('README.md')).toContain('| `-e`, `--env` | string | `default` |');
  });
});
