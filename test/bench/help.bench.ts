import { KAAS, medianMs, type Bench } from './measure.js';

/** Start-up cost: `kaas --help` against a bare `node -e 0`. */
export const bench: Bench = {
  name: 'kaas --help',
  baseline: 'node -e 0',
  async run(runs) {
    return {
      candidateMs: medianMs(process.execPath, [KAAS, '--help'], runs),
      baselineMs: medianMs(process.execPath, ['-e', '0'], runs),
    };
  },
};
