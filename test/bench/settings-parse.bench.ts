import { parseSettingsFile } from '../../lib/settings/file.js';
import type { Bench } from './measure.js';

/** A settings file of `n` unknown keys (the worst case: every key is a problem with a suggestion). */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: 1\n`).join('');

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
 * Linear-time settings parsing: 20 000 keys against 10 000 keys. Linear is a ratio near 2; the
 * yaml library's own duplicate-key check made it about 4 (quadratic), seconds for 20 000 keys.
 */
export const bench: Bench = {
  name: 'parse settings, 20k keys',
  baseline: 'parse settings, 10k keys',
  async run(runs) {
    const small = fileOf(10_000);
    const big = fileOf(20_000);
    const n = Math.max(3, Math.min(runs, 5));
    return {
      baselineMs: median(() => parseSettingsFile(small, 'bench.yaml'), n),
      candidateMs: median(() => parseSettingsFile(big, 'bench.yaml'), n),
      notes: ['target: ratio ≤ 2.5 (linear)'],
    };
  },
};
