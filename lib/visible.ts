/**
 * Names as a user can read them in a message: a key with a zero-width space (`mtu\u200b`), a
 * Cyrillic "е" in "dеmo" or a no-break space looks exactly like the right name when printed raw, so
 * "unknown setting; did you mean mtu?" about "mtu" made no sense. Every character outside printable
 * ASCII is shown as a \uXXXX escape, and `note` says which characters those are.
 */

const HIDDEN = /[^\x21-\x7e ]/gu;

/** `name` with every character outside printable ASCII escaped (\u200b, \u0435, \u{1f600}). */
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
  return ` (it holds ${found.map(visibleName).join(', ')}: ${found.length > 1 ? 'characters' : 'a character'} outside plain ASCII, invisible or looking like another; retype the name)`;
}
