import type fs from 'node:fs';
import type url from 'node:url';
import type vm from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { bundleBytes, bundleText } from './assets.js';

/**
 * The code files of the bundled CLI: self-contained CommonJS files that the bundle compiles with
 * node:vm, each with the V8 code cache the build made for it (<file>.<cpu>.v8cache), where Node 20
 * can cache no ES module:
 *
 * - the CRD validators (dist/bundle/validators/<file>.cjs), one per kind: the Gateway API / Envoy
 *   Gateway kinds (lib/gateway/crd-validators.bundle.ts) and the Cluster API / CAPO kinds
 *   (lib/cluster/crd-validators.bundle.ts), compiled by build/generate.mjs and loaded when their kind is
 *   first checked. The cache is made after one validation (build/bundle.mjs cacheValidatorFiles).
 * - the libraries every command starts with and axios, on every cloud command's way to its first
 *   request (dist/bundle/vendor/<package>.cjs: yaml, yargs, axios), which the bundle's ES modules
 *   import through a module of the build (build/bundle.mjs VENDOR). Their cache is written by the
 *   build's own runs of the bundled CLI (KAAS_BUILD_CODE_CACHES), so that it holds the functions a
 *   command runs, not only the top level.
 *
 * The build and this loader compile through the same functions, so a cache is made from the very
 * source it is used with. Why a cache: V8 compiles a function when it is first called. The EnvoyProxy
 * validator (3.3 MB, one function) took ~120 ms to load and first run, ~20 ms with its cache; yaml took
 * 19 ms to load, parse a settings file and print a manifest, 8.5 ms with its cache. A cache V8 refuses
 * (another Node version, other V8 flags) costs nothing but its reading: the source is then compiled as
 * without one.
 */

/**
 * The name of a code cache ends in the CPU that made it (process.arch): only that CPU looks for it.
 * V8 code is for one CPU, and V8 does not reliably refuse another's: Node's own SEA code cache made on
 * x86-64 crashed the arm64 executable at start (build/release/release.mjs).
 */
export function codeCacheSuffix(arch: string = process.arch): string {
  return `.${arch}.v8cache`;
}

/**
 * node:vm, taken when a code file is first compiled: nearly every command loads this module (for yaml),
 * and a static import would be one more module at its start (as for node:sea in lib/assets.ts).
 */
const vmModule = () => process.getBuiltinModule('node:vm') as typeof vm;

/** What the ES modules bundled into a code file read for `import.meta.url` (the build's esbuild `define`, build/bundle.mjs). */
export const IMPORT_META_URL = '__kaasImportMetaUrl';

/**
 * Compiles a code file. Its top level sees CommonJS's `exports` and `module`, a `require` of Node's
 * built-in modules only, and IMPORT_META_URL.
 */
export function compileCodeFile(code: string, filename: string, cachedData?: Buffer): vm.Script {
  return new (vmModule().Script)(`(function (exports, module, require, ${IMPORT_META_URL}) {${code}\n})`, { filename, cachedData });
}

/** The files are bundled with everything they need except Node's own modules. */
function requireBuiltin(id: string): unknown {
  const m = process.getBuiltinModule(id);
  if (m === undefined) throw new Error(`a bundled code file required ${id}, which is not a built-in module of Node (the build bundles everything else into the file)`);
  return m;
}

/** Runs a compiled code file: its module.exports. */
export function runCodeFile(script: vm.Script, importMetaUrl: string): Record<string, unknown> {
  const module = { exports: {} as Record<string, unknown> };
  (script.runInThisContext() as (...args: unknown[]) => void)(module.exports, module, requireBuiltin, importMetaUrl);
  return module.exports;
}

/** Runs a compiled validator file: its module's default export. */
export function validatorOf(script: vm.Script, filename: string): ValidateFunction {
  const fn = runCodeFile(script, import.meta.url).default;
  if (typeof fn !== 'function') throw new Error(`${filename} exports no validator`);
  return fn as ValidateFunction;
}

/** dist/bundle/ (this module is bundled into dist/bundle/chunks/, build/bundle.mjs checks it). */
const bundleRoot = () => new URL('../', import.meta.url);

/** The bundle's code file `rel` (its path under dist/bundle/, an asset in the executable), compiled with its cache. */
function compileBundled(rel: string): vm.Script {
  return compileCodeFile(bundleText(rel, bundleRoot), `kaas:${rel}`, bundleBytes(`${rel}${codeCacheSuffix()}`, bundleRoot));
}

const validators = new Map<string, ValidateFunction>();

/** The validator in dist/bundle/validators/<file> (in the single-file executable its asset validators/<file>); loaded once. */
export function loadValidatorFile(file: string): ValidateFunction {
  let fn = validators.get(file);
  if (!fn) validators.set(file, (fn = validatorOf(compileBundled(`validators/${file}`), `kaas:validators/${file}`)));
  return fn;
}

/**
 * The library `name` from dist/bundle/vendor/<name>.cjs: its module.exports (the ES module's names,
 * and `default`). Its bundled ES modules get this chunk's URL as import.meta.url, the folder the
 * library's own chunk was in (yargs looks for package.json from there upwards).
 *
 * KAAS_BUILD_CODE_CACHES=1 is for the build (build/bundle.mjs cacheVendorFiles): the run writes each
 * library's code cache when it exits, made from what the run compiled (and from the cache it started
 * with, so that the build's runs add up).
 */
export function loadVendorFile(name: string): Record<string, unknown> {
  const rel = `vendor/${name}.cjs`;
  const script = compileBundled(rel);
  if (process.env.KAAS_BUILD_CODE_CACHES === '1') {
    // node:fs and node:url taken here, for the build's runs only (as node:vm above).
    const { writeFileSync } = process.getBuiltinModule('node:fs') as typeof fs;
    const { fileURLToPath } = process.getBuiltinModule('node:url') as typeof url;
    process.once('exit', () => writeFileSync(fileURLToPath(new URL(`${rel}${codeCacheSuffix()}`, bundleRoot())), script.createCachedData()));
  }
  return runCodeFile(script, import.meta.url);
}
