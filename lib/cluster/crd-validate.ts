import { objectKey, type KubeObject } from '../render/documents.js';
import { RenderError } from '../render/template.js';
import { crdValidators } from './crd-validators.js';

/**
 * Validates rendered Cluster API / CAPO objects against the openAPIV3Schema of their CRDs
 * (templates/crds/, see crd-schemas.ts). It mimics the API server: defaults are applied first, and an
 * unknown field is an error (kubectl's field validation is Strict) — so a v1alpha7 spelling like
 * `allowedCidrs` is caught before anything is applied. CEL rules (x-kubernetes-validations) are
 * not evaluated.
 */

/** The apiVersion/kind pairs kaas has CRD schemas for, e.g. "infrastructure.cluster.x-k8s.io/v1beta1/OpenStackCluster". */
export function knownCrdKinds(): string[] {
  return [...crdValidators().keys()].sort();
}

/**
 * Validates every object of a kind with a bundled CRD schema (others are returned as skipped);
 * throws one RenderError listing every violation as `Kind/ns/name: /spec/path message`.
 */
export function validateAgainstCrds(objects: KubeObject[]): { validated: string[]; skipped: string[] } {
  const v = crdValidators();
  const problems: string[] = [];
  const validated: string[] = [];
  const skipped: string[] = [];
  for (const o of objects) {
    const fn = v.get(`${o.apiVersion}/${o.kind}`);
    if (!fn) {
      skipped.push(objectKey(o));
      continue;
    }
    // Validate a copy: useDefaults writes defaults into the data.
    if (!fn(structuredClone(o))) {
      for (const e of fn.errors ?? []) {
        const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
        problems.push(`${objectKey(o)}: ${e.instancePath || '/'} ${e.message}${extra}`);
      }
    }
    validated.push(objectKey(o));
  }
  if (problems.length) {
    throw new RenderError('rendered Cluster API objects do not match their CRD schemas', [...new Set(problems)].sort(), 'this is a kaas bug or a bad template: please report it');
  }
  return { validated, skipped };
}
