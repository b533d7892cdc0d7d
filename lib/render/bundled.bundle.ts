import { DATA, TEMPLATES } from 'kaas-gen:bundled';
import HandlebarsRuntime from 'handlebars/runtime.js';
import { bundleText } from '../assets.js';
import { OperationError } from '../errors.js';
import { rememberDocument, type KubeObject } from './documents.js';
import { HELPERS, makeTemplate, type Template } from './template.js';

/**
 * Twin of bundled.ts in the bundled CLI: the templates were precompiled and their variables listed
 * by the build (build/generate.mjs); only the small Handlebars runtime is loaded. The verbatim files
 * (upstream manifests, CRDs, licenses) are copied by the build to dist/bundle/data/, each manifest
 * with its documents parsed and checked beside it (<file>.objects.json) and each document as
 * stringifyDocuments writes it (<file>.documents.json), and read when asked: the
 * Gateway API and Envoy Gateway bundles are megabytes that only the gateway commands read.
 */

// The runtime is the full library minus its compiler: same create/registerHelper/template API.
const hb = (HandlebarsRuntime as unknown as typeof import('handlebars')).create();
for (const [name, fn] of Object.entries(HELPERS)) hb.registerHelper(name, fn);

// This module is bundled into dist/bundle/chunks/ (build/bundle.mjs checks it); the data is in
// dist/bundle/data/ (in the single-file executable: its assets data/…, see lib/assets.ts).
const bundleRoot = () => new URL('../', import.meta.url);

function missing(rel: string): never {
  throw new OperationError(`bundled file templates/${rel} is not in this build of kaas`, { hint: 'reinstall kaas: its bundle is incomplete' });
}

/** The data file `file` (default: templates/<rel> itself) of the bundled file templates/<rel>. */
function readData(rel: string, file = rel): string {
  if (!DATA.includes(rel)) missing(rel);
  try {
    return bundleText(`data/${file}`, bundleRoot);
  } catch (e) {
    throw new OperationError(`bundled file templates/${rel} is missing: ${(e as Error).message}`, { hint: 'reinstall kaas: its bundle is incomplete' });
  }
}

export function bundledTemplate(rel: string): Template {
  const t = Object.hasOwn(TEMPLATES, rel) ? TEMPLATES[rel] : missing(rel);
  return makeTemplate(rel, [...t.variables], hb.template(t.spec as never) as (vars: Record<string, unknown>) => string);
}

export function bundledFiles(dir: string): string[] {
  const prefix = `${dir.replace(/\/$/, '')}/`;
  return [...Object.keys(TEMPLATES), ...DATA].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/'))
    .map((k) => k.slice(prefix.length)).sort();
}

export function readBundledText(...parts: string[]): string {
  return readData(parts.join('/'));
}

export function readBundledObjects(...parts: string[]): KubeObject[] {
  const rel = parts.join('/');
  const json = readData(rel, `${rel}.objects.json`);
  const objects = JSON.parse(json) as KubeObject[];
  // The documents as stringifyDocuments gives them, for the objects nobody changes (most of a manifest).
  const texts = JSON.parse(readData(rel, `${rel}.documents.json`)) as string[];
  const copies = JSON.parse(json) as KubeObject[];
  objects.forEach((o, i) => rememberDocument(o, copies[i], texts[i]));
  return objects;
}
