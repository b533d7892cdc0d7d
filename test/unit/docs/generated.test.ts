import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import yargs from 'yargs';
import { generatedCommandDocs } from '../../../cli/command-docs.js';
import { commands } from '../../../cli/commands/index.js';
import { globalOptions } from '../../../cli/context.js';
import { flatten } from '../../../lib/docs/command-pages.js';
import { commandTree, type CommandModuleLike } from '../../../lib/docs/command-tree.js';
import { currentDocsBlock, SETTINGS_DOC, settingsReference } from '../../../lib/settings/docs.js';
import { ROOT } from '../../support/cli.js';

const REGENERATE = 'run `npm run docs` to regenerate';
const commandsDir = path.join(ROOT, 'docs', 'reference', 'commands');

/** Each generated reference page is what `npm run docs` would write now: regenerated in memory and compared. */
describe('generated reference pages are not stale', () => {
  it(`${SETTINGS_DOC} holds the settings table as generated (${REGENERATE})`, () => {
    const doc = readFileSync(path.join(ROOT, SETTINGS_DOC), 'utf8');
    const block = currentDocsBlock(doc);
    if (block === undefined) throw new Error(`${SETTINGS_DOC} lacks the settings markers; add them, then ${REGENERATE}`);
    if (block !== settingsReference()) throw new Error(`${SETTINGS_DOC}'s settings reference is out of date; ${REGENERATE}`);
  });

  const pages = [...generatedCommandDocs()];
  it.each(pages.map(([name, text]) => [name, text]))(`docs/reference/commands/%s is as generated (${REGENERATE})`, (name, text) => {
    const file = path.join(commandsDir, name);
    if (!existsSync(file)) throw new Error(`docs/reference/commands/${name} is missing; ${REGENERATE}`);
    if (readFileSync(file, 'utf8') !== text) throw new Error(`docs/reference/commands/${name} is out of date; ${REGENERATE}`);
  });

  it(`docs/reference/commands holds no page of a command that is gone (${REGENERATE})`, () => {
    const names = new Set(pages.map(([n]) => n));
    expect(readdirSync(commandsDir).filter((f) => f.endsWith('.md') && !names.has(f))).toEqual([]);
  });
});

/** yargs' own help for `kaas <path> --help`, built in-process from the same definitions. */
async function yargsHelp(words: string[]): Promise<string> {
  let parser = globalOptions(yargs([]), {}).scriptName('kaas').exitProcess(false).help().wrap(null);
  for (const c of commands) parser = parser.command(c as never);
  return new Promise((resolve) => {
    void parser.parse([...words, '--help'], {}, (_err: unknown, _argv: unknown, output: string) => resolve(output));
  });
}

/** The recorder misses nothing yargs knows: every flag in a command's real --help is on its page. */
describe('command pages carry every flag of the real --help', () => {
  const tree = flatten(commands.map((c) => commandTree(c as CommandModuleLike)));
  const docs = generatedCommandDocs();

  it('the tree has every command and subcommand', () => {
    expect(tree.map((c) => c.path.join(' '))).toEqual(expect.arrayContaining(['settings init', 'settings import', 'get kubeconfig', 'apply-gateway', 'create-cluster']));
  });

  it.each(tree.map((c) => [c.path.join(' '), c.path]))('kaas %s', async (_name, words) => {
    const help = await yargsHelp(words as string[]);
    const flags = [...new Set([...help.matchAll(/(?<![\w-])--([a-z][a-z0-9-]*)/g)].map((m) => m[1]))];
    expect(flags.length).toBeGreaterThan(0);
    const page = docs.get(`${(words as string[]).join('-')}.md`)! + docs.get('README.md')!;
    const missing = flags.filter((f) => !page.includes(`--${f}`) && !page.includes(`--[no-]${f.replace(/^no-/, '')}`));
    expect(missing).toEqual([]);
  });
});
