import type { Ajv, Options } from 'ajv';
import addFormatsModule from 'ajv-formats';

/**
 * How kaas turns the CRD schemas under templates/crds/ (extracted from CAPI v1.12.11 and CAPO v0.14.7
 * by scripts/extract-crd-schemas.mjs) into ajv validators that behave like the API server: defaults
 * are applied first, and an unknown field is an error (kubectl's field validation is Strict). Shared
 * by the run-time compiler (crd-validators.ts) and the build, which compiles the same schemas with
 * the same options ahead of time (crd-validators.bundle.ts).
 */

export type Schema = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/** ajv's options for CRD validation. */
export const CRD_AJV_OPTIONS: Options = { strict: false, allErrors: true, useDefaults: true };

/** Kubernetes' OpenAPI extensions: annotations for ajv, checked (where they matter) by closeObjects. */
const KUBERNETES_KEYWORDS = ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-list-type',
  'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations', 'x-kubernetes-embedded-resource'];

/** Adds the formats and keywords CRD schemas use to an ajv instance made with CRD_AJV_OPTIONS. */
export function prepareCrdAjv(ajv: Ajv): Ajv {
  addFormats(ajv);
  for (const k of KUBERNETES_KEYWORDS) ajv.addKeyword({ keyword: k });
  return ajv;
}

/** "<group>_<Kind>.<version>.json" → "<group>/<version>/<Kind>", or undefined for other files. */
export function crdKey(file: string): string | undefined {
  const m = /^(.+)_([A-Za-z]+)\.(v[0-9a-z]+)\.json$/.exec(file);
  return m ? `${m[1]}/${m[3]}/${m[2]}` : undefined;
}

/**
 * Structural schemas prune unknown fields; the API server with strict field validation rejects
 * them. Make that explicit for ajv: objects with `properties` and no other escape get
 * `additionalProperties: false`. `metadata` stays open (ObjectMeta is not in CRD schemas).
 */
export function closeObjects(s: Schema, atRoot = true): Schema {
  const out: Schema = { ...s };
  if (s.properties && typeof s.properties === 'object') {
    const props: Record<string, Schema> = {};
    for (const [k, v] of Object.entries(s.properties as Record<string, Schema>)) {
      props[k] = atRoot && k === 'metadata' ? v : closeObjects(v, false);
    }
    out.properties = props;
    if (s.additionalProperties === undefined && !s['x-kubernetes-preserve-unknown-fields']) out.additionalProperties = false;
  }
  if (s.items && typeof s.items === 'object') out.items = closeObjects(s.items as Schema, false);
  if (s.additionalProperties && typeof s.additionalProperties === 'object') {
    out.additionalProperties = closeObjects(s.additionalProperties as Schema, false);
  }
  // int-or-string: kube-openapi types these as "either"; ajv needs it spelled out.
  if (s['x-kubernetes-int-or-string'] && !s.anyOf) out.anyOf = [{ type: 'integer' }, { type: 'string' }];
  return out;
}
