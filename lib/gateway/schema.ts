import { readdirSync } from 'node:fs';
import type { ValidateFunction } from 'ajv';
import { templatePath } from '../paths.js';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import { readBundledObjects } from '../render/bundled.js';
import { compileCrdSchema, crdSchemas, validateCustomResources, type Schema } from '../render/crd-schema.js';
import type { KubeObject } from '../render/documents.js';

/**
 * Validation of Gateway API and Envoy Gateway objects against the CRDs kaas bundles for a release
 * (templates/gateway/). Schemas are read from the CRD manifests themselves; each is compiled on
 * first use (the EnvoyProxy schema alone is 1.4 MB).
 */

const schemas = new Map<string, Map<string, Schema>>();
const compiled = new Map<string, ValidateFunction>();

/** The bundled CRD manifests of a release: Gateway API standard channel, then Envoy Gateway's own. */
export function bundledCrdFiles(v: BundledGatewayVersion): string[][] {
  const eg = readdirSync(templatePath('gateway', v.dir, 'crds')).filter((f) => f.endsWith('.yaml')).sort();
  return [['gateway', v.gatewayApiDir, 'standard-install.yaml'], ...eg.map((f) => ['gateway', v.dir, 'crds', f])];
}

function schemaTable(v: BundledGatewayVersion): Map<string, Schema> {
  let table = schemas.get(v.version);
  if (table) return table;
  table = new Map();
  for (const parts of bundledCrdFiles(v)) {
    for (const o of readBundledObjects(...parts)) {
      if (o.kind === 'CustomResourceDefinition') for (const [k, s] of crdSchemas(o)) table.set(k, s);
    }
  }
  schemas.set(v.version, table);
  return table;
}

/** The `group/version/Kind` keys the release has schemas for. */
export function gatewayCrdKinds(v: BundledGatewayVersion): string[] {
  return [...schemaTable(v).keys()].sort();
}

/** Validates the custom resources among `objects` against the release's CRDs (others skipped). */
export function validateGatewayObjects(v: BundledGatewayVersion, objects: KubeObject[], what: string) {
  const table = schemaTable(v);
  return validateCustomResources(objects, (key) => {
    const key2 = `${v.version}/${key}`;
    if (!compiled.has(key2) && table.has(key)) compiled.set(key2, compileCrdSchema(table.get(key)!));
    return compiled.get(key2);
  }, what);
}
