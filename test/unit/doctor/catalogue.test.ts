import { readFileSync } from 'node:fs';
import { DOCTOR_CHECKS } from '../../../lib/checks/catalogue.js';

/** The check catalogue of docs/troubleshooting.md is the code's: every check id with its severity, what and fix. */
describe('doctor check catalogue', () => {
  const doc = readFileSync('docs/troubleshooting.md', 'utf8');
  it.each(DOCTOR_CHECKS.map((c) => [c.id, c] as const))('%s is documented as declared', (_, c) => {
    expect(doc).toContain(`| \`${c.id}\` | ${c.severity} | ${c.needs.join(' + ')} | ${c.what} | ${c.fix} |`);
  });
  it('ids are unique and stable-looking (lower-case words with dashes)', () => {
    const ids = DOCTOR_CHECKS.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
  });
});
