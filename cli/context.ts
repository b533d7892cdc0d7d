import os from 'node:os';
import type { ArgumentsCamelCase, Argv, CommandModule } from 'yargs';
import { statSync } from 'node:fs';
import { resolveSettingsDir } from '../lib/settings/dirs.js';
import { createProcessRunner, type ProcessRunner } from '../lib/exec/runner.js';
import { printable } from '../lib/visible.js';
import { createLogger, spinnerAllowed, type Logger, type StepHandle } from '../lib/log.js';
import { redact } from '../lib/redact.js';

export type OutputFormat = 'text' | 'json' | 'yaml';

/** The global flags every command has. */
export interface GlobalArgs {
  env: string;
  /** Absolute; resolved by lib/settings/dirs.ts when the flag is not given. */
  settingsDir: string;
  output: OutputFormat;
  verbose: boolean;
  quiet: boolean;
  color: boolean;
  set: string[];
}

/** Everything a command handler may use; built once per run, here and only here. */
export interface CliContext extends GlobalArgs {
  logger: Logger;
  runner: ProcessRunner;
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
}

/**
 * What a command hands back to the entry point: `data` is printed as JSON/YAML with -o, `text`
 * for humans; `raw` goes to stdout as-is whatever -o says (manifests, schemas, completion).
 */
export interface CommandResult {
  data?: unknown;
  text?: string;
  raw?: string;
  /** Exit code when the command completed but found problems (e.g. validate). */
  exitCode?: 0 | 1 | 2;
  /** `error:` / `hint:` lines for stderr, printed after the result (doctor's "checks could not run"). */
  stderr?: string;
}

/** Declares the global flags (defaults from KAAS_ENV / KAAS_SETTINGS_DIR). */
export function globalOptions<T>(y: Argv<T>, environ: NodeJS.ProcessEnv) {
  return y
    .option('env', { alias: 'e', type: 'string', default: environ.KAAS_ENV || 'default', describe: 'environment: reads <settings-dir>/<env>.yaml (env KAAS_ENV)', global: true })
    .option('settings-dir', { type: 'string', describe: 'directory of the environment files (default: KAAS_SETTINGS_DIR, else ./settings if it exists, else $XDG_CONFIG_HOME/kaas or ~/.config/kaas)', global: true })
    .option('output', { alias: 'o', choices: ['text', 'json', 'yaml'] as const, default: 'text' as OutputFormat, describe: 'result format', global: true })
    .option('set', { type: 'string', array: true, default: [] as string[], describe: 'override a setting: --set key=value (repeatable; highest precedence)', global: true })
    .option('verbose', { type: 'boolean', default: false, describe: 'show debug output, HTTP traces (secrets redacted) and stack traces', global: true })
    .option('quiet', { alias: 'q', type: 'boolean', default: false, describe: 'only warnings and errors on stderr', global: true })
    .option('color', { type: 'boolean', default: true, describe: 'colored output (--no-color to disable; NO_COLOR is honoured)', global: true });
}

let current: CommandResult | undefined;

/** The result the last command produced (read by the entry point). */
export function takeResult(): CommandResult | undefined {
  const r = current;
  current = undefined;
  return r;
}

async function spinnerFactory(color: boolean): Promise<(title: string) => StepHandle> {
  // Loaded only for interactive terminals, so that plain runs (and --help) start fast.
  const { default: ora } = await import('ora');
  return (title) => {
    const t0 = Date.now();
    // discardStdin: false — never touch stdin. ora's default puts it in raw mode: under `timeout N kaas …`
    // (a background process group) that is SIGTTOU and the process stops, and in raw mode Ctrl-C reaches
    // ora as a byte instead of SIGINT reaching kaas.
    const s = ora({ text: title, stream: process.stderr, color: color ? 'cyan' : false, isEnabled: true, discardStdin: false }).start();
    const secs = () => `(${((Date.now() - t0) / 1000).toFixed(1)}s)`;
    return {
      update: (m) => {
        s.text = printable(redact(`${title}: ${m}`));
      },
      succeed: (m) => s.succeed(printable(redact(`${m ?? title} ${secs()}`))),
      fail: (m) => s.fail(printable(redact(`${m ?? title} ${secs()}`))),
    };
  };
}

/** Builds the context from parsed flags and the real process. */
export async function makeContext(argv: ArgumentsCamelCase<Record<string, unknown>>): Promise<CliContext> {
  const g = argv as unknown as GlobalArgs;
  const color = g.color && !process.env.NO_COLOR && process.stderr.isTTY === true;
  const interactive = spinnerAllowed(process.stderr, { verbose: g.verbose, quiet: g.quiet, ci: Boolean(process.env.CI) });
  const logger = createLogger({ verbose: g.verbose, quiet: g.quiet, color, spinner: interactive ? await spinnerFactory(color) : undefined });
  const home = os.homedir();
  return {
    env: g.env,
    settingsDir: settingsDirOf(g.settingsDir, process.env, process.cwd(), home),
    output: g.output,
    verbose: g.verbose,
    quiet: g.quiet,
    color,
    set: (g.set ?? []).map(String),
    logger,
    runner: createProcessRunner(logger),
    environ: process.env,
    cwd: process.cwd(),
    home,
  };
}

/** The settings directory of this run (see lib/settings/dirs.ts for the precedence). */
export function settingsDirOf(flag: string | undefined, environ: NodeJS.ProcessEnv, cwd: string, home: string): string {
  const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  return resolveSettingsDir({ flag, environ, cwd, home, isDir }).dir;
}

/** Wraps a command's use case: builds the context, runs it, keeps its result for the entry point. */
export function handle<A>(fn: (ctx: CliContext, argv: ArgumentsCamelCase<A>) => Promise<CommandResult>) {
  return async (argv: ArgumentsCamelCase<Record<string, unknown>>) => {
    current = await fn(await makeContext(argv), argv as unknown as ArgumentsCamelCase<A>);
  };
}

/**
 * A kaas command module. Argument types are checked where they are used (handle<Args>); yargs's
 * builder inference is too strict for kebab-case flags read as camelCase.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Command = CommandModule<object, any>;

/**
 * yargs renders a command's whole help text as soon as its handler has started (its usage
 * instance's cacheHelpMessage), to print it should the handler fail later. kaas's fail() never prints
 * help, so that text was never shown, and rendering it cost about 10 ms of every command's run.
 */
export function skipHelpCache(parser: unknown): boolean {
  type Internals = { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } };
  const usage = (parser as Internals).getInternalMethods?.().getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage !== 'function') return false;
  usage.cacheHelpMessage = () => undefined;
  return true;
}
