import { readFileSync } from 'node:fs';
import { OperationError } from '../errors.js';
import { templatePath } from '../paths.js';
import { parseDocuments, type KubeObject } from './documents.js';

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
