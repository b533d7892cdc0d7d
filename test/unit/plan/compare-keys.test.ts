import { describe, expect, it } from '@jest/globals';
import { compareKeys } from '../../../lib/plan/occm-loadbalancer.js';

/** Every string of up to `n` characters of `alphabet`. */
function allStrings(alphabet: string, n: number): string[] {
  let level = [''];
  const out = [''];
  for (let i = 0; i < n; i++) {
    level = level.flatMap((s) => [...alphabet].map((c) => s + c));
    out.push(...level);
  }
  return out;
}

describe('compareKeys (cloud.conf key order)', () => {
  // Lower-case letters, digits and '-' in every position, of every length up to 3.
  const keys = allStrings('az09-m5', 3);

  it('orders plain keys exactly as localeCompare does', () => {
    const byLocale = [...keys].sort((a, b) => a.localeCompare(b));
    expect([...keys].sort(compareKeys)).toEqual(byLocale);
  });

  it.each([
    ['lb-method', 'lb-provider'], ['enable-ingress-hostname', 'enabled'], ['a-b', 'ab'], ['ab', 'ab-c'], ['x9', 'x-9'],
  ])('%s against %s: the sign localeCompare gives', (a, b) => {
    expect(Math.sign(compareKeys(a, b))).toBe(Math.sign(a.localeCompare(b)));
    expect(Math.sign(compareKeys(b, a))).toBe(Math.sign(b.localeCompare(a)));
  });

  it('leaves other keys to localeCompare (upper case, underscores)', () => {
    for (const [a, b] of [['B', 'a'], ['a_b', 'a-b'], ['Z', 'z']]) expect(Math.sign(compareKeys(a, b))).toBe(Math.sign(a.localeCompare(b)));
  });
});
