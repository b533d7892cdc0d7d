import { isDeepStrictEqual } from 'node:util';
import { parseAllDocuments, stringify } from 'yaml';
import { RenderError } from './template.js';

/** A Kubernetes object as plain data, after parsing. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string>; [k: string]: unknown };
  [k: string]: unknown;
}

/** `kind/namespace/name` (namespace omitted for cluster-scoped objects), for errors and matching. */
export function objectKey(o: { kind: string; metadata: { name: string; namespace?: string } }): string {
  return [o.kind, o.metadata.namespace, o.metadata.name].filter(Boolean).join('/');
}

/**
 * Parses multi-document YAML and checks every document: YAML syntax, then apiVersion, kind and
 * metadata.name present as non-empty strings. Empty documents (a lone `---`) are dropped. Every
 * problem in every document is collected, in document order, into one RenderError naming `source`
 * and the document number.
 */
export function parseDocuments(text: string, source: string): KubeObject[] {
  const problems: string[] = [];
  const out: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, i) => {
    const where = `${source} document ${i + 1}`;
    if (doc.errors.length) {
      for (const e of doc.errors) problems.push(`${where}: ${e.message.split('\n')[0]}`);
      return;
    }
    const o = doc.toJS() as Record<string, unknown> | null;
    if (o === null) return; // an empty document
    if (typeof o !== 'object' || Array.isArray(o)) {
      problems.push(`${where}: is not a mapping`);
      return;
    }
    const meta = o.metadata as Record<string, unknown> | undefined;
    for (const [key, v] of [['apiVersion', o.apiVersion], ['kind', o.kind], ['metadata.name', meta?.name]] as const) {
      if (typeof v !== 'string' || v === '') problems.push(`${where}${typeof o.kind === 'string' ? ` (${o.kind})` : ''}: ${key} is missing`);
    }
    out.push(o as KubeObject);
  });
  if (problems.length) throw new RenderError(`${source} does not hold valid Kubernetes objects`, problems);
  return out;
}

/** One document of stringifyDocuments. */
export function stringifyDocument(o: unknown): string {
  return `---\n${stringify(o, { lineWidth: 0, aliasDuplicateObjects: false })}`;
}

/** Documents stringifyDocument gave for an object, and a copy of that object as it was then. */
const known = new WeakMap<object, { as: unknown; text: string }>();

/**
 * Records `text` = stringifyDocument(as) for `o`, an object deep-equal to `as`: the bundled CLI
 * ships its upstream manifests with their documents stringified at build time (bundled.bundle.ts).
 */
export function rememberDocument(o: object, as: unknown, text: string): void {
  known.set(o, { as, text });
}

/**
 * Multi-document YAML of the objects, each starting with `---` (what `kubectl apply -f -` reads). An
 * object with a remembered document that it still deep-equals is not stringified again: same text.
 */
export function stringifyDocuments(objects: unknown[]): string {
  return objects.map((o) => {
    const k = known.get(o as object); // undefined for anything never remembered, primitives included
    return k && isDeepStrictEqual(o, k.as) ? k.text : stringifyDocument(o);
  }).join('');
}

/** Finds one object by kind and name (and namespace when given); undefined when absent. */
export function findObject(objects: KubeObject[], kind: string, name: string, namespace?: string): KubeObject | undefined {
  return objects.find((o) => o.kind === kind && o.metadata.name === name && (namespace === undefined || o.metadata.namespace === namespace));
}

const isMap = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Strategic-merge-lite, as kustomize applies a patch of maps: maps merge key by key, a `null` map in
 * the target (ingress-nginx v1.14+ ships ConfigMap `data: null`) becomes the patch's map, scalars
 * and lists from the patch replace. Returns a new object; inputs are not changed.
 */
export function mergePatch<T>(target: T, patch: unknown): T {
  if (!isMap(patch)) return patch as T;
  const base: Record<string, unknown> = isMap(target) ? { ...target } : {};
  for (const [k, v] of Object.entries(patch)) base[k] = isMap(v) ? mergePatch(base[k], v) : v;
  return base as T;
}

/**
 * Applies patch objects (each naming its target by kind, metadata.name and metadata.namespace) to
 * a list of objects. A patch whose target is absent is an error: the upstream manifest changed.
 */
export function applyPatches(objects: KubeObject[], patches: KubeObject[], source: string): KubeObject[] {
  const missing = patches.filter((p) => !findObject(objects, p.kind, p.metadata.name, p.metadata.namespace)).map(objectKey);
  if (missing.length) throw new RenderError(`${source}: patch targets not found in the manifest`, missing.sort());
  return objects.map((o) =>
    patches.filter((p) => p.kind === o.kind && p.metadata.name === o.metadata.name && p.metadata.namespace === o.metadata.namespace)
      .reduce<KubeObject>((acc, p) => mergePatch(acc, p), o),
  );
}
