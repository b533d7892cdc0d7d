// The single-file executable's parts (see build/release/release.mjs): its main script and its assets.
//
// Node 20's single executable application runs one CommonJS script whose require() knows only Node's
// built-in modules (https://nodejs.org/docs/latest-v20.x/api/single-executable-applications.html), so
// the CLI is bundled again as one CommonJS file, with the bundle's plugin (twins, generated modules,
// trims: build/bundle.mjs) and without chunks: every dynamic import() is inlined. The files the
// bundle reads beside itself (dist/bundle/data, dist/bundle/validators) and the package files kaas
// reads (settings/) become assets under the names lib/assets.ts reads them by.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { isBuiltin } from 'node:module';
import path from 'node:path';
import * as esbuild from 'esbuild';
import { CJS_OPTIONS, kaasPlugin, trimmedFormats } from '../bundle.mjs';
import { ROOT } from '../generate.mjs';

/** The package files kaas reads at run time (lib/assets.ts packageText), by their path in the package. */
export const PACKAGE_ASSETS = ['settings/example.yaml', 'settings/schema.json'];

/** The folders of dist/bundle/ whose files the bundle reads at run time (lib/assets.ts bundleText). */
const BUNDLE_ASSET_DIRS = ['data', 'validators'];

/**
 * `import.meta.url` has no meaning in a CommonJS script: the ES modules of kaas and its dependencies
 * (yargs's platform shim, yargs-parser) get the executable's own file URL instead, a file that is
 * there; kaas's own files come from the assets (lib/assets.ts), never from beside it.
 */
const IMPORT_META_URL = '__kaasImportMetaUrl';
/**
 * The script runs without an import() callback (Node 20: "A dynamic import callback was not
 * specified"): esbuild inlines every bundled module's import(), and the import() of Node's built-in
 * modules left in the script (kaas loads some lazily) becomes a require() with a namespace's shape.
 */
const IMPORT_BUILTIN = '__kaasImportBuiltin';
const BANNER = [
  `var ${IMPORT_META_URL} = require('node:url').pathToFileURL(process.execPath).href;`,
  `var ${IMPORT_BUILTIN} = (id) => Promise.resolve().then(() => { const m = require(id); return { ...m, default: m }; });`,
].join('\n');

/** The script with each import() of a built-in module replaced (see IMPORT_BUILTIN); any other import() is an error. */
function requireBuiltins(code) {
  const out = code.replace(/\bimport\((["'])([^"']+)\1\)/g, (call, _q, id) => (isBuiltin(id) ? `${IMPORT_BUILTIN}(${JSON.stringify(id)})` : call));
  const left = [...out.matchAll(/\bimport\((?!\))/g)].map((m) => out.slice(m.index, m.index + 60));
  if (left.length) throw new Error(`the executable's script still calls import(), which it cannot: ${left.join(' | ')}`);
  return out;
}

/** Bundles the CLI into one CommonJS file `outfile`, for the executable. */
export async function bundleMainScript(outfile) {
  const result = await esbuild.build({
    ...CJS_OPTIONS,
    entryPoints: ['cli/main.ts'],
    outfile,
    define: { 'import.meta.url': IMPORT_META_URL },
    banner: { js: BANNER },
    plugins: [kaasPlugin(await trimmedFormats())],
  });
  writeFileSync(outfile, requireBuiltins(readFileSync(outfile, 'utf8')));
  const unknown = Object.values(result.metafile.outputs).flatMap((o) => o.imports.filter((i) => i.external && !isBuiltin(i.path)));
  if (unknown.length) throw new Error(`the executable's script requires files at run time: ${unknown.map((i) => i.path).join(', ')}`);
  return result.metafile;
}

/** Every file under `dir`, as paths relative to it with '/' separators. */
function filesUnder(dir) {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((f) => statSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

/**
 * The executable's assets: asset name → file, from the built bundle (`bundleDir`) and the package.
 * The validators' V8 code caches (lib/code-files.ts) are for the building CPU: only its
 * executable gets them (`codeCache`); another CPU's would never read them.
 */
export function assetFiles({ codeCache }, bundleDir = path.join(ROOT, 'dist', 'bundle')) {
  const assets = {};
  for (const dir of BUNDLE_ASSET_DIRS) {
    for (const rel of filesUnder(path.join(bundleDir, dir))) {
      if (!codeCache && rel.endsWith('.v8cache')) continue;
      assets[`${dir}/${rel}`] = path.join(bundleDir, dir, rel);
    }
  }
  for (const rel of PACKAGE_ASSETS) assets[rel] = path.join(ROOT, rel);
  return assets;
}
