import { readFileSync } from 'node:fs';
import path from 'node:path';
import { currentDocsBlock, DOCS_BEGIN, DOCS_END, replaceDocsBlock, settingsReference } from '../../../lib/settings/docs.js';
import { envName, SETTINGS } from '../../../lib/settings/table.js';
import { ROOT } from '../../support/cli.js';

const REGENERATE = 'run `npm run docs` to regenerate the settings reference in README.md';

describe('README settings reference', () => {
  it('has one row per setting with its env var and legacy names', () => {
    const ref = settingsReference();
    for (const d of SETTINGS) {
      const row = ref.split('\n').find((l) => l.startsWith(`| \`${d.key}\` |`));
      expect(row).toBeDefined();
      expect(row).toContain(`\`${envName(d.key)}\``);
      for (const l of d.legacy ?? []) expect(row).toContain(`\`${l}\``);
    }
  });

  it('replaces only the block between the markers', () => {
    const readme = `# kaas\nintro\n${DOCS_BEGIN}\nold\n${DOCS_END}\nafter\n`;
    const out = replaceDocsBlock(readme, 'NEW');
    expect(out).toBe(`# kaas\nintro\n${DOCS_BEGIN}\nNEW\n${DOCS_END}\nafter\n`);
    expect(currentDocsBlock(out)).toBe('NEW');
    expect(() => replaceDocsBlock('# no markers', 'x')).toThrow(/no <!-- settings:begin -->/);
  });

  it(`README.md is in sync with the settings table (${REGENERATE})`, () => {
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    const block = currentDocsBlock(readme);
    if (block === undefined) throw new Error(`README.md lacks the ${DOCS_BEGIN} / ${DOCS_END} markers; add them, then ${REGENERATE}`);
    if (block !== settingsReference()) throw new Error(`README.md's settings reference is out of date; ${REGENERATE}`);
  });
});
