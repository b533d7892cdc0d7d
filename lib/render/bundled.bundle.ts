import { MANIFESTS, TEMPLATES } from 'kaas-gen:bundled';
import HandlebarsRuntime from 'handlebars/runtime.js';
import { OperationError } from '../errors.js';
import type { KubeObject } from './documents.js';
import { HELPERS, makeTemplate, type Template } from './template.js';

/**
 * Twin of bundled.ts in the bundled CLI: the templates were precompiled and their variables listed,
 * and the manifests parsed and checked, by the build (build/generate.mjs); only the small Handlebars
 * runtime is loaded.
 */

// The runtime is the full library minus its compiler: same create/registerHelper/template API.
const hb = (HandlebarsRuntime as unknown as typeof import('handlebars')).create();
for (const [name, fn] of Object.entries(HELPERS)) hb.registerHelper(name, fn);

function missing(what: string, rel: string): never {
  throw new OperationError(`${what} ${rel} is not in this build of kaas`, { hint: 'reinstall kaas: its bundle is incomplete' });
}

export function bundledTemplate(rel: string): Template {
  const t = TEMPLATES[rel] ?? missing('template', rel);
  return makeTemplate(rel, [...t.variables], hb.template(t.spec as never) as (vars: Record<string, unknown>) => string);
}

export function bundledFiles(dir: string): string[] {
  const prefix = `${dir.replace(/\/$/, '')}/`;
  return [...Object.keys(TEMPLATES), ...Object.keys(MANIFESTS)].filter((k) => k.startsWith(prefix) && !k.slice(prefix.length).includes('/'))
    .map((k) => k.slice(prefix.length)).sort();
}

export function bundledManifest(rel: string): KubeObject[] {
  return JSON.parse(MANIFESTS[rel] ?? missing('manifest', rel)) as KubeObject[];
}
