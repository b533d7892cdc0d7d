import type { Options, ValidateFunction } from 'ajv';
import { objectKey, type KubeObject } from './documents.js';
import { RenderError } from './template.js';

/**
 * Validation of custom resources against the openAPIV3Schema of their CRDs, as the API server
 * does it: defaults applied first, and an unknown field is an error (kubectl's field validation is
 * Strict). CEL rules (x-kubernetes-validations) are not evaluated. Used for the Cluster API / CAPO
 * objects (schemas extracted to templates/crds/) and the Gateway API / Envoy Gateway objects
 * (schemas read from the bundled CRD manifests). The schemas are compiled by crd-compile.ts, at run
 * time (tsc-built CLI, tests) or by the build (bundled CLI): this module does not load ajv.
 */

/** A JSON schema (an openAPIV3Schema). */
export type Schema = Record<string, unknown>;

/** ajv's options for CRD validation (the build compiles with the same ones). */
export const CRD_AJV_OPTIONS: Options = { strict: false, allErrors: true, useDefaults: true };

/**
 * Structural schemas prune unknown fields; the API server with strict field validation rejects
 * them. Make that explicit for ajv: objects with `properties` and no other escape get
 * `additionalProperties: false`. `metadata` stays open (ObjectMeta is not in CRD schemas).
 */
export function closeObjects(s: Schema, atRoot = true): Schema {
  const out: Schema = { ...s };
  if (s.properties) {
    const props: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(s.properties as Record<string, Schema>)) {
      props[k] = atRoot && k === 'metadata' ? v : closeObjects(v, false);
    }
    out.properties = props;
    if (s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  }
  if (s.items) out.items = closeObjects(s.items as Schema, false);
  if (typeof s.additionalProperties === 'object') {
    out.additionalProperties = closeObjects(s.additionalProperties as Schema, false);
  }
  // int-or-string: kube-openapi types these as "either"; ajv needs it spelled out.
  if (s['x-kubernetes-int-or-string'] && !s.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}

/** A CRD manifest's versions as `group/version/Kind` → schema (served versions only). */
export function crdSchemas(crd: KubeObject): [string, Schema][] {
  const spec = crd.spec as { group: string; names: { kind: string }; versions: { name: string; served: boolean; schema?: { openAPIV3Schema?: Schema } }[] };
  return spec.versions
    .filter((v) => v.served && v.schema?.openAPIV3Schema)
    .map((v) => [`${spec.group}/${v.name}/${spec.names.kind}`, v.schema!.openAPIV3Schema!]);
}

/**
 * Validates every object whose `apiVersion/kind` has a validator (`lookup` returns undefined for
 * the rest, which come back as skipped); throws one RenderError listing every violation as
 * `Kind/ns/name: /spec/path message`.
 */
export function validateCustomResources(
  objects: KubeObject[], lookup: (key: string) => ValidateFunction | undefined, what: string,
): { validated: string[]; skipped: string[] } {
  const problems: string[] = [];
  const validated: string[] = [];
  const skipped: string[] = [];
  for (const o of objects) {
    const fn = lookup(`${o.apiVersion}/${o.kind}`);
    if (!fn) {
      skipped.push(objectKey(o));
      continue;
    }
    // Validate a copy: useDefaults writes defaults into the data.
    if (!fn(structuredClone(o))) {
      for (const e of fn.errors!) { // ajv sets errors whenever it returns false
        const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
        problems.push(`${objectKey(o)}: ${e.instancePath || '/'} ${e.message}${extra}`);
      }
    }
    validated.push(objectKey(o));
  }
  if (problems.length) {
    throw new RenderError(`${what} do not match their CRD schemas`, [...new Set(problems)].sort(), 'this is a kaas bug or a bad template: please report it');
  }
  return { validated, skipped };
}
