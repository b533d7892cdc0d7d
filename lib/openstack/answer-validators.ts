import { Ajv, type ValidateFunction } from 'ajv';
import { ANSWER_AJV_OPTIONS, ANSWER_SCHEMAS, LINKS_SCHEMA } from './answer-schemas.js';

/**
 * The validator of one list entry (by the list's key) or of a `_links` list (key "links"), compiled
 * by ajv when first needed. The bundled CLI replaces this module by answer-validators.bundle.ts: the
 * same validators, compiled by the build.
 */

let ajv: Ajv | undefined;
const compiled = new Map<string, ValidateFunction>();

/** Every key a validator exists for (the build precompiles exactly these). */
export function answerValidatorKeys(): string[] {
  return [...Object.keys(ANSWER_SCHEMAS), 'links'];
}

/** The validator of `key`'s entries, or undefined when kaas has no schema for it. */
export function answerValidator(key: string): ValidateFunction | undefined {
  const schema = key === 'links' ? LINKS_SCHEMA : Object.hasOwn(ANSWER_SCHEMAS, key) ? ANSWER_SCHEMAS[key] : undefined;
  if (!schema) return undefined;
  let v = compiled.get(key);
  if (!v) {
    ajv ??= new Ajv(ANSWER_AJV_OPTIONS);
    v = ajv.compile(schema);
    compiled.set(key, v);
  }
  return v;
}
