import path from 'node:path';

/**
 * The verbatim upstream data (ingress-nginx, CAPI/CAPO CRDs, Gateway API and Envoy Gateway manifests)
 * the golden and schema tests compare against: `../shared/reference` beside the checkout, as CI has it,
 * or KAAS_REFERENCE_DIR (the Stryker sandbox lies deeper and points here).
 */
export const REFERENCE_DIR = process.env.KAAS_REFERENCE_DIR ?? path.resolve(process.cwd(), '..', 'shared', 'reference');
