import type fullStringWidth from 'string-width';

/**
 * string-width with a fast path, for the bundled CLI (yargs lays out --help with it): text made only
 * of characters that are one column wide — printable ASCII, Latin-1 and the rest of the alphabetic
 * blocks below the combining marks, general punctuation — is as wide as it is long. Anything else
 * (escape codes, combining marks, emoji, East Asian text) goes to string-width itself, loaded on that
 * first use: merely loading it costs ~15 ms (Intl.Segmenter, Unicode property expressions).
 * test/unit/build/string-width.test.ts checks every fast-path character against string-width.
 */
// Without the characters that are emoji as well (© ® ‼ ⁉), which string-width counts as two columns.
const ONE_COLUMN = /^[\x20-\x7e\u00a0-\u00a8\u00aa-\u00ac\u00af-\u02ff\u2010-\u2027\u2030-\u203b\u203d-\u2048\u204a-\u205e]*$/;

type StringWidth = typeof fullStringWidth;

/** Whether `text` takes the fast path. */
export function isOneColumnText(text: string): boolean {
  return ONE_COLUMN.test(text);
}

/** string-width with the fast path; `loadFull` gives string-width itself, called once, when first needed. */
export function withFastPath(loadFull: () => StringWidth): StringWidth {
  let full: StringWidth | undefined;
  return (text, options) => {
    if (typeof text === 'string' && ONE_COLUMN.test(text)) return text.length;
    full ??= loadFull();
    return full(text, options);
  };
}

// In the bundle, esbuild turns this require() into a lazily initialised copy of string-width.
export default withFastPath(() => (require('string-width') as { default: StringWidth }).default);
