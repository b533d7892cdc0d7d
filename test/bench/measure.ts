import { spawnSync, type SpawnSyncOptions } from 'node:child_process';
import path from 'node:path';

/** The compiled CLI, as `npx kaas` runs it. */
export const KAAS = path.resolve(process.cwd(), 'dist/cli/main.js');

/** One benchmark: runs its candidate and its named baseline, and reports their ratio. */
export interface Bench {
  name: string;
  /** What the candidate is compared with, e.g. "node -e 0". */
  baseline: string;
  run(runs: number): Promise<BenchResult>;
}

export interface BenchResult {
  candidateMs: number;
  baselineMs: number;
  /** Extra facts to print (e.g. HTTP requests made). */
  notes?: string[];
}

/** Median wall time in ms of `runs` runs of a command (after one warm-up run). Fails loudly on a non-zero exit. */
export function medianMs(command: string, args: string[], runs: number, opts: SpawnSyncOptions = {}): number {
  const times: number[] = [];
  for (let i = 0; i <= runs; i++) {
    const t0 = process.hrtime.bigint();
    const r = spawnSync(command, args, { stdio: ['ignore', 'pipe', 'pipe'], ...opts });
    const ms = Number(process.hrtime.bigint() - t0) / 1e6;
    if (r.status !== 0) {
      throw new Error(`${command} ${args.join(' ')} exited ${r.status}: ${String(r.stderr).slice(-500)}`);
    }
    if (i > 0) times.push(ms);
  }
  times.sort((a, b) => a - b);
  const mid = Math.floor(times.length / 2);
  return times.length % 2 ? times[mid] : (times[mid - 1] + times[mid]) / 2;
}
