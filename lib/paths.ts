import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';

/** The nearest package.json named "kaas" above this module, read once. */
let found: { dir: string; version?: string } | undefined;

function kaasPackage(): { dir: string; version?: string } {
  if (found) return found;
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'kaas') return (found = { dir, version: pkg.version });
    }
    dir = path.dirname(dir);
  }
  throw new Error('kaas: cannot find its package root (package.json of kaas missing)');
}

/**
 * The package root (where package.json, settings/ and, in a checkout, templates/ live), whether kaas
 * runs from the compiled dist/ tree, from the bundle (dist/bundle, which carries its templates
 * itself), from an installed package, or under jest.
 */
export function packageRoot(): string {
  return kaasPackage().dir;
}

/** Absolute path of a file under templates/ (read by the tsc-built tree; the bundle carries its own). */
export function templatePath(...parts: string[]): string {
  return path.join(packageRoot(), 'templates', ...parts);
}

/** kaas's own version, from its package.json (the tsc-built tree, the bundle and an installed package alike). */
export function kaasVersion(): string {
  return kaasPackage().version ?? 'unknown';
}
