// What a build of kaas is made from, as one hash: the sources tsc compiles (cli, lib, test, build),
// the templates the bundle precompiles, and the files that pin the toolchain and the dependencies.
// build/bundle.mjs records it in dist/ after a build; build/prepare.mjs compares it (see there).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './generate.mjs';

const TREES = ['cli', 'lib', 'test', 'build', 'templates'];
const FILES = ['package.json', 'package-lock.json', 'tsconfig.json'];

/** The stamp file: the inputs' hash of the build that wrote dist/. */
export const STAMP = path.join(ROOT, 'dist', '.inputs-sha256');

/** sha256 over every input file's path and content, in a fixed order (`root`: the checkout). */
export function inputsHash(root = ROOT) {
  const files = FILES.filter((f) => existsSync(path.join(root, f)));
  for (const tree of TREES) {
    const dir = path.join(root, tree);
    if (!existsSync(dir)) continue;
    for (const e of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (e.isFile()) files.push(path.relative(root, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'));
    }
  }
  const h = createHash('sha256');
  for (const f of files.sort()) h.update(`${f}\0`).update(readFileSync(path.join(root, f))).update('\0');
  return h.digest('hex');
}
