/**
 * Names as a user can read them in a message: a key with a zero-width space (`mtu\u200b`), a
 * Cyrillic "е" in "dеmo" or a no-break space looks exactly like the right name when printed raw, so
 * "unknown setting; did you mean mtu?" about "mtu" made no sense. Characters that cannot be seen or
 * pass for Latin letters are shown as \uXXXX escapes: controls, format characters (zero-width,
 * bidi overrides), spaces other than " ", combining marks, Cyrillic, Greek, Armenian and Cherokee
 * letters, full-width forms. A plain "ä" is left as it is: it looks like what it is.
 */

const HIDDEN = /(?! )[\p{Cc}\p{Cf}\p{Z}\p{M}\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}\u{ff00}-\u{ffef}\p{Co}\p{Cn}]/gu;

/** `name` with every invisible or look-alike character escaped (\u200b, \u0435, \u00a0). */
export function visibleName(name: string): string {
  return name.replace(HIDDEN, (ch) => {
    const cp = ch.codePointAt(0)!;
    return cp > 0xffff ? `\\u{${cp.toString(16)}}` : `\\u${cp.toString(16).padStart(4, '0')}`;
  });
}

/** " (it holds \u200b: an invisible or look-alike character; retype the name)" when `name` has any, else "". */
export function hiddenNote(name: string): string {
  const found = [...new Set(name.match(HIDDEN) ?? [])];
  if (!found.length) return '';
  return ` (it holds ${found.map(visibleName).join(', ')}: ${found.length > 1 ? 'characters' : 'a character'} invisible or looking like another; retype the name)`;
}

// Control characters (C0 but tab and newline, DEL, C1) and the bidi controls that reorder what
// follows them on a terminal (U+202A–U+202E, U+2066–U+2069).
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/g;
const escapeChar = (ch: string) => `\\u${ch.codePointAt(0)!.toString(16).padStart(4, '0')}`;

/**
 * `text` safe to print on a terminal: every control character but newline and tab escaped as \uXXXX.
 * Names from the cloud or the cluster reach kaas's output; an escape sequence in a load balancer's
 * name moved the cursor, recoloured or retitled the user's terminal. Applied where text leaves kaas
 * (the logger, the command's text result, the error lines).
 */
export function printable(text: string): string {
  return text.replace(CONTROL, escapeChar);
}

/** `text` as one printable line: also newlines, carriage returns and tabs escaped (a name holding "\nhint: …" cannot fake a line). */
export function oneLine(text: string): string {
  return printable(text).replace(/[\n\r\t]/g, escapeChar);
}

/**
 * One printable line saying what was thrown, also when it is not an Error (a string, null, an object):
 * the first line of the message, and for a tool that failed the last line of what it said on stderr;
 * escaped as oneLine (a carriage return in a tool's answer cannot overwrite the line on a terminal).
 */
export function thrownLine(e: unknown): string {
  const m = e instanceof Error ? e.message : typeof e === 'string' ? e : e && typeof (e as { message?: unknown }).message === 'string' ? (e as { message: string }).message : String(e);
  const line = m.split('\n')[0].replace(/:$/, '');
  // A failed tool (exec/runner.ts ExecError; not imported: errors.ts imports this module, runner.ts errors.ts).
  const stderrTail = e instanceof Error ? (e as { stderrTail?: unknown }).stderrTail : undefined;
  const tail = typeof stderrTail === 'string' ? stderrTail.split('\n').filter(Boolean).at(-1) : undefined;
  return oneLine(tail && !line.includes(tail) ? `${line} (${tail})` : line);
}
