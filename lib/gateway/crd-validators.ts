import type { ValidateFunction } from 'ajv';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import { compileCrdSchema } from '../render/crd-compile.js';
import type { Schema } from '../render/crd-schema.js';

/**
 * The validator of one Gateway API / Envoy Gateway kind of a bundled release, compiled by ajv from
 * its CRD schema when first needed. The bundled CLI replaces this module by crd-validators.bundle.ts:
 * the same validators, compiled by the build, one file per kind, loaded when that kind is checked.
 */

const compiled = new Map<string, ValidateFunction | null>();

/** `schemaOf` gives the kind's schema in the release's CRDs (undefined: not a kind of the release). */
export function gatewayCrdValidator(v: BundledGatewayVersion, key: string, schemaOf: () => Schema | undefined): ValidateFunction | undefined {
  const id = `${v.version}/${key}`;
  if (!compiled.has(id)) {
    const schema = schemaOf();
    compiled.set(id, schema ? compileCrdSchema(schema) : null);
  }
  return compiled.get(id) ?? undefined;
}
