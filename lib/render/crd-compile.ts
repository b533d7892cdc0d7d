import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { closeObjects, CRD_AJV_OPTIONS, type Schema } from './crd-schema.js';

/**
 * The ajv compiler of CRD schemas (crd-schema.ts says how they are read). Loaded by the run-time
 * validator sources only; the bundled CLI carries validators the build compiled with the same
 * ajv set-up (prepareCrdAjv) from the same closed schemas.
 */

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/**
 * Adds the formats CRD schemas use (uuid, ipv4, date-time, …) to an ajv instance made with
 * CRD_AJV_OPTIONS. Kubernetes' x-kubernetes-* extensions need no declaring: with `strict: false`
 * ajv ignores keywords it does not know, and closeObjects spells out the ones that matter.
 */
export function prepareCrdAjv(ajv: Ajv): Ajv {
  return addFormats(ajv);
}

let ajv: Ajv | undefined;

/** Compiles one CRD version's openAPIV3Schema into a validator (strict about unknown fields). */
export function compileCrdSchema(schema: Schema): ValidateFunction {
  ajv ??= prepareCrdAjv(new Ajv(CRD_AJV_OPTIONS));
  return ajv.compile(closeObjects(schema));
}
