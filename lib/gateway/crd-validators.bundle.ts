import { createRequire } from 'node:module';
import type { ValidateFunction } from 'ajv';
import { GATEWAY_VALIDATORS } from 'kaas-gen:gateway-validators';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import type { Schema } from '../render/crd-schema.js';

/**
 * Twin of crd-validators.ts in the bundled CLI: every kind of every bundled release was compiled by
 * the build into a file of its own (dist/bundle/validators/*.cjs, some megabytes each), loaded
 * synchronously when an object of that kind is first checked.
 */

const load = createRequire(import.meta.url);
const loaded = new Map<string, ValidateFunction>();

export function gatewayCrdValidator(v: BundledGatewayVersion, key: string, _schemaOf?: () => Schema | undefined): ValidateFunction | undefined {
  const id = `${v.version}/${key}`;
  const file = Object.hasOwn(GATEWAY_VALIDATORS, id) ? GATEWAY_VALIDATORS[id] : undefined;
  if (!file) return undefined;
  let fn = loaded.get(id);
  // This module is bundled into dist/bundle/chunks/ (build/bundle.mjs checks it).
  if (!fn) loaded.set(id, (fn = (load(`../validators/${file}`) as { default: ValidateFunction }).default));
  return fn;
}
