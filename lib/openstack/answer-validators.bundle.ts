import type { ValidateFunction } from 'ajv';
import { VALIDATORS } from 'kaas-gen:answer-validators';

/** Twin of answer-validators.ts in the bundled CLI: the validators of the answer schemas, compiled by the build. */

/** Every key a validator exists for. */
export function answerValidatorKeys(): string[] {
  return Object.keys(VALIDATORS);
}

/** The validator of `key`'s entries, or undefined when kaas has no schema for it. */
export function answerValidator(key: string): ValidateFunction | undefined {
  return Object.hasOwn(VALIDATORS, key) ? VALIDATORS[key] : undefined;
}
