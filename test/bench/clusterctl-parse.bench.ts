import { readClusterctl } from '../../lib/import/clusterctl.js';
import { compareInProcess, type Bench } from './measure.js';

/** A clusterctl.yaml of `n` upper-case SCS-style keys. */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `K${i}: ${i}`).join('\n');


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
    return { ...compareInProcess((text) => readClusterctl(text, 'bench.yaml'), small, big, runs), notes: ['target: ratio ≤ 2.5 (linear)'] };
  },
};
