import { readFileSync } from 'node:fs';
import path from 'node:path';
import { packageRoot } from './paths.js';

/**
 * The files kaas reads at run time from its own installation, wherever it runs from: the checkout's
 * tsc-built tree, the bundle (dist/bundle, the npm package) or the single-file executable
 * (`npm run release`, build/release/), which carries them as assets of Node's single executable
 * application (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html).
 *
 * Asset names: a file of the bundle under its path in dist/bundle/ (`data/help.txt`,
 * `data/crds/…`, `validators/…`); a file of the package under its path in the package
 * (`settings/example.yaml`, `settings/schema.json`). build/release/assets.mjs embeds them so.
 */

type Sea = { isSea(): boolean; getAsset(key: string, encoding: string): string; getAsset(key: string): ArrayBuffer };

let sea: Sea | undefined | null;

/** node:sea, or null where this Node has none (a static import would also be one more module for jest). */
function seaModule(): Sea | null {
  if (sea === undefined) sea = (process.getBuiltinModule?.('node:sea') as Sea | undefined) ?? null;
  return sea;
}

/** Whether kaas runs as the single-file executable (its files are then assets, not files). */
export function inExecutable(): boolean {
  return seaModule()?.isSea() ?? false;
}

/**
 * The text of the bundle's file `rel` (its path under dist/bundle/): the executable's asset, else
 * the file under `bundleRoot()` (the caller's dist/bundle/ URL, computed only when there are files).
 */
export function bundleText(rel: string, bundleRoot: () => URL): string {
  if (inExecutable()) return seaModule()!.getAsset(rel, 'utf8');
  return readFileSync(new URL(rel, bundleRoot()), 'utf8');
}

/**
 * The bytes of the bundle's file `rel` as bundleText finds it, or undefined where this build has no
 * such file (an optional file: a cache).
 */
export function bundleBytes(rel: string, bundleRoot: () => URL): Buffer | undefined {
  try {
    return inExecutable() ? Buffer.from(seaModule()!.getAsset(rel)) : readFileSync(new URL(rel, bundleRoot()));
  } catch {
    return undefined;
  }
}

/** The text of the package's file `rel` (its path in the package, e.g. settings/example.yaml). */
export function packageText(rel: string): string {
  if (inExecutable()) return seaModule()!.getAsset(rel, 'utf8');
  return readFileSync(path.join(packageRoot(), rel), 'utf8');
}

/**
 * Where a package file is for a reader outside kaas (an editor's `$schema` line): its path in the
 * installed package, or undefined for the executable, which has no such file.
 */
export function packageFilePath(rel: string): string | undefined {
  return inExecutable() ? undefined : path.join(packageRoot(), rel);
}
