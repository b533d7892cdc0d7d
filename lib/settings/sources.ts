import { parse as parseYaml } from 'yaml';
import { checkValue, parseScsList } from './check.js';
import type { Layer } from './file.js';
import { didYouMean } from './file.js';
import { declOf, isSettingKey, SETTINGS, type SettingType } from './table.js';
import type { Origin, SettingKey } from './types.js';
import { hiddenNote, visibleName } from '../visible.js';

/** The built-in defaults, as the lowest layer. */
export function defaultsLayer(): Layer {
  const layer: Layer = { values: {}, origins: {} };
  for (const d of SETTINGS) {
    if (d.default === undefined) continue;
    layer.values[d.key] = structuredClone(d.default);
    layer.origins[d.key] = { kind: 'default' };
  }
  return layer;
}

/**
 * Turns a string from an env var or `--set` into a typed value for the declaration, strictly:
 * only `true`/`false` are booleans; lists are "[a, b]" or "a,b"; maps are YAML/JSON flow maps.
 * A string that does not convert stays a string, and the check reports it.
 */
export function coerceString(type: SettingType, text: string): unknown {
  switch (type.kind) {
    case 'boolean':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'enum':
    case 'boolOrVersion':
      return text === 'true' ? true : text === 'false' ? false : text;
    case 'integer':
      return /^-?\d+$/.test(text) ? Number(text) : text;
    case 'cidrList':
    case 'ipList':
      if (text.trim() === '') return [];
      return /^\s*\[/.test(text) ? parseScsList(text) : text.split(',').map((s) => s.trim()).filter(Boolean);
    case 'registryMirrors':
    case 'map': {
      if (text.trim() === '') return type.kind === 'map' ? {} : [];
      try {
        return parseYaml(text);
      } catch {
        return text;
      }
    }
    default:
      return text;
  }
}

/** Global KAAS_* variables that are CLI options, not settings. */
const NOT_SETTINGS = new Set(['KAAS_ENV', 'KAAS_SETTINGS_DIR', 'KAAS_CLUSTER']);

/** Reads KAAS_<KEY> variables. Unknown KAAS_* names are reported as warnings with a suggestion. */
export function envLayer(environ: NodeJS.ProcessEnv): { layer: Layer; problems: string[]; warnings: string[] } {
  const layer: Layer = { values: {}, origins: {} };
  const problems: string[] = [];
  const warnings: string[] = [];
  for (const [name, text] of Object.entries(environ)) {
    if (!name.startsWith('KAAS_') || text === undefined || NOT_SETTINGS.has(name)) continue;
    const key = name.slice(5).toLowerCase();
    if (!isSettingKey(key)) {
      warnings.push(`environment variable ${visibleName(name)} is not a kaas setting${didYouMean(key).replace(/ (\S+)\?$/, (_, k: string) => ` KAAS_${k.toUpperCase()}?`)}`);
      continue;
    }
    addString(layer, problems, key, text, `environment variable ${name}`, { kind: 'env', name });
  }
  return { layer, problems, warnings };
}

/** Reads `--set key=value` flags (and typed flags like --cloud) as the top layer. */
export function flagLayer(sets: string[], typed: Partial<Record<SettingKey, unknown>> = {}): { layer: Layer; problems: string[] } {
  const layer: Layer = { values: {}, origins: {} };
  const problems: string[] = [];
  for (const s of sets) {
    const eq = s.indexOf('=');
    const key = eq > 0 ? s.slice(0, eq).trim() : '';
    if (!key) {
      problems.push(`--set ${s}: expected KEY=VALUE, e.g. --set use_ovn_lb_provider=auto`);
      continue;
    }
    if (!isSettingKey(key)) {
      problems.push(`--set ${visibleName(key)}: unknown setting${didYouMean(key)}${hiddenNote(key)}`);
      continue;
    }
    addString(layer, problems, key, s.slice(eq + 1), `--set ${key}`, { kind: 'flag', name: `--set ${key}` });
  }
  for (const [key, value] of Object.entries(typed)) {
    if (value === undefined || !isSettingKey(key)) continue;
    const bad = checkValue(declOf(key), value, `--${key.replace(/_/g, '-')}`);
    if (bad.length) problems.push(...bad);
    else {
      layer.values[key] = value;
      layer.origins[key] = { kind: 'flag', name: `--${key.replace(/_/g, '-')}` };
    }
  }
  return { layer, problems };
}

function addString(layer: Layer, problems: string[], key: SettingKey, text: string, where: string, origin: Origin) {
  const decl = declOf(key);
  const value = coerceString(decl.type, text);
  const bad = checkValue(decl, value, where);
  if (bad.length) {
    problems.push(...bad);
    return;
  }
  layer.values[key] = value;
  layer.origins[key] = origin;
}

