import { readClusterctl } from '../../lib/settings/import-clusterctl.js';
import type { Bench } from './measure.js';

/** A clusterctl.yaml of `n` upper-case SCS-style keys. */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `K${i}: ${i}`).join('\n');

function median(fn: () => void, runs: number): number {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    fn();
    times.push(performance.now() - t0);
  }
  return times.sort((a, b) => a - b)[Math.floor(runs / 2)];
}

/**
 * Linear-time `settings import` of a clusterctl.yaml (issue 31 §5: the yaml library's uniqueKeys made
 * 50 000 keys take 78 s): 40 000 keys against 20 000. Linear is a ratio near 2, quadratic near 4. This
 * replaces a timed unit test (speed targets live in benchmarks).
 */
export const bench: Bench = {
  name: 'import clusterctl.yaml, 40k keys',
  baseline: 'import clusterctl.yaml, 20k keys',
  async run(runs) {
    const small = fileOf(20_000);
    const big = fileOf(40_000);
    const n = Math.max(3, Math.min(runs, 5));
    return {
      baselineMs: median(() => readClusterctl(small, 'bench.yaml'), n),
      candidateMs: median(() => readClusterctl(big, 'bench.yaml'), n),
      notes: ['target: ratio ≤ 2.5 (linear)'],
    };
  },
};
