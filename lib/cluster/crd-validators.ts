import { readdirSync, readFileSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { templatePath } from '../paths.js';
import { compileCrdSchema } from '../render/crd-compile.js';
import type { Schema } from '../render/crd-schema.js';

/**
 * The validators of the Cluster API / CAPO CRD schemas under templates/crds/ (extracted from CAPI
 * v1.12.11 and CAPO v0.14.7 by scripts/extract-crd-schemas.mjs), each compiled by ajv when first
 * needed. The bundled CLI replaces this module by crd-validators.bundle.ts: the same validators,
 * compiled by the build, a file per kind.
 */

/** "<group>_<Kind>.<version>.json" → "<group>/<version>/<Kind>", or undefined for other files. */
export function crdKey(file: string): string | undefined {
  const m = /^(.+)_([A-Za-z]+)\.(v[0-9a-z]+)\.json$/.exec(file);
  return m ? `${m[1]}/${m[3]}/${m[2]}` : undefined;
}

/** The schema of every CRD file under templates/crds/, by key. */
export function crdFileSchemas(): [string, Schema][] {
  const dir = templatePath('crds');
  const out: [string, Schema][] = [];
  for (const f of readdirSync(dir).sort()) {
    const key = crdKey(f);
    if (key) out.push([key, (JSON.parse(readFileSync(`${dir}/${f}`, 'utf8')) as { schema: Schema }).schema]);
  }
  return out;
}

let schemas: Map<string, Schema> | undefined;
const compiled = new Map<string, ValidateFunction>();
const fileSchemas = () => (schemas ??= new Map(crdFileSchemas()));

/** The "<group>/<version>/<Kind>" keys of every CRD schema, sorted. */
export function crdKinds(): string[] {
  return [...fileSchemas().keys()].sort();
}

/** The validator of one CRD schema, compiled when first asked for; undefined for a kind without one. */
export function crdValidator(key: string): ValidateFunction | undefined {
  const schema = fileSchemas().get(key);
  if (!schema) return undefined;
  let fn = compiled.get(key);
  if (!fn) compiled.set(key, (fn = compileCrdSchema(schema)));
  return fn;
}
