import { readdirSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { templatePath } from '../paths.js';
import { closeObjects, CRD_AJV_OPTIONS, crdKey, prepareCrdAjv, type Schema } from './crd-schemas.js';

/**
 * The validators of the bundled CRD schemas, compiled by ajv when first needed. The bundled CLI
 * replaces this module by crd-validators.bundle.ts: the same validators, compiled by the build.
 */

let validators: Map<string, ValidateFunction> | undefined;

/** "<group>/<version>/<Kind>" → validator. */
export function crdValidators(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ajv = prepareCrdAjv(new Ajv(CRD_AJV_OPTIONS));
  validators = new Map();
  const dir = templatePath('crds');
  for (const f of readdirSync(dir).sort()) {
    const key = crdKey(f);
    if (!key) continue;
    const { schema } = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { schema: Schema };
    validators.set(key, ajv.compile(closeObjects(schema)));
  }
  return validators;
}
