// npm's `prepare` (after `npm ci`/`npm install` in the checkout). npx runs it too: the first `npx kaas`
// in a checkout installs the checkout into npx's cache as a directory dependency, which runs prepare
// again: a full rebuild (tens of seconds) that also rewrites dist/ under whatever is running from it.
// So prepare builds only when the inputs differ from those of the build in dist/ (build/inputs.mjs);
// `npm run build` always builds.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './generate.mjs';
import { inputsHash, STAMP } from './inputs.mjs';

const built = existsSync(STAMP) && existsSync(path.join(ROOT, 'dist', 'bundle', 'kaas.js')) ? readFileSync(STAMP, 'utf8').trim() : undefined;
if (built !== undefined && built === inputsHash()) {
  process.stderr.write('kaas: dist/ is built from the current sources (npm run build rebuilds anyway)\n');
} else {
  const r = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  process.exitCode = r.status ?? 1;
}
