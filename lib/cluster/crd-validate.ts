import { readdirSync, readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { templatePath } from '../paths.js';
import { compileCrdSchema, validateCustomResources, type Schema } from '../render/crd-schema.js';
import type { KubeObject } from '../render/documents.js';

/**
 * Validates rendered Cluster API / CAPO objects against the openAPIV3Schema of their CRDs
 * (templates/crds/, extracted from CAPI v1.12.11 and CAPO v0.14.7 by
 * scripts/extract-crd-schemas.mjs), the way lib/render/crd-schema.ts describes — so a v1alpha7
 * spelling like `allowedCidrs` is caught before anything is applied.
 */

let validators: Map<string, ValidateFunction> | undefined;

function load(): Map<string, ValidateFunction> {
  if (validators) return validators;
  validators = new Map();
  const dir = templatePath('crds');
  for (const f of readdirSync(dir).filter((n) => n.endsWith('.json'))) {
    // <group>_<Kind>.<version>.json
    const m = /^(.+)_([A-Za-z]+)\.(v[0-9a-z]+)\.json$/.exec(f);
    if (!m) continue;
    const { schema } = JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { schema: Schema };
    validators.set(`${m[1]}/${m[3]}/${m[2]}`, compileCrdSchema(schema));
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
  return validateCustomResources(objects, (k) => v.get(k), 'rendered Cluster API objects');
}
