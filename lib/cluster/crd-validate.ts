import { readdirSync, readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { templatePath } from '../paths.js';
import { objectKey, type KubeObject } from '../render/documents.js';
import { RenderError } from '../render/engine.js';

/**
 * Validates rendered Cluster API / CAPO objects against the openAPIV3Schema of their CRDs
 * (templates/crds/, extracted from CAPI v1.12.11 and CAPO v0.14.7 by
 * scripts/extract-crd-schemas.mjs). It mimics the API server: defaults are applied first, and an
 * unknown field is an error (kubectl's field validation is Strict) — so a v1alpha7 spelling like
 * `allowedCidrs` is caught before anything is applied. CEL rules (x-kubernetes-validations) are
 * not evaluated.
 */

type Schema = Record<string, unknown>;

// ajv-formats is CommonJS: under NodeNext its default export is the module object.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/**
 * Structural schemas prune unknown fields; the API server with strict field validation rejects
 * them. Make that explicit for ajv: objects with `properties` and no other escape get
 * `additionalProperties: false`. `metadata` stays open (ObjectMeta is not in CRD schemas).
 */
function closeObjects(s: Schema, atRoot = true): Schema {
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

let validators: Map<string, ValidateFunction> | undefined;

function load(): Map<string, ValidateFunction> {
  if (validators) return validators;
  const ajv = new Ajv({ strict: false, allErrors: true, useDefaults: true });
  addFormats(ajv);
  for (const k of ['x-kubernetes-preserve-unknown-fields', 'x-kubernetes-int-or-string', 'x-kubernetes-list-type',
    'x-kubernetes-list-map-keys', 'x-kubernetes-map-type', 'x-kubernetes-validations', 'x-kubernetes-embedded-resource']) {
    ajv.addKeyword({ keyword: k });
  }
  validators = new Map();
  const dir = templatePath('crds');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    // <group>_<Kind>.<version>.json
    const m = /^(.+)_([A-Za-z]+)\.(v[0-9a-z]+)\.json$/.exec(f);
    if (!m) continue;
    const { schema } = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { schema: Schema };
    validators.set(`${m[1]}/${m[3]}/${m[2]}`, ajv.compile(closeObjects(schema)));
  }
  return validators;
}

/** The apiVersion/kind pairs kaas has CRD schemas for, e.g. "infrastructure.cluster.x-k8s.io/v1beta1/OpenStackCluster". */
export function knownCrdKinds(): string[] {
  return [...load().keys()].sort();
}

/**
 * Validates every object of a kind with a bundled CRD schema (others are returned as skipped);
 * throws one RenderError listing every violation as `Kind/ns/name: /spec/path message`.
 */
export function validateAgainstCrds(objects: KubeObject[]): { validated: string[]; skipped: string[] } {
  const v = load();
  const problems: string[] = [];
  const validated: string[] = [];
  const skipped: string[] = [];
  for (const o of objects) {
    const fn = v.get(`${o.apiVersion}/${o.kind}`);
    if (!fn) {
      skipped.push(objectKey(o));
      continue;
    }
    // Validate a copy: useDefaults writes defaults into the data.
    if (!fn(structuredClone(o))) {
      for (const e of fn.errors ?? []) {
        const extra = e.keyword === 'additionalProperties' ? ` (${(e.params as { additionalProperty: string }).additionalProperty})` : '';
        problems.push(`${objectKey(o)}: ${e.instancePath || '/'} ${e.message}${extra}`);
      }
    }
    validated.push(objectKey(o));
  }
  if (problems.length) {
    throw new RenderError('rendered Cluster API objects do not match their CRD schemas', [...new Set(problems)].sort(), 'this is a kaas bug or a bad template: please report it');
  }
  return { validated, skipped };
}
