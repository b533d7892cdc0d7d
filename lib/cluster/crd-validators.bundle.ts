import type { ValidateFunction } from 'ajv';
import { CRD_VALIDATORS } from 'kaas-gen:crd-validators';
import { loadValidatorFile } from '../code-files.js';

/**
 * Twin of crd-validators.ts in the bundled CLI: the CRD validators, compiled by the build into a file
 * per kind (dist/bundle/validators/crd-*.cjs), loaded when that kind is first checked
 * (lib/code-files.ts).
 */

export function crdKinds(): string[] {
  return Object.keys(CRD_VALIDATORS).sort();
}

export function crdValidator(key: string): ValidateFunction | undefined {
  return Object.hasOwn(CRD_VALIDATORS, key) ? loadValidatorFile(CRD_VALIDATORS[key]) : undefined;
}
