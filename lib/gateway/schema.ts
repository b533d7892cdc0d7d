import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import { bundledFiles, readBundledObjects, readBundledText } from '../render/bundled.js';
import { crdSchemas, validateCustomResources, type Schema } from '../render/crd-schema.js';
import type { KubeObject } from '../render/documents.js';
import { gatewayCrdValidator } from './crd-validators.js';

/**
 * The bundled CRDs of an Envoy Gateway release (templates/gateway/): the Gateway API standard
 * channel and Envoy Gateway's own, and validation of objects against them. A file is parsed and a
 * schema compiled only when an object of its kind is checked (the EnvoyProxy CRD alone is 1.4 MB;
 * the bundled CLI carries the files parsed and the schemas compiled by the build, see crd-validators.ts).
 */

const GATEWAY_API_GROUP = 'gateway.networking.k8s.io';
const parsed = new Map<string, KubeObject[]>();

/** The bundled CRD manifests of a release: Gateway API standard channel, then Envoy Gateway's own (path parts under templates/). */
export function bundledCrdFiles(v: BundledGatewayVersion): string[][] {
  const eg = bundledFiles(`gateway/${v.dir}/crds`).filter((f) => f.endsWith('.yaml'));
  return [['gateway', v.gatewayApiDir, 'standard-install.yaml'], ...eg.map((f) => ['gateway', v.dir, 'crds', f])];
}

function objectsOf(parts: string[]): KubeObject[] {
  const key = parts.join('/');
  let objects = parsed.get(key);
  if (!objects) parsed.set(key, (objects = readBundledObjects(...parts)));
  return objects;
}

/** The bundled CRD phase of a release as objects (every file parsed: about a second). */
export function bundledCrdObjects(v: BundledGatewayVersion): KubeObject[] {
  return bundledCrdFiles(v).flatMap(objectsOf);
}

/**
 * The CRD names of a release, read from the manifests' text without parsing them (a CRD document's
 * first `  name:` under `metadata:`). The test suite checks this against the parsed objects.
 */
export function bundledCrdNames(v: BundledGatewayVersion): string[] {
  const names: string[] = [];
  for (const parts of bundledCrdFiles(v)) {
    for (const doc of readBundledText(...parts).split(/^---\s*$/m)) {
      if (!/^kind: CustomResourceDefinition\s*$/m.test(doc)) continue;
      const m = /^metadata:\s*\n(?:(?: {2}| {4,}|#).*\n)*? {2}name: "?([^"\s]+)"?\s*$/m.exec(doc);
      if (m) names.push(m[1]);
    }
  }
  return names;
}

/** The files that may hold a kind's CRD: the Gateway API bundle for its group, else Envoy Gateway files named like the kind's plural. */
function candidateFiles(v: BundledGatewayVersion, group: string, kind: string): string[][] {
  const files = bundledCrdFiles(v);
  if (group === GATEWAY_API_GROUP) return files.slice(0, 1);
  const stem = `${group}_${kind.toLowerCase().replace(/y$/, '')}`;
  return files.slice(1).filter((p) => p[p.length - 1].startsWith(stem));
}

/** The schema of a `group/version/Kind` in a release's CRDs (undefined for other kinds). */
export function crdSchemaFor(v: BundledGatewayVersion, key: string): Schema | undefined {
  const m = /^(.+)\/([^/]+)\/([^/]+)$/.exec(key);
  if (!m) return undefined;
  for (const parts of candidateFiles(v, m[1], m[3])) {
    const crd = objectsOf(parts).find((o) => o.kind === 'CustomResourceDefinition' && crdSchemas(o).some(([k]) => k === key));
    const schema = crd && crdSchemas(crd).find(([k]) => k === key)?.[1];
    if (schema) return schema;
  }
  return undefined;
}

/** Validates the Gateway API / Envoy Gateway objects among `objects` against the release's CRDs (others come back as skipped). */
export function validateGatewayObjects(v: BundledGatewayVersion, objects: KubeObject[], what: string) {
  return validateCustomResources(objects, (key) => gatewayCrdValidator(v, key, () => crdSchemaFor(v, key)), what);
}
