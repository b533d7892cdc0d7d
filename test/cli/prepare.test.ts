import { spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT, tempDir } from '../support/cli.js';

// `prepare` (npm ci, and npx's install of the checkout) rebuilds only when the sources differ from
// those of the build in dist/: build/inputs.mjs hashes them, build/bundle.mjs records the hash.

const { inputsHash } = (await import(pathToFileURL(path.join(ROOT, 'build', 'inputs.mjs')).href)) as { inputsHash: (root?: string) => string };

function checkout(): string {
  const root = tempDir('kaas-inputs-');
  for (const d of ['cli', 'lib/render', 'templates', 'test']) mkdirSync(path.join(root, d), { recursive: true });
  writeFileSync(path.join(root, 'package.json'), '{ "name": "kaas" }\n');
  writeFileSync(path.join(root, 'cli', 'main.ts'), 'export {};\n');
  writeFileSync(path.join(root, 'lib', 'render', 'engine.ts'), 'export const x = 1;\n');
  writeFileSync(path.join(root, 'templates', 'cloud.conf.hbs'), '[Global]\n');
  return root;
}

describe('the inputs of a build', () => {
  it.each([
    ['a source edited', (r: string) => writeFileSync(path.join(r, 'lib', 'render', 'engine.ts'), 'export const x = 2;\n')],
    ['a template edited', (r: string) => writeFileSync(path.join(r, 'templates', 'cloud.conf.hbs'), '[Global]\nx=1\n')],
    ['a file added', (r: string) => writeFileSync(path.join(r, 'test', 'new.test.ts'), '\n')],
    ['a file renamed (same content)', (r: string) => { writeFileSync(path.join(r, 'cli', 'other.ts'), 'export {};\n'); writeFileSync(path.join(r, 'cli', 'main.ts'), ''); }],
    ['the lock file appearing', (r: string) => writeFileSync(path.join(r, 'package-lock.json'), '{}\n')],
    ['package.json edited', (r: string) => writeFileSync(path.join(r, 'package.json'), '{ "name": "kaas", "version": "1.0.0" }\n')],
  ])('change with %s', (_, change) => {
    const root = checkout();
    const before = inputsHash(root);
    change(root);
    expect(inputsHash(root)).not.toBe(before);
  });

  it.each([
    ['the same files written again', (r: string) => writeFileSync(path.join(r, 'cli', 'main.ts'), 'export {};\n')],
    ['a file outside the inputs (dist/, reports/, README.md)', (r: string) => { mkdirSync(path.join(r, 'dist')); writeFileSync(path.join(r, 'dist', 'x.js'), '1'); writeFileSync(path.join(r, 'README.md'), '#\n'); }],
  ])('stay with %s', (_, change) => {
    const root = checkout();
    const before = inputsHash(root);
    change(root);
    expect(inputsHash(root)).toBe(before);
  });
});

describe('prepare in this checkout (built by npm test just before)', () => {
  it('finds dist/ built from the current sources and leaves it alone', () => {
    expect(readFileSync(path.join(ROOT, 'dist', '.inputs-sha256'), 'utf8').trim()).toBe(inputsHash());
    const before = statSync(path.join(ROOT, 'dist', 'bundle', 'kaas.js')).mtimeMs;
    const r = spawnSync(process.execPath, [path.join(ROOT, 'build', 'prepare.mjs')], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(r.status).toBe(0);
    expect(r.stderr).toContain('kaas: dist/ is built from the current sources');
    expect(statSync(path.join(ROOT, 'dist', 'bundle', 'kaas.js')).mtimeMs).toBe(before);
  });
});
