import vm from 'node:vm';
import type { ValidateFunction } from 'ajv';

/**
 * A bundled gateway validator (dist/bundle/validators/<file>.cjs, self-contained CommonJS: it requires
 * nothing) as a script, and the V8 code cache the build makes for it (<file>.v8cache, see
 * build/bundle.mjs cacheGatewayValidators). The build and lib/gateway/crd-validators.bundle.ts both
 * compile through here, so the cache is made from the very source it is used with.
 *
 * Why a cache: the EnvoyProxy validator is 3.3 MB, one function that V8 compiles on its first call;
 * loading and first running it took ~120 ms of every create-cluster and apply-gateway, ~20 ms with
 * its cache. A cache V8 rejects (another Node version, other V8 flags) costs nothing but its reading:
 * the source is then compiled as without one.
 */
export const VALIDATOR_CACHE_SUFFIX = '.v8cache';

export function compileValidator(code: string, filename: string, cachedData?: Buffer): vm.Script {
  return new vm.Script(`(function (exports, module) {${code}\n})`, { filename, cachedData });
}

/** Runs a compiled validator file: its module's default export. */
export function validatorOf(script: vm.Script, filename: string): ValidateFunction {
  const module = { exports: {} as { default?: ValidateFunction } };
  (script.runInThisContext() as (e: unknown, m: unknown) => void)(module.exports, module);
  if (typeof module.exports.default !== 'function') throw new Error(`${filename} exports no validator`);
  return module.exports.default;
}
