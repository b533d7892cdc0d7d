// Rewrites the settings reference in docs/reference/settings.md between <!-- settings:begin --> and
// <!-- settings:end --> from the compiled settings table (run through `npm run docs`, which builds first).
import { readFileSync, writeFileSync } from 'node:fs';

const { settingsReference, replaceDocsBlock, SETTINGS_DOC } = await import(new URL('../dist/lib/settings/docs.js', import.meta.url));
const docUrl = new URL(`../${SETTINGS_DOC}`, import.meta.url);
const before = readFileSync(docUrl, 'utf8');
let after;
try {
  after = replaceDocsBlock(before, settingsReference());
} catch (err) {
  process.stderr.write(`settings-docs: ${err.message}; add the two marker lines where the reference belongs\n`);
  process.exit(1);
}
if (after !== before) writeFileSync(docUrl, after);
process.stdout.write(after === before ? `${SETTINGS_DOC} settings reference is up to date\n` : `${SETTINGS_DOC} settings reference updated\n`);
