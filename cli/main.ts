#!/usr/bin/env node
/**
 * The kaas entry point: the only place that parses argv, prints results and exits.
 * Exit codes: 0 ok, 1 the operation failed, 2 bad usage or invalid settings.
 */
import { formatError, KaasError, UsageError } from '../lib/errors.js';
import { fsError, isFsError } from '../lib/fs/errors.js';
import { bundleText } from '../lib/assets.js';
import { buildInfo } from '../lib/version/build-info.js';
import { redact } from '../lib/redact.js';
import { printable } from '../lib/visible.js';
import os from 'node:os';
import { commands } from './commands/index.js';
import { globalOptions, settingsDirOf, skipHelpCache, takeResult, type OutputFormat } from './context.js';
import { checkBooleanFlags } from './strict-booleans.js';
import { globalGroup } from './help-groups.js';
import { checkUnknownFlags, usageFailure, type FlagTable } from './usage-errors.js';

const SHELLS = ['bash', 'zsh', 'fish'];

const COMPLETION_HELP = `kaas completion [bash|zsh|fish]

print a shell completion script (default: the shell in $SHELL); it completes
commands, flags, environments after --env and the cluster names of the
environment file

Examples:
  kaas completion bash >> ~/.bashrc
  kaas completion zsh > "\${fpath[1]}/_kaas"
  kaas completion fish > ~/.config/fish/completions/kaas.fish
`;

/**
 * `kaas completion [bash|zsh|fish]`: yargs picks the script by $SHELL when it starts, so the
 * argument is turned into $SHELL before yargs is built (and removed, for strict parsing).
 */
function completionShell(argv: string[]): string[] {
  if (argv[0] === 'completion' && (argv.includes('--help') || argv.includes('-h'))) return argv;
  if (argv[0] !== 'completion' || argv[1] === undefined || argv[1].startsWith('-')) return argv;
  if (!SHELLS.includes(argv[1])) throw new UsageError(`completion: unknown shell "${argv[1]}"`, { hint: `one of ${SHELLS.join(', ')}, e.g. kaas completion bash >> ~/.bashrc` });
  process.env.SHELL = `/bin/${argv[1]}`;
  return [argv[0], ...argv.slice(2)];
}

/** Completes environments after --env, cluster names where a command takes one and --cloud entries; else yargs's own (with -o's choices). */
function completeWords(argv: string[], c: typeof import('./completion.js')) {
  return (current: string, _parsed: unknown, fallback: (cb?: unknown) => void, done: (c: string[]) => void) => {
    let words = argv.slice(argv.indexOf('--get-yargs-completions') + 1);
    // bash and zsh pass the program name first, fish does not.
    if (words.length && /(^|\/)kaas(\.js)?$|main\.js$/.test(words[0])) words = words.slice(1);
    const want = c.completionWant(words.length ? words : [current]);
    if (want.kind === 'default') return fallback((_err: unknown, list: string[] = []) => done(c.withoutLetterFlags(list)));
    const dir = () => settingsDirOf(c.flagValue(words, ['--settings-dir']), process.env, process.cwd(), os.homedir());
    const names = want.kind === 'cloud' ? c.cloudNames(process.env, process.cwd(), os.homedir())
      : want.kind === 'env' ? c.environmentNames(dir()) : c.clusterNames(dir(), c.flagValue(words, ['--env', '-e']) ?? process.env.KAAS_ENV ?? 'default');
    done(names.filter((n) => n.startsWith(current)));
  };
}

/**
 * The command yargs is running: its words (`settings`, `show`) and command strings (`settings
 * <command>`, `show <cluster>`), from the run's context (yargs's internal methods, as skipHelpCache).
 */
function runContext(parser: unknown): { commands: string[]; fullCommands: string[] } {
  type Internals = { getInternalMethods(): { getContext(): { commands: string[]; fullCommands: string[] } } };
  return (parser as Internals).getInternalMethods().getContext();
}

/** Help fits an 80-column terminal (and narrower ones), whatever the terminal's width. */
const HELP_WIDTH = 80;
const helpWidth = () => Math.min(HELP_WIDTH, process.stdout.columns || HELP_WIDTH);

/**
 * `kaas --help` as the build recorded it from this bundle's own yargs (dist/bundle/data/help.txt,
 * see build/bundle.mjs), when this run would print exactly that: the default environment (KAAS_ENV
 * shows as a default) and the full help width (helpWidth, which .wrap below uses too). Elsewhere, e.g.
 * in the tsc-built tree, there is no recording and yargs prints the help.
 */
function recordedHelp(argv: string[]): string | undefined {
  if (argv.length !== 1 || (argv[0] !== '--help' && argv[0] !== '-h')) return undefined;
  if (process.env.KAAS_ENV || helpWidth() < HELP_WIDTH) return undefined;
  try {
    return bundleText('data/help.txt', () => new URL('./', import.meta.url));
  } catch {
    return undefined;
  }
}

