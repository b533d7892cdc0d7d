import { OperationError } from '../errors.js';
import type { Logger } from '../log.js';
import { redact } from '../redact.js';

/** What a finished process returned. */
export interface RunResult {
  exitCode: number;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  /** Written to the process's stdin. */
  input?: string;
  /** Extra environment variables (merged over the current environment). */
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /** When false, a non-zero exit is returned instead of thrown. Default true. */
  reject?: boolean;
  cwd?: string;
  /** Ends the process when aborted (a read started ahead whose answer is no longer wanted). */
  signal?: AbortSignal;
}

/**
 * The one way kaas starts external tools (kubectl, clusterctl, …). Passed into use cases so that
 * tests can check the exact argv and stdin.
 */
export interface ProcessRunner {
  run(command: string, args: string[], opts?: RunOptions): Promise<RunResult>;
}

/** A tool exited non-zero or could not be started: keeps command, exit code and stderr tail. */
export class ExecError extends OperationError {
  readonly command: string;
  readonly args: string[];
  readonly exitCode_: number | undefined;
  readonly stderrTail: string;

  constructor(command: string, args: string[], exitCode: number | undefined, stderr: string, hint?: string) {
    const tail = redact(stderr.trim().split('\n').slice(-8).join('\n'));
    super(
      `${command} ${args.slice(0, 4).join(' ')}${args.length > 4 ? ' …' : ''} ${
        exitCode === undefined ? 'could not be run' : `exited with ${exitCode}`
      }${tail ? `:\n${tail}` : ''}`,
      { hint },
    );
    this.command = command;
    this.args = args;
    this.exitCode_ = exitCode;
    this.stderrTail = tail;
  }
}

/** The execa-backed runner used in production. */
export function createProcessRunner(logger?: Logger): ProcessRunner {
  return {
    async run(command, args, opts = {}) {
      logger?.debug(`$ ${command} ${args.map((a) => (/\s/.test(a) ? JSON.stringify(a) : a)).join(' ')}`);
      // execa is loaded on first use: commands that start no tool (and --help) stay fast.
      const { execa } = await import('execa');
      try {
        const r = await execa(command, args, {
          // No input: stdin is closed, so a tool that reads stdin sees EOF instead of hanging.
          ...(opts.input === undefined ? { stdin: 'ignore' as const } : { input: opts.input }),
          env: opts.env,
          cwd: opts.cwd,
          timeout: opts.timeoutMs,
          cancelSignal: opts.signal,
          reject: false,
          stripFinalNewline: false,
        });
        if (r.failed && r.exitCode === undefined) {
          const notFound = (r as { code?: string }).code === 'ENOENT' || /ENOENT/.test(String(r.message));
          throw new ExecError(
            command,
            args,
            undefined,
            r.timedOut ? `timed out after ${opts.timeoutMs} ms` : r.isCanceled ? 'ended: its answer was no longer needed' : notFound ? 'not found on PATH' : String(r.message),
            notFound ? `install ${command} and make sure it is on PATH` : undefined,
          );
        }
        const result = { exitCode: r.exitCode ?? 1, stdout: String(r.stdout ?? ''), stderr: String(r.stderr ?? '') };
        if (result.exitCode !== 0 && opts.reject !== false) {
          throw new ExecError(command, args, result.exitCode, result.stderr);
        }
        return result;
      } catch (e) {
        if (e instanceof ExecError) throw e;
        throw new ExecError(command, args, undefined, String((e as Error).message));
      }
    },
  };
}
