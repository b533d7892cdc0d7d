#!/usr/bin/env node
/**
 * The kaas entry point: the only place that parses argv, prints results and exits.
 * Exit codes: 0 ok, 1 the operation failed, 2 bad usage or invalid settings.
 */
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { formatError, KaasError, UsageError } from '../lib/errors.js';
import { kaasVersion } from '../lib/paths.js';
import { redact } from '../lib/redact.js';
import { commands } from './commands/index.js';
import { globalOptions, takeResult, type OutputFormat } from './context.js';

async function main(argv: string[]): Promise<number> {
  const verbose = argv.includes('--verbose');
  let parser = globalOptions(yargs(argv), process.env)
    .scriptName('kaas')
    .usage('kaas — Kubernetes clusters on OpenStack with Cluster API, and their ingress done right\n\nUsage: $0 <command> [options]')
    .completion('completion', 'print a shell completion script (bash/zsh): kaas completion >> ~/.bashrc')
    .demandCommand(1, 'name a command (kaas --help lists them)')
    .recommendCommands()
    .strict()
    .help()
    .alias('help', 'h')
    .version(kaasVersion())
    .wrap(Math.min(110, process.stdout.columns || 100))
    .epilogue('Settings: <settings-dir>/<env>.yaml, then KAAS_<SETTING> variables, then --set. Docs: README.md')
    .fail((msg, err) => {
      throw err ?? new UsageError(msg, { hint: 'see kaas --help' });
    });
  for (const c of commands) parser = parser.command(c as never);
  let format: OutputFormat = 'text';
  try {
    const parsed = await parser.parseAsync();
    format = (parsed.output as OutputFormat) ?? 'text';
    const result = takeResult();
    if (!result) return 0; // --help, --version and completion print by themselves
    // Loaded only when there is a result to print: --help stays free of the YAML library.
    const { renderResult } = await import('./output.js');
    process.stdout.write(renderResult(result, format));
    return result.exitCode ?? 0;
  } catch (err) {
    process.stderr.write(redact(formatError(err, verbose)) + '\n');
    return err instanceof KaasError ? err.exitCode : 1;
  }
}

main(hideBin(process.argv)).then(
  (code) => {
    process.exitCode = code;
  },
  (err) => {
    process.stderr.write(`kaas: internal error: ${redact(String(err?.stack ?? err))}\n`);
    process.exitCode = 1;
  },
);
