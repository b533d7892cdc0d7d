import type { ValidateFunction } from 'ajv';
import { VALIDATORS } from 'kaas-gen:crd-validators';

/** Twin of crd-validators.ts in the bundled CLI: the CRD validators, compiled by the build. */

let validators: Map<string, ValidateFunction> | undefined;

export function crdValidators(): Map<string, ValidateFunction> {
  validators ??= new Map(Object.entries(VALIDATORS));
  return validators;
}
