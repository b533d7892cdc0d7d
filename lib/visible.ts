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
