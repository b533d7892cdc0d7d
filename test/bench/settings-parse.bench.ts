import { parseSettingsFile } from '../../lib/settings/file.js';
import { compareInProcess, type Bench } from './measure.js';

/** A settings file of `n` unknown keys (the worst case: every key is a problem with a suggestion). */
const fileOf = (n: number) => Array.from({ length: n }, (_, i) => `k${i}: 1\n`).join('');


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
    return { ...compareInProcess((text) => parseSettingsFile(text, 'bench.yaml'), small, big, runs), notes: ['target: ratio ≤ 2.5 (linear)'] };
  },
};
