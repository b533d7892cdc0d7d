import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { tempDir } from './temp.js';

/** The repository root (tests run compiled from dist/test/…). */
export const ROOT = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();

/**
 * The built CLI entry point: the bundle users run (package.json "bin"). The tsc-built tree
 * (dist/cli/main.js) prints the same bytes (test/cli/bundle-equivalence.test.ts).
 */
export const KAAS = path.join(ROOT, 'dist', 'bundle', 'kaas.js');

export { tempDir } from './temp.js';

let home: string | undefined;

/**
 * A minimal environment: no KAAS_* variables, no OpenStack variables, HOME an empty temp dir; TMPDIR
 * the test run's (test/support/temp-check.ts), so that what kaas leaves there fails the run.
 */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  home ??= tempDir('kaas-home-');
  return { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, NO_COLOR: '1', TMPDIR: os.tmpdir(), ...extra };
}

/** The outcome of one CLI run. */
export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built `kaas` (or `entry`, another copy of it) with a clean environment (cwd defaults to the repo root). */
export function runKaas(args: string[], opts: { cwd?: string; env?: Record<string, string>; input?: string; prefix?: string[]; entry?: string } = {}): CliRun {
  // `prefix` runs kaas under another command, e.g. flock holding the test peer's shared lock.
  const [cmd, ...pre] = opts.prefix ?? [process.execPath];
  const r = spawnSync(cmd, [...pre, ...(opts.prefix ? [process.execPath] : []), opts.entry ?? KAAS, ...args], {
    cwd: opts.cwd ?? ROOT,
    env: cleanEnv(opts.env),
    encoding: 'utf8',
    input: opts.input,
    timeout: 120000, // generous: CI machines run several jest workers at once
  });
  // A run that could not start or did not end (ENOENT, the timeout, a signal) is the test's failure,
  // with its reason, not a `code: null` a later assertion reports without one.
  if (r.error || r.signal) {
    const why = r.error ? `${r.error.message}` : `killed by ${r.signal}`;
    throw new Error(`kaas ${args.join(' ')}: ${why}\n--- stderr ---\n${r.stderr ?? ''}\n--- stdout ---\n${r.stdout ?? ''}`);
  }
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
