import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * Every temporary directory a test makes starts with this prefix (`kaas-home-…`, `kaas-fake-…`), so
 * that one left behind is recognisable under the system temp dir.
 */
export const TEMP_PREFIX = 'kaas-';

// Kept on the test file's global object: jest gives each test file its own, and the test environment
// (temp-environment.ts) reads it from outside the file's realm (Symbol.for is shared between realms).
const REGISTRY = Symbol.for('kaas.test.tempDirs');

function registry(g: object): Set<string> {
  const holder = g as { [REGISTRY]?: Set<string> };
  return (holder[REGISTRY] ??= new Set());
}

/**
 * A fresh, empty directory under the system temp dir (named `kaas-<name>XXXXXX`), removed with
 * everything in it when the test file ends, after its afterAll hooks (test/support/temp-environment.ts),
 * or by `removeTempDirs()` in scripts that run outside jest.
 */
export function tempDir(name = 'test-'): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), `${TEMP_PREFIX}${name.replace(/^kaas-/, '')}`));
  registry(globalThis).add(dir);
  return dir;
}

/** Removes every directory `tempDir` made under the global object `g` (a test file's, or this script's) and forgets them. */
export function removeTempDirs(g: object = globalThis): void {
  const dirs = registry(g);
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true, maxRetries: 3 });
  dirs.clear();
}
