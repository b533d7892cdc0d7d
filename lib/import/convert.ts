import { parse as parseYaml } from 'yaml';
import { checkValue, parseScsList, show } from '../settings/check.js';
import { declOf, type SettingType } from '../settings/table.js';
import type { SettingKey } from '../settings/types.js';

/** One value as an SCS file wrote it, before kaas types it. */
export interface RawValue {
  /** The SCS name (clusterctl.yaml key, cloud.conf option, harbor-settings variable). */
  name: string;
  /** "clusterctl.yaml:12", for messages. */
  where: string;
  /** The parsed value: YAML-typed for clusterctl.yaml, always a string for INI and shell files. */
  value: unknown;
  /** The text as written (without quotes), to tell `True` from `true`. */
  text: string;
}

/** Why a key was not imported. */
export type DropCategory = 'secret' | 'derived' | 'unsupported' | 'unknown' | 'empty';

/** A key that was not imported, with the reason. Never carries the value (it may be a secret). */
export interface Dropped {
  name: string;
  where: string;
  category: DropCategory;
  reason: string;
}

/** A value whose type kaas changed on the way in ("true" → true, "[ a, b, ]" → [a, b]). */
export interface Conversion {
  name: string;
  key: SettingKey;
  from: string;
  to: unknown;
}

/** The outcome of typing one value: a value (maybe converted), "empty", or a problem sentence. */
export type Typed = { value: unknown; converted: boolean } | { empty: true } | { problem: string };

const BOOLISH = (t: SettingType) => t.kind === 'boolean' || t.kind === 'boolOrVersion' || (t.kind === 'enum' && t.values.includes(true));

/**
 * Types an SCS value for a kaas setting. Conversions happen only when unambiguous: the strings
 * "true"/"false" become booleans, digit strings integers, SCS list strings lists, SCS metadata
 * strings maps. `True`, `yes` and friends stay as they are and fail the check, because the SCS
 * scripts compared with the literal "true" and so treated them as false.
 */
export function typeValue(key: SettingKey, raw: RawValue): Typed {
  const decl = declOf(key);
  const t = decl.type;
  const v = raw.value;
  if (v === null || v === undefined || (typeof v === 'string' && v.trim() === '')) return { empty: true };
  let value: unknown = v;
  if (BOOLISH(t)) {
    if (typeof v === 'boolean' && raw.text !== String(v)) {
      return { problem: `${raw.where}: ${raw.name}: ${raw.text} is ambiguous: the SCS scripts compared with the literal "true", so they treated it as false; write true or false and import again` };
    }
    if (v === 'true' || v === 'false') value = v === 'true';
  }
  if (t.kind === 'integer' && typeof v === 'string' && /^\d+$/.test(v)) value = Number(v);
  if ((t.kind === 'string' || t.kind === 'version' || t.kind === 'cidr') && (typeof v === 'number' || typeof v === 'boolean')) value = raw.text;
  if ((t.kind === 'cidrList' || t.kind === 'ipList') && typeof v === 'string') {
    value = /^\s*\[/.test(v) ? parseScsList(v) : v.split(',').map((s) => s.trim()).filter(Boolean);
  }
  if (t.kind === 'map' && typeof v === 'string') {
    const parsed = parseFlowMap(v);
    if (parsed === undefined) return { problem: `${raw.where}: ${raw.name}: ${show(v)} is not a map like "{ key: 'value', }"` };
    value = parsed;
  }
  const bad = checkValue(decl, value, `${raw.name} (kaas: ${key})`);
  if (bad.length) return { problem: bad.map((b) => `${raw.where}: ${b}`).join('; ') };
  return { value, converted: JSON.stringify(value) !== JSON.stringify(v) };
}

/** SCS metadata strings are YAML flow maps with a trailing comma: "{ team: 'a', tier: 'b', }". */
function parseFlowMap(text: string): Record<string, unknown> | undefined {
  if (!/^\s*\{[\s\S]*\}\s*$/.test(text)) return undefined;
  try {
    const m = parseYaml(text) as unknown;
    if (!m || typeof m !== 'object' || Array.isArray(m)) return undefined;
    return Object.fromEntries(Object.entries(m).map(([k, x]) => [k, x === null ? '' : x]));
  } catch {
    return undefined;
  }
}

/**
 * Collects the imported values of one cluster: each setting once, with the SCS name it came
 * from; a second source for the same setting with another value is a conflict naming both.
 */
export class ImportCollector {
  readonly values: Partial<Record<SettingKey, unknown>> = {};
  readonly sources: Partial<Record<SettingKey, string>> = {};
  readonly dropped: Dropped[] = [];
  readonly conversions: Conversion[] = [];
  readonly problems: string[] = [];
  readonly notes: string[] = [];
  /** Said as warnings when importing (and kept in the report's notes). */
  readonly warnings: string[] = [];

  /** Types `raw` for `key` and keeps it, or records why not. */
  take(key: SettingKey, raw: RawValue): void {
    const typed = typeValue(key, raw);
    if ('problem' in typed) {
      this.problems.push(typed.problem);
      return;
    }
    if ('empty' in typed) {
      const d = declOf(key).default;
      this.drop(raw, 'empty', `empty; kaas uses ${key}'s default${d === undefined ? '' : ` (${show(d)})`}`);
      return;
    }
    if (typed.converted) this.conversions.push({ name: raw.name, key, from: raw.text, to: typed.value });
    this.set(key, typed.value, `${raw.name} (${raw.where})`);
  }

  /** Keeps a value kaas worked out itself (e.g. prefix from the keypair name). */
  set(key: SettingKey, value: unknown, source: string): void {
    if (key in this.values) {
      if (JSON.stringify(this.values[key]) !== JSON.stringify(value)) {
        this.problems.push(`${source} conflicts with ${this.sources[key]}: both set ${key} (${show(this.values[key])} vs ${show(value)}); remove one`);
      }
      return;
    }
    this.values[key] = value;
    this.sources[key] = source;
  }

  /** Records a key that is not imported. */
  drop(raw: Pick<RawValue, 'name' | 'where'>, category: DropCategory, reason: string): void {
    this.dropped.push({ name: raw.name, where: raw.where, category, reason });
  }
}
