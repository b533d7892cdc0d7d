import { printable } from './visible.js';

/**
 * Typed errors. Every error kaas raises on purpose is a KaasError: it carries the exit code the
 * entry point must use (2 = bad usage or invalid settings, 1 = the operation failed), the
 * problems it found (all of them, sorted), and one hint line saying how to fix it.
 */
export type ExitCode = 1 | 2;

export class KaasError extends Error {
  readonly exitCode: ExitCode;
  readonly hint?: string;
  readonly problems: string[];

  constructor(message: string, opts: { exitCode?: ExitCode; hint?: string; problems?: string[]; cause?: unknown } = {}) {
    super(message, opts.cause === undefined ? undefined : { cause: opts.cause });
    this.name = new.target.name;
    this.exitCode = opts.exitCode ?? 1;
    this.hint = opts.hint;
    this.problems = opts.problems ?? [];
  }
}

/** Bad command-line usage or bad input named on the command line (exit 2). */
export class UsageError extends KaasError {
  constructor(message: string, opts: { hint?: string; problems?: string[] } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** Invalid settings: every problem found, each naming file and path (exit 2). */
export class SettingsError extends KaasError {
  constructor(message: string, problems: string[], hint?: string) {
    super(message, { exitCode: 2, problems, hint });
  }
}

/** A plan that cannot be carried out with these settings on this cloud (exit 2, nothing touched). */
export class PlanError extends KaasError {
  constructor(message: string, opts: { hint?: string; problems?: string[] } = {}) {
    super(message, { ...opts, exitCode: 2 });
  }
}

/** The operation was started and failed (exit 1). */
export class OperationError extends KaasError {
  constructor(message: string, opts: { hint?: string; problems?: string[]; cause?: unknown } = {}) {
    super(message, { ...opts, exitCode: 1 });
  }
}

/** Formats an error for the user: message, problems, hint; the stack only when verbose. */
export function formatError(err: unknown, verbose: boolean): string {
  const lines: string[] = [];
  if (err instanceof KaasError) {
    lines.push(`error: ${err.message}`);
    for (const p of err.problems) lines.push(`  - ${p}`);
    if (err.hint) lines.push(`hint: ${err.hint}`);
  } else if (err instanceof Error) {
    lines.push(`error: ${err.message}`);
  } else {
    lines.push(`error: ${String(err)}`);
  }
  if (verbose && err instanceof Error && err.stack) lines.push('', err.stack);
  // Messages quote names from the cloud and the cluster: their control characters are escaped.
  return printable(lines.join('\n'));
}

/** What a JSON value is, for messages about answers of the wrong shape: "null", "missing", "a list", "an object", "a string", … */
export function kindOf(v: unknown): string {
  return v === null ? 'null' : v === undefined ? 'missing' : Array.isArray(v) ? 'a list' : typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}
