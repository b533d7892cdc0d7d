import type vm from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { bundleBytes, bundleText } from '../assets.js';

/**
 * The CRD validators of the bundled CLI are files of their own (dist/bundle/validators/<file>.cjs,
 * self-contained CommonJS: they require nothing), one per kind: the Gateway API / Envoy Gateway kinds
 * (lib/gateway/crd-validators.bundle.ts) and the Cluster API / CAPO kinds
 * (lib/cluster/crd-validators.bundle.ts), compiled by the build (build/generate.mjs) and loaded when
 * their kind is first checked, each with the V8 code cache the build made for it
 * (<file>.<cpu>.v8cache, build/bundle.mjs cacheValidatorFiles). The build and this loader compile
 * through the same functions, so a cache is made from the very source it is used with.
 *
 * Why a cache: the validators are megabytes of code, compiled by V8 on their first call. The
 * EnvoyProxy validator (3.3 MB, one function) took ~120 ms to load and first run, ~20 ms with its
 * cache. A cache V8 refuses (another Node version, other V8 flags) costs nothing but its reading: the
 * source is then compiled as without one.
 */

/**
 * The name of a validator's code cache ends in the CPU that made it (process.arch): only that CPU
 * looks for it. V8 code is for one CPU, and V8 does not reliably refuse another's: Node's own SEA code
 * cache made on x86-64 crashed the arm64 executable at start (build/release/release.mjs).
 */
export function validatorCacheSuffix(arch: string = process.arch): string {
  return `.${arch}.v8cache`;
}

/**
 * node:vm, taken when a validator is first compiled: this module sits in the bundle's core chunk,
 * which every command loads, and most never check a CRD (a static import would be one more module at
 * every start, as for node:sea in lib/assets.ts).
 */
const vmModule = () => process.getBuiltinModule('node:vm') as typeof vm;

export function compileValidatorFile(code: string, filename: string, cachedData?: Buffer): vm.Script {
  return new (vmModule().Script)(`(function (exports, module) {${code}\n})`, { filename, cachedData });
}

/** Runs a compiled validator file: its module's default export. */
export function validatorOf(script: vm.Script, filename: string): ValidateFunction {
  const module = { exports: {} as { default?: ValidateFunction } };
  (script.runInThisContext() as (e: unknown, m: unknown) => void)(module.exports, module);
  if (typeof module.exports.default !== 'function') throw new Error(`${filename} exports no validator`);
  return module.exports.default;
}

const loaded = new Map<string, ValidateFunction>();

/**
 * The validator in dist/bundle/validators/<file> (this module is bundled into dist/bundle/chunks/,
 * build/bundle.mjs checks it), or in the single-file executable its asset validators/<file>; loaded
 * once.
 */
export function loadValidatorFile(file: string): ValidateFunction {
  let fn = loaded.get(file);
  if (!fn) {
    const root = () => new URL('../', import.meta.url);
    const filename = `kaas:validators/${file}`;
    const cache = bundleBytes(`validators/${file}${validatorCacheSuffix()}`, root);
    loaded.set(file, (fn = validatorOf(compileValidatorFile(bundleText(`validators/${file}`, root), filename, cache), filename)));
  }
  return fn;
}
