import { isIp, parseCidr } from '../net/cidr.js';
import { expectation } from './schema.js';
import type { SettingDecl, SettingType } from './table.js';
import { validatorFor } from './validators.js';

/** Shows a value the way the user wrote it: strings quoted, the rest as YAML-ish JSON. */
export function show(value: unknown): string {
  return JSON.stringify(value) ?? String(value);
}

/** SCS wrote lists as one string: "[ 10.0.0.1/32, 192.0.2.0/24, ]" (trailing comma allowed). */
export function parseScsList(text: string): string[] {
  return text
    .trim()
    .replace(/^\[/, '')
    .replace(/\]$/, '')
    .split(',')
    .map((s) => s.trim().replace(/^["']|["']$/g, ''))
    .filter((s) => s !== '');
}

/**
 * Checks one value against its declaration, with the same JSON Schema that `settings schema`
 * publishes, and returns the problems as sentences (without the location prefix).
 * `path` is the full dotted path used in the message.
 */
export function checkValue(decl: SettingDecl, value: unknown, path: string): string[] {
  const validate = validatorFor(decl.type);
  if (validate(value) as boolean) return [];
  const t = decl.type;
  // Give CIDR and IP problems item by item, with the precise reason.
  if ((t.kind === 'cidrList' || t.kind === 'ipList') && Array.isArray(value)) {
    const out: string[] = [];
    value.forEach((item, i) => {
      if (typeof item !== 'string') out.push(`${path}[${i}]: ${show(item)} is not a string`);
      else if (t.kind === 'ipList' && !isIp(item)) out.push(`${path}[${i}]: ${show(item)} is not an IP address`);
      else if (t.kind === 'cidrList' && item === 'none' && t.allowNone && value.length > 1)
        out.push(`${path}[${i}]: "none" must be the only entry (it means internal access only)`);
      else if (t.kind === 'cidrList' && !(item === 'none' && t.allowNone)) {
        const c = parseCidr(item, t.bareIpAsHost);
        if ('error' in c) out.push(`${path}[${i}]: ${c.error}`);
      }
    });
    const dup = value.find((v, i) => value.indexOf(v) !== i);
    if (dup !== undefined) out.push(`${path}: ${show(dup)} is listed twice`);
    if (out.length) return out;
  }
  if (t.kind === 'cidr' && typeof value === 'string') {
    const c = parseCidr(value);
    if ('error' in c) return [`${path}: ${c.error}`];
  }
  return [`${path}: ${show(value)} is not ${expectation(t)}${booleanHint(t, value)}`];
}

/** The bash scripts treated anything but `true` as false; kaas says what it saw instead. */
export function booleanHint(t: SettingType, value: unknown): string {
  const boolish = t.kind === 'boolean' || t.kind === 'boolOrVersion' || (t.kind === 'enum' && t.values.includes(true));
  if (!boolish || typeof value !== 'string') return '';
  const v = value.trim().toLowerCase();
  if (v === 'true' || v === 'false') return ` (write ${v} without quotes or spaces)`;
  if (['yes', 'no', 'on', 'off', 'y', 'n', '1', '0'].includes(v)) return ` (write ${['yes', 'on', 'y', '1'].includes(v) ? 'true' : 'false'})`;
  return '';
}
