import fullStringWidth from 'string-width';

/**
 * string-width with a fast path, for the bundled CLI (yargs lays out --help with it): text made only
 * of characters that are one column wide — printable ASCII, Latin-1 and the rest of the alphabetic
 * blocks below the combining marks, general punctuation — is as wide as it is long. Anything else
 * (escape codes, combining marks, emoji, East Asian text) goes to string-width itself. Saves the
 * ~15 ms string-width spends on its first call (Intl.Segmenter, the emoji expression).
 * test/unit/build/string-width.test.ts checks every such character against string-width.
 */
const ONE_COLUMN = /^[\x20-\x7e\u00a0-\u00ac\u00ae-\u02ff\u2010-\u2027\u2030-\u205e]*$/;

type Options = Parameters<typeof fullStringWidth>[1];

export default function stringWidth(text: string, options?: Options): number {
  return typeof text === 'string' && ONE_COLUMN.test(text) ? text.length : fullStringWidth(text, options);
}

/** Whether `text` takes the fast path (for the test). */
export function isOneColumnText(text: string): boolean {
  return ONE_COLUMN.test(text);
}
