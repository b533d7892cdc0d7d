import type { ValidateFunction } from 'ajv';
import { GATEWAY_VALIDATORS } from 'kaas-gen:gateway-validators';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import type { Schema } from '../render/crd-schema.js';
import { bundleBytes, bundleText } from '../assets.js';
import { compileValidator, VALIDATOR_CACHE_SUFFIX, validatorOf } from './validator-script.js';

/**
 * Twin of crd-validators.ts in the bundled CLI: every kind of every bundled release was compiled by
 * the build into a file of its own (dist/bundle/validators/*.cjs, some megabytes each), loaded
 * synchronously when an object of that kind is first checked.
 */

const loaded = new Map<string, ValidateFunction>();

export function gatewayCrdValidator(v: BundledGatewayVersion, key: string, _schemaOf?: () => Schema | undefined): ValidateFunction | undefined {
  const id = `${v.version}/${key}`;
  const file = Object.hasOwn(GATEWAY_VALIDATORS, id) ? GATEWAY_VALIDATORS[id] : undefined;
  if (!file) return undefined;
  let fn = loaded.get(id);
  if (!fn) loaded.set(id, (fn = loadValidator(file)));
  return fn;
}

/**
 * The validator of a validator file, compiled with the code cache the build made for it (see
 * validator-script.ts), from dist/bundle/validators/ (this module is bundled into dist/bundle/chunks/,
 * build/bundle.mjs checks it), or in the single-file executable from its assets validators/<file>.
 */
function loadValidator(file: string): ValidateFunction {
  const root = () => new URL('../', import.meta.url);
  const filename = `kaas:validators/${file}`;
  return validatorOf(compileValidator(bundleText(`validators/${file}`, root), filename, bundleBytes(`validators/${file}${VALIDATOR_CACHE_SUFFIX}`, root)), filename);
}
