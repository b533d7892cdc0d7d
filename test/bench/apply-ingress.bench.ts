import { rmSync } from 'node:fs';
import { scsOverlayDir, scsSedArgs } from '../support/scs-overlay.js';
import { compareMs, KAAS, type Bench } from './measure.js';

/**
 * Rendering the ingress: `kaas apply-ingress demo --env example --dry-run` (settings, plan, render,
 * parse and schema-check every document) against the old path for the same result — the SCS
 * nginx-proxy overlay built by `kubectl kustomize`, piped through the script's sed. Both offline.
 */
export const bench: Bench = {
  name: 'kaas apply-ingress --dry-run',
  baseline: 'kubectl kustomize nginx-proxy | sed',
  async run(runs) {
    const dir = scsOverlayDir('v1.15.1');
    try {
      const sed = scsSedArgs('10.8.0.0/20')[0].replace(/'/g, `'\\''`);
      const { candidateMs, baselineMs } = compareMs(
        { command: process.execPath, args: [KAAS, 'apply-ingress', 'demo', '--env', 'example', '--dry-run'], opts: { env: { PATH: process.env.PATH, HOME: dir, NO_COLOR: '1' } } },
        { command: 'sh', args: ['-c', `kubectl kustomize '${dir}/nginx-proxy' | sed '${sed}' > /dev/null`] },
        runs,
      );
      return { candidateMs, baselineMs, notes: ['same manifests (checked by test/unit/ingress/scs-equivalence.test.ts); target: ratio ≤ 0.8'] };
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  },
};
