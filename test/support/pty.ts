import { spawnSync } from 'node:child_process';
import { cleanEnv, KAAS, ROOT, type CliRun } from './cli.js';

/** Quotes one word for sh. */
const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/**
 * Runs the built `kaas` (or `entry`) on a pseudo-terminal (util-linux `script`), `columns` wide, with `input`
 * typed on it: stdin, stdout and stderr are all the terminal, so TTY-only behaviour (prompts,
 * spinners, help width) shows. Everything the terminal showed comes back as `stdout`.
 */
export function runKaasOnTty(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string; columns?: number; entry?: string } = {}): CliRun {
  const cmd = `stty cols ${opts.columns ?? 200} rows 50; exec ${q(process.execPath)} ${q(opts.entry ?? KAAS)} ${args.map(q).join(' ')}`;
  const r = spawnSync('script', ['-qec', cmd, '/dev/null'], {
    cwd: opts.cwd ?? ROOT,
    env: { ...cleanEnv(opts.env), TERM: 'xterm' },
    encoding: 'utf8',
    input: opts.input,
    timeout: 120000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
