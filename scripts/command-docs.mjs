// Writes docs/reference/commands/<command>.md (and README.md, the index) from the compiled yargs
// definitions (run through `npm run docs`, which builds first); removes pages of commands that are gone.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';

const { generatedCommandDocs } = await import(new URL('../dist/cli/command-docs.js', import.meta.url));
const { COMMAND_DOCS_DIR } = await import(new URL('../dist/lib/docs/command-pages.js', import.meta.url));
const dir = new URL(`../${COMMAND_DOCS_DIR}/`, import.meta.url);
mkdirSync(dir, { recursive: true });
const files = generatedCommandDocs();
let changed = 0;
for (const [name, text] of files) {
  const url = new URL(name, dir);
  let before;
  try {
    before = readFileSync(url, 'utf8');
  } catch {
    before = undefined;
  }
  if (before !== text) {
    writeFileSync(url, text);
    changed++;
  }
}
for (const name of readdirSync(dir)) {
  if (name.endsWith('.md') && !files.has(name)) {
    rmSync(new URL(name, dir));
    changed++;
  }
}
process.stdout.write(`${COMMAND_DOCS_DIR}: ${files.size} pages, ${changed} changed\n`);
