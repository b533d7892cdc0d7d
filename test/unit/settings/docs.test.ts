import { currentDocsBlock, DOCS_BEGIN, DOCS_END, replaceDocsBlock, settingsReference } from '../../../lib/settings/docs.js';
import { envName, SETTINGS } from '../../../lib/settings/table.js';

describe('settings reference (docs/reference/settings.md; kept in sync by test/unit/docs/generated.test.ts)', () => {
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
});
