import type { ValidateFunction } from 'ajv';
import { GATEWAY_VALIDATORS } from 'kaas-gen:gateway-validators';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import type { Schema } from '../render/crd-schema.js';
import { loadValidatorFile } from '../code-files.js';

/**
 * Twin of crd-validators.ts in the bundled CLI: every kind of every bundled release was compiled by
 * the build into a file of its own (dist/bundle/validators/*.cjs, some megabytes each), loaded
 * synchronously when an object of that kind is first checked (lib/code-files.ts).
 */
export function gatewayCrdValidator(v: BundledGatewayVersion, key: string, _schemaOf?: () => Schema | undefined): ValidateFunction | undefined {
  const id = `${v.version}/${key}`;
  return Object.hasOwn(GATEWAY_VALIDATORS, id) ? loadValidatorFile(GATEWAY_VALIDATORS[id]) : undefined;
}