async function main(givenArgv: string[]): Promise<number> {
  // `kaas` alone prints the help (exit 0), as kubectl, helm and clusterctl do.
  const rawArgv = givenArgv.length ? givenArgv : ['--help'];
  const recorded = recordedHelp(rawArgv);
  if (recorded !== undefined) {
    process.stdout.write(recorded);
    return 0;
  }
  const verbose = rawArgv.includes('--verbose');
  if (rawArgv[0] === 'completion' && (rawArgv.includes('--help') || rawArgv.includes('-h'))) {
    // yargs would print the script itself here.
    process.stdout.write(COMPLETION_HELP);
    return 0;
  }
  let argv: string[];
  try {
    argv = completionShell(rawArgv);
  } catch (err) {
    process.stderr.write(formatError(err, verbose) + '\n');
    return 2;
  }
  // Completion data (environments, clusters) is read from YAML settings files: cli/completion.ts is
  // loaded only when the shell asks for completions (the callback below must answer synchronously).
  const completion = argv.includes('--get-yargs-completions') ? await import('./completion.js') : undefined;
  const { default: yargs } = await import('yargs');
  let parser = globalOptions(yargs(argv), process.env)
    .scriptName('kaas')
    .usage('kaas — Kubernetes clusters on OpenStack with Cluster API, and their\ningress done right\n\nUsage: $0 <command> [options]')
    .completion('completion', 'print a shell completion script: kaas completion bash|zsh|fish', (completion ? completeWords(argv, completion) : () => undefined) as never)
    .example('kaas settings init --cloud mycloud --cluster demo', 'start a settings file')
    .example('kaas settings import ~/demo/clusterctl.yaml --cluster demo', 'take over an SCS cluster')
    .example('kaas create-cluster demo --dry-run', 'see everything kaas would apply')
    .example('kaas completion bash >> ~/.bashrc', 'tab completion (also zsh, fish)')
    .demandCommand(1, 'name a command (kaas --help lists them)')
    .recommendCommands()
    .strict()
    .help()
    .alias('help', 'h')
    .version(buildInfo().version)
    .wrap(helpWidth())
    .epilogue('Settings: <settings-dir>/<env>.yaml, then KAAS_<SETTING> variables, then --set.\nDocs: README.md')
    .fail((msg, err) => {
      // yargs rewraps what a coerce function throws as a YError: still a usage error (exit 2).
      if (err && err.name !== 'YError') throw err;
      const { commands: words, fullCommands } = runContext(parser);
      throw usageFailure(err?.message ?? msg, words.join(' '), fullCommands.at(-1));
    });
  parser = globalGroup(parser);
  for (const c of commands) parser = parser.command(c as never);
  // Before validation and before any handler: the command's builder has declared its flags by now.
  parser = parser.middleware(((_parsed: unknown, y: { getOptions(): FlagTable }) => {
    checkUnknownFlags(argv, y.getOptions(), runContext(parser).commands.join(' '));
    checkBooleanFlags(argv, y.getOptions());
  }) as never, true);
  skipHelpCache(parser);
  let format: OutputFormat = 'text';
  try {
    const parsed = await parser.parseAsync();
    format = (parsed.output as OutputFormat) ?? 'text';
    const result = takeResult();
    if (!result) return 0; // --help, --version and completion print by themselves
    // Loaded only when there is a result to print: --help stays free of the YAML library.
    const { renderResult } = await import('./output.js');
    process.stdout.write(renderResult(result, format));
    if (result.stderr) process.stderr.write(`${printable(redact(result.stderr))}\n`);
    return result.exitCode ?? 0;
  } catch (caught) {
    // A file-system error no use case expected still names its path and a fix, never a bare errno.
    const err = isFsError(caught) ? fsError(caught, caught.syscall ?? 'access') : caught;
    process.stderr.write(redact(formatError(err, verbose)) + '\n');
    return err instanceof KaasError ? err.exitCode : 1;
  }
}

// A reader that stops early (`kaas … | head`) closes the pipe: the rest of the output has nowhere to
// go, so kaas ends quietly as other Unix tools do, instead of an EPIPE stack trace.
// Any other write error (ENOSPC on a full device, EIO) is said as such, without a stack trace.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  process.stderr.write(`${formatError(new KaasError(`cannot write the output to stdout: ${err.code ?? 'error'} (${err.message})`, {
    hint: err.code === 'ENOSPC' ? 'the device stdout goes to is full: free space or send the output elsewhere' : 'check where stdout goes (a file, a pipe) and run again',
  }), false)}\n`);
  process.exit(1);
});

// The arguments after node and the script (yargs's hideBin, which differs only inside Electron).
main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kaas: internal error: ${redact(String(err?.stack ?? err))}\n`);
    process.exitCode = 1;
  },
);
