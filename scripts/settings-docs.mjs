// Rewrites the settings reference in README.md between <!-- settings:begin --> and <!-- settings:end -->
// from the compiled settings table (run through `npm run docs`, which builds first).
import { readFileSync, writeFileSync } from 'node:fs';

const { settingsReference, replaceDocsBlock } = await import(new URL('../dist/lib/settings/docs.js', import.meta.url));
const readmeUrl = new URL('../README.md', import.meta.url);
const before = readFileSync(readmeUrl, 'utf8');
let after;
try {
  after = replaceDocsBlock(before, settingsReference());
} catch (err) {
  process.stderr.write(`settings-docs: ${err.message}; add the two marker lines where the reference belongs\n`);
  process.exit(1);
}
if (after !== before) writeFileSync(readmeUrl, after);
process.stdout.write(after === before ? 'README.md settings reference is up to date\n' : 'README.md settings reference updated\n');
