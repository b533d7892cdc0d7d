import { compareMs, KAAS, type Bench } from './measure.js';

/** Start-up cost: `kaas --help` against a bare `node -e 0`. */
export const bench: Bench = {
  name: 'kaas --help',
  baseline: 'node -e 0',
  async run(runs) {
    const r = compareMs({ command: process.execPath, args: [KAAS, '--help'] }, { command: process.execPath, args: ['-e', '0'] }, runs);
    return { ...r, notes: ['target: ratio ≤ 1.6'] };
  },
};
