import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { existsSync, readFileSync } from 'node:fs';

/**
 * The package root (where templates/ and package.json live), whether kaas runs from the
 * compiled dist/ tree, from a global install, or under jest.
 */
export function packageRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    if (existsSync(path.join(dir, 'package.json')) && existsSync(path.join(dir, 'templates'))) return dir;
    dir = path.dirname(dir);
  }
  throw new Error('kaas: cannot find its package root (templates/ missing)');
}

/** Absolute path of a file under templates/. */
export function templatePath(...parts: string[]): string {
  return path.join(packageRoot(), 'templates', ...parts);
}

/**
 * kaas's own version, from its package.json (the nearest one named "kaas" above this module, in the
 * tsc-built tree, the bundle and an installed package alike).
 */
export function kaasVersion(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
      if (pkg.name === 'kaas' && pkg.version) return pkg.version;
    }
    dir = path.dirname(dir);
  }
  return 'unknown';
}
