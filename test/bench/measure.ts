import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';

/**
 * The CLI as users run it: the bundled entry (package.json "bin"). KAAS_BENCH_ENTRY=dist/cli/main.js
 * measures the tsc-built tree instead (the CLI before bundling, for comparison).
 */
export const KAAS = path.resolve(process.cwd(), process.env.KAAS_BENCH_ENTRY ?? 'dist/bundle/kaas.js');

/** One benchmark: runs its candidate and its named baseline, and reports their ratio. */
export interface Bench {
  name: string;
  /** What the candidate is compared with, e.g. "node -e 0". */
  baseline: string;
  /** Why this bench does not run here (an opt-in one), or undefined when it runs. */
  skip?: () => string | undefined;
  run(runs: number): Promise<BenchResult>;
}

export interface BenchResult {
  candidateMs: number;
  baselineMs: number;
  /** Extra facts to print (e.g. HTTP requests made). */
  notes?: string[];
}

/** A command to time: argv[0], the rest, and spawn options. */
export interface Timed {
  command: string;
  args: string[];
  opts?: SpawnSyncOptions;
}

/** Wall time in ms of one run; fails loudly on a non-zero exit. */
function timeOnce({ command, args, opts }: Timed): number {
  const t0 = process.hrtime.bigint();
  const r = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
  const ms = Number(process.hrtime.bigint() - t0) / 1e6;
  if (r.status !== 0) throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
  return ms;
}

function median(times: number[]): number {
  const s = [...times].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/**
 * Median wall times of several commands, run in turn (after one warm-up run each), so that a change in
 * the machine's load during the run weighs on all alike.
 */
export function medianMs(commands: Timed[], runs: number): number[] {
  for (const c of commands) timeOnce(c);
  const times: number[][] = commands.map(() => []);
  for (let i = 0; i < runs; i++) commands.forEach((c, j) => times[j].push(timeOnce(c)));
  return times.map(median);
}

/** Median wall times of a candidate and its baseline (see medianMs). */
export function compareMs(candidate: Timed, baseline: Timed, runs: number): { candidateMs: number; baselineMs: number } {
  const [candidateMs, baselineMs] = medianMs([candidate, baseline], runs);
  return { candidateMs, baselineMs };
}

/**
 * In-process ratio of two sizes of one parse (linear-time checks): median wall time of `parse(small)` and
 * `parse(big)` over 3–5 runs each.
 */
export function compareInProcess(parse: (text: string) => unknown, small: string, big: string, runs: number): { candidateMs: number; baselineMs: number } {
  const n = Math.max(3, Math.min(runs, 5));
  const timed = (text: string) => median(Array.from({ length: n }, () => {
    const t0 = performance.now();
    parse(text);
    return performance.now() - t0;
  }));
  return { baselineMs: timed(small), candidateMs: timed(big) };
}
