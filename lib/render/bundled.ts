import { readdirSync, readFileSync } from 'node:fs';
import { OperationError } from '../errors.js';
import { templatePath } from '../paths.js';
import { parseDocuments, type KubeObject } from './documents.js';
import { loadTemplate, type Template } from './engine.js';

/**
 * The data kaas ships under templates/: Handlebars templates and verbatim upstream manifests, read
 * and compiled when asked. The bundled CLI (npm run build → dist/bundle) replaces this module by its
 * twin bundled.bundle.ts, which serves the same data compiled and parsed at build time.
 */

/** The template templates/<rel> (e.g. "cluster/60-cluster.yaml.hbs"), compiled; errors name `rel`. */
export function bundledTemplate(rel: string): Template {
  return loadTemplate(templatePath(rel), rel);
}

/** The file names in templates/<dir>, sorted. */
export function bundledFiles(dir: string): string[] {
  return readdirSync(templatePath(dir)).sort();
}

/** The text of a bundled file under templates/ (an incomplete install is a clear error, exit 1). */
export function readBundledText(...parts: string[]): string {
  try {
    return readFileSync(templatePath(...parts), 'utf8');
  } catch (e) {
    throw new OperationError(`bundled file templates/${parts.join('/')} is missing: ${(e as Error).message}`, { hint: 'reinstall kaas: its templates/ folder is incomplete' });
  }
}

/** Reads a bundled upstream manifest under templates/ and checks every document in it. */
export function readBundledObjects(...parts: string[]): KubeObject[] {
  return parseDocuments(readBundledText(...parts), `templates/${parts.join('/')}`);
}
