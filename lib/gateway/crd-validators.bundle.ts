import { createRequire } from 'node:module';
import vm from 'node:vm';
import type { ValidateFunction } from 'ajv';
import { GATEWAY_VALIDATORS } from 'kaas-gen:gateway-validators';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import type { Schema } from '../render/crd-schema.js';
import { bundleText, inExecutable } from '../assets.js';

/**
 * Twin of crd-validators.ts in the bundled CLI: every kind of every bundled release was compiled by
 * the build into a file of its own (dist/bundle/validators/*.cjs, some megabytes each), loaded
 * synchronously when an object of that kind is first checked.
 */

const loaded = new Map<string, ValidateFunction>();

export function gatewayCrdValidator(v: BundledGatewayVersion, key: string, _schemaOf?: () => Schema | undefined): ValidateFunction | undefined {
  const id = `${v.version}/${key}`;
  const file = Object.hasOwn(GATEWAY_VALIDATORS, id) ? GATEWAY_VALIDATORS[id] : undefined;
  if (!file) return undefined;
  let fn = loaded.get(id);
  if (!fn) loaded.set(id, (fn = (loadValidator(file) as { default: ValidateFunction }).default));
  return fn;
}

/**
 * The module of a validator file: required from dist/bundle/validators/ (this module is bundled into
 * dist/bundle/chunks/, build/bundle.mjs checks it), or in the single-file executable run from its
 * asset validators/<file> as CommonJS (the files are self-contained: they require nothing).
 */
function loadValidator(file: string): unknown {
  if (!inExecutable()) return createRequire(import.meta.url)(`../validators/${file}`);
  const module = { exports: {} as unknown };
  const code = bundleText(`validators/${file}`, () => new URL('../', import.meta.url));
  vm.compileFunction(code, ['exports', 'module'], { filename: `kaas:validators/${file}` })(module.exports, module);
  return module.exports;
}
