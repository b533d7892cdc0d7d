import { redact } from './redact.js';
import { printable } from './visible.js';

/**
 * Where kaas talks to the user while it works. Everything goes to stderr (stdout is reserved for
 * the command's result), through redaction. `debug` only shows with --verbose; `info` is hidden by
 * --quiet; warnings and errors always show.
 */
export interface Logger {
  info(msg: string): void;
  warn(msg: string): void;
  debug(msg: string): void;
  /** Starts a progress line for a long step; returns a function that ends it (ok or failed). */
  step(title: string): StepHandle;
  readonly verbose: boolean;
  /** True when steps show as a spinner (an interactive terminal): quick steps show progress only then. */
  readonly interactive: boolean;
}

export interface StepHandle {
  update(msg: string): void;
  succeed(msg?: string): void;
  fail(msg?: string): void;
}

export interface LoggerOptions {
  verbose?: boolean;
  quiet?: boolean;
  color?: boolean;
  write?: (text: string) => void;
  /** A progress spinner for interactive terminals; plain lines otherwise. */
  spinner?: (title: string) => StepHandle;
}

const paint = (on: boolean, code: string, s: string) => (on ? `\u001b[${code}m${s}\u001b[0m` : s);

/**
 * Whether progress may be drawn as a spinner on `stream`: a terminal with a size. A pty of 0 columns
 * (docker run -t, ssh -tt without a window size) made the spinner redraw for ever; verbose, quiet and
 * CI runs get plain lines.
 */
export function spinnerAllowed(stream: { isTTY?: boolean; columns?: number }, o: { verbose?: boolean; quiet?: boolean; ci?: boolean }): boolean {
  return stream.isTTY === true && (stream.columns ?? 0) > 0 && !o.verbose && !o.quiet && !o.ci;
}

/** Builds the logger used by one kaas run. */
export function createLogger(opts: LoggerOptions = {}): Logger {
  const write = opts.write ?? ((t: string) => process.stderr.write(t));
  const color = opts.color ?? false;
  // Control characters of the message are escaped before the logger adds its own colour codes.
  const out = (line: string, painted = (l: string) => l) => write(painted(printable(redact(line))) + '\n');
  const logger: Logger = {
    verbose: opts.verbose ?? false,
    interactive: opts.spinner !== undefined && !opts.quiet,
    info: (m) => {
      if (!opts.quiet) out(m);
    },
    warn: (m) => out(m, (l) => `${paint(color, '33', 'warning:')} ${l}`),
    debug: (m) => {
      if (opts.verbose) out(m, (l) => paint(color, '2', l));
    },
    step: (title) => {
      if (opts.spinner && !opts.quiet) return opts.spinner(printable(redact(title)));
      const t0 = Date.now();
      if (!opts.quiet) out(`… ${title}`);
      return {
        update: (m) => logger.debug(`  ${m}`),
        succeed: (m) => {
          if (!opts.quiet) out(`${m ?? title} (${((Date.now() - t0) / 1000).toFixed(1)}s)`, (l) => `${paint(color, '32', '✓')} ${l}`);
        },
        fail: (m) => out(m ?? title, (l) => `${paint(color, '31', '✗')} ${l}`),
      };
    },
  };
  return logger;
}

/** A logger that keeps every line, for tests. */
export function memoryLogger(verbose = true): Logger & { lines: string[] } {
  const lines: string[] = [];
  const l = createLogger({ verbose, write: (t) => lines.push(t.replace(/\n$/, '')) });
  return Object.assign(l, { lines });
}
