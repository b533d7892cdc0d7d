import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { closeObjects, CRD_AJV_OPTIONS, KUBERNETES_KEYWORDS, type Schema } from './crd-schema.js';

/**
 * The ajv compiler of CRD schemas (crd-schema.ts says how they are read). Loaded by the run-time
 * validator sources only; the bundled CLI carries validators the build compiled with the same
 * ajv set-up (prepareCrdAjv) from the same closed schemas.
 */

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/** Adds the formats and keywords CRD schemas use to an ajv instance made with CRD_AJV_OPTIONS. */
export function prepareCrdAjv(ajv: Ajv): Ajv {
  addFormats(ajv);
  for (const k of KUBERNETES_KEYWORDS) ajv.addKeyword({ keyword: k });
  return ajv;
}

let ajv: Ajv | undefined;

/** Compiles one CRD version's openAPIV3Schema into a validator (strict about unknown fields). */
export function compileCrdSchema(schema: Schema): ValidateFunction {
  ajv ??= prepareCrdAjv(new Ajv(CRD_AJV_OPTIONS));
  return ajv.compile(closeObjects(schema));
}
