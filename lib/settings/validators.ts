import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { SETTINGS_AJV_OPTIONS, SETTINGS_FORMATS } from './formats.js';
import { valueSchema } from './schema.js';
import type { SettingType } from './table.js';

/**
 * The JSON Schema validator of each setting type, compiled by ajv when first needed. The bundled CLI
 * replaces this module by validators.bundle.ts: the same validators, compiled by the build.
 */

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv, formats: string[]) => Ajv;

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** The key of a setting type's validator (the build keys the precompiled ones the same way). */
export function validatorKey(type: SettingType): string {
  return JSON.stringify(type);
}

export function validatorFor(type: SettingType): ValidateFunction {
  const id = validatorKey(type);
  let v = compiled.get(id);
  if (!v) {
    if (!ajv) {
      ajv = new Ajv(SETTINGS_AJV_OPTIONS);
      addFormats(ajv, SETTINGS_FORMATS);
    }
    v = ajv.compile(valueSchema(type));
    compiled.set(id, v);
  }
  return v;
}
