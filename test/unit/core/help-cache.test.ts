import yargs from 'yargs';
import { skipHelpCache } from '../../../cli/context.js';

type Usage = { help: () => string };
const usageOf = (p: unknown) => (p as { getInternalMethods(): { getUsageInstance(): Usage } }).getInternalMethods().getUsageInstance();

/** A parser shaped like kaas's: one command with an async handler that fails, a fail() that throws. */
function parser(argv: string[]) {
  return yargs(argv)
    .scriptName('t')
    .command('boom <name>', 'a command that fails late', (y) => y.positional('name', { type: 'string' }), async () => {
      throw new Error('late failure');
    })
    .fail((msg, err) => {
      throw err ?? new Error(msg);
    })
    .exitProcess(false)
    .strict()
    .help();
}

/** Counts how often the parser renders its help text. */
function countHelp(p: unknown): { count: number } {
  const usage = usageOf(p);
  const real = usage.help;
  const seen = { count: 0 };
  usage.help = function (this: Usage) {
    seen.count++;
    return real.call(this);
  };
  return seen;
}

describe('skipHelpCache: no help text rendered for a command that runs', () => {
  it('yargs (as pinned) renders the whole help text when a command handler starts', async () => {
    const p = parser(['boom', 'x']);
    const seen = countHelp(p);
    await expect(p.parseAsync()).rejects.toThrow('late failure');
    expect(seen.count).toBe(1);
  });

  it('skipped, the command runs and fails the same, and no help is rendered', async () => {
    const p = parser(['boom', 'x']);
    expect(skipHelpCache(p)).toBe(true);
    const seen = countHelp(p);
    await expect(p.parseAsync()).rejects.toThrow('late failure');
    expect(seen.count).toBe(0);
  });

  it('--help still prints the help text', async () => {
    const p = parser(['boom', '--help']);
    skipHelpCache(p);
    const out = await new Promise<string>((resolve) => {
      void p.parse(['boom', '--help'], {}, (_err, _argv, output) => resolve(output));
    });
    expect(out).toContain('a command that fails late');
    expect(out).toMatch(/--help/);
  });

  it('a parser without yargs internals is left alone', () => {
    expect(skipHelpCache({})).toBe(false);
  });
});
