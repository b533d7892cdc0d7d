import type { ValidateFunction } from 'ajv';
import { VALIDATORS } from 'kaas-gen:settings-validators';
import { OperationError } from '../errors.js';
import type { SettingType } from './table.js';

/** Twin of validators.ts in the bundled CLI: every setting type's validator, compiled by the build. */

export function validatorKey(type: SettingType): string {
  return JSON.stringify(type);
}

export function validatorFor(type: SettingType): ValidateFunction {
  const v = VALIDATORS[validatorKey(type)];
  if (!v) throw new OperationError(`no precompiled validator for setting type ${validatorKey(type)}`, { hint: 'this is a kaas build bug: please report it' });
  return v;
}
