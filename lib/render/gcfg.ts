/**
 * Reading gcfg, the INI dialect OCCM parses cloud.conf with (gopkg.in/gcfg.v1): `;`/`#` start a
 * comment anywhere outside double quotes, quoted parts keep spaces and unescape \" and \\, section
 * and variable names are case-insensitive, and booleans are true/yes/on/1 in any case.
 */

/** The value part of one `key = value` line, as gcfg reads it (comments dropped, quotes removed). */
export function gcfgValue(raw: string): string {
  let out = '';
  let quoted = false;
  let pendingSpace = '';
  for (let i = 0; i < raw.length; i++) {
    const c = raw[i];
    if (quoted) {
      if (c === '\\' && i + 1 < raw.length) out += raw[++i];
      else if (c === '"') quoted = false;
      else out += c;
      continue;
    }
    if (c === ';' || c === '#') break;
    if (c === '"') {
      out += pendingSpace;
      pendingSpace = '';
      quoted = true;
    } else if (c === ' ' || c === '\t') {
      if (out) pendingSpace += c;
    } else {
      out += pendingSpace + c;
      pendingSpace = '';
    }
  }
  return out;
}

/** A `[Section]` header line (a trailing comment allowed); the name as written, or undefined. */
export function gcfgSection(line: string): string | undefined {
  return /^\[\s*([^\]]+?)\s*\](?:\s*[;#].*)?$/.exec(line.trim())?.[1];
}

/** gcfg booleans (types.ParseBool): true, yes, on, 1 in any case. */
export const gcfgTrue = (v: string | undefined): boolean => v !== undefined && /^(true|yes|on|1)$/i.test(v.trim());
