import stringWidth from 'string-width';
import { isOneColumnText, withFastPath } from '../../../build/shims/string-width.js';

/** The bundle's string-width fast path (build/shims/string-width.ts) agrees with string-width. */
describe('string-width fast path', () => {
  let fullCalls = 0;
  const fast = withFastPath(() => (text, options) => {
    fullCalls++;
    return stringWidth(text, options);
  });

  it('gives every one-column character the width string-width gives it, without calling string-width', () => {
    const fastChars: string[] = [];
    for (let cp = 0; cp < 0x3000; cp++) {
      const ch = String.fromCodePoint(cp);
      if (isOneColumnText(ch)) fastChars.push(ch);
    }
    expect(fastChars.length).toBeGreaterThan(700);
    const mismatches = fastChars.filter((ch) => fast(ch) !== stringWidth(ch)).map((ch) => ch.codePointAt(0)!.toString(16));
    expect(mismatches).toEqual([]);
    const before = fullCalls;
    const text = fastChars.join('');
    expect(fast(text)).toBe(stringWidth(text));
    expect(fullCalls).toBe(before);
  });

  it.each([
    ['escape codes', '\u001b[31mred\u001b[39m', 3],
    ['a combining mark', 'e\u0301', 1],
    ['a soft hyphen', 'a\u00adb', 2],
    ['East Asian text', '漢字', 4],
    ['an emoji', '👍', 2],
    ['a text character that is an emoji too', '©', 2],
    ['a zero-width space', 'a\u200bb', 2],
  ])('leaves %s to string-width', (_what, text, width) => {
    expect(isOneColumnText(text)).toBe(false);
    expect(fast(text)).toBe(width);
    expect(fast(text)).toBe(stringWidth(text));
  });
});
