import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { renderIngress } from '../../../lib/ingress/render.js';
import { BUNDLED_INGRESS_VERSIONS } from '../../../lib/plan/ingress-versions.js';
import type { IngressVariant } from '../../../lib/plan/ingress.js';
import { AMPHORA, OVN, settings, ingressPlan } from './fixtures.js';

/**
 * Golden files: every variant × bundled version, compared semantically (all documents parsed,
 * objects compared), so formatting changes do not matter and content changes always do.
 * Update on purpose only: KAAS_UPDATE_GOLDEN=1 npm test, then review the diff.
 */
const DIR = path.resolve(process.cwd(), 'test/golden/ingress');
const UPDATE = process.env.KAAS_UPDATE_GOLDEN === '1';

const VARIANTS: Record<IngressVariant, () => ReturnType<typeof ingressPlan>> = {
  'amphora-proxy': () => ingressPlan(settings(), AMPHORA),
  'amphora-monitor': () => ingressPlan(settings({ nginx_use_proxy: false }), AMPHORA),
  'amphora-plain': () => ingressPlan(settings({ nginx_use_proxy: false, occm_loadbalancer: { 'create-monitor': true } }), AMPHORA),
  ovn: () => ingressPlan(settings(), OVN),
};

const cases = Object.keys(VARIANTS).flatMap((variant) => BUNDLED_INGRESS_VERSIONS.map((v) => [variant as IngressVariant, v.version] as const));
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS()).filter((o) => o !== null);

describe('rendered ingress manifests match the golden files', () => {
  it.each(cases)('%s with ingress-nginx %s', async (variant, version) => {
    const plan = { ...VARIANTS[variant](), version: BUNDLED_INGRESS_VERSIONS.find((b) => b.version === version)! };
    expect(plan.variant).toBe(variant);
    const { yaml } = await renderIngress(plan, plan.realIpCidr, 'all');
    const file = path.join(DIR, `${variant}-${version}.yaml`);
    if (UPDATE || !existsSync(file)) {
      if (!UPDATE) throw new Error(`golden file ${file} is missing: run KAAS_UPDATE_GOLDEN=1 npm test and review it`);
      mkdirSync(DIR, { recursive: true });
      writeFileSync(file, yaml);
    }
    expect(docs(yaml)).toEqual(docs(readFileSync(file, 'utf8')));
  });

  it('OVN and amphora-plain leave the upstream manifest unchanged', async () => {
    for (const v of BUNDLED_INGRESS_VERSIONS) {
      const upstream = docs(readFileSync(path.resolve(process.cwd(), 'templates/ingress/upstream', v.file), 'utf8'));
      for (const variant of ['ovn', 'amphora-plain'] as const) {
        const { yaml } = await renderIngress({ ...VARIANTS[variant](), version: v });
        expect(docs(yaml)).toEqual(upstream);
      }
    }
  });
});
