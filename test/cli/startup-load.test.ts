import { spawnSync } from 'node:child_process';
import { readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { cleanEnv, KAAS, ROOT, tempDir } from '../support/cli.js';

/**
 * What the bundled CLI loads for a command: every module file, recorded by a module hook
 * (node --import), and every code file it compiles itself (the vendor files yaml and yargs,
 * lib/code-files.ts), recorded by a preload (node --require) that sees the bundle read them. The
 * speed goals are benchmarks (npm run bench, ratios against named baselines); this holds their
 * cause still: a static import that drags a heavy module into a command that does not use it (the
 * 1.8 MB CAPI/CAPO CRD validators, axios) shows here as bytes, on any machine and load.
 */
describe('modules the bundled CLI loads', () => {
  let dir: string;
  let hook: string;
  let reads: string;
  beforeAll(() => {
    dir = tempDir('kaas-load-');
    hook = path.join(dir, 'hook.mjs');
    // The hook runs on the loader thread: it appends each file: URL the CLI loads to $KAAS_TEST_LOADED.
    const hooks = `import { appendFileSync } from 'node:fs';
export async function load(url, context, next) {
  const r = await next(url, context);
  if (url.startsWith('file:')) appendFileSync(process.env.KAAS_TEST_LOADED, url + '\\n');
  return r;
}`;
    writeFileSync(path.join(dir, 'hooks.mjs'), hooks);
    writeFileSync(hook, `import { register } from 'node:module';\nregister(${JSON.stringify(pathToFileURL(path.join(dir, 'hooks.mjs')).href)});\n`);
    // The preload wraps fs.readFileSync before any module takes it (syncBuiltinESMExports: node:fs's
    // ES module names too), and appends each .cjs file read.
    reads = path.join(dir, 'reads.cjs');
    writeFileSync(reads, `const fs = require('node:fs');
const { pathToFileURL, fileURLToPath } = require('node:url');
const read = fs.readFileSync;
fs.readFileSync = function (file, ...rest) {
  const p = file instanceof URL ? fileURLToPath(file) : String(file);
  if (p.endsWith('.cjs')) fs.appendFileSync(process.env.KAAS_TEST_LOADED, pathToFileURL(p).href + '\\n');
  return read.call(this, file, ...rest);
};
require('node:module').syncBuiltinESMExports();
`);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The files of the bundle one run loads (the hook's own files left out) and their total size. */
  function loaded(args: string[]): { files: string[]; bytes: number; text: (marker: string) => string[] } {
    const list = path.join(dir, `loaded-${args[0]}.txt`);
    rmSync(list, { force: true });
    const r = spawnSync(process.execPath, ['--require', reads, '--import', pathToFileURL(hook).href, KAAS, ...args], { cwd: ROOT, env: cleanEnv({ KAAS_TEST_LOADED: list }), encoding: 'utf8' });
    expect({ code: r.status, stderr: r.status === 0 ? '' : r.stderr }).toEqual({ code: 0, stderr: '' });
    const files = [...new Set(readFileSync(list, 'utf8').split('\n').filter(Boolean).map((u) => fileURLToPath(u)))].filter((f) => !f.startsWith(dir));
    expect(files.every((f) => f.startsWith(path.dirname(KAAS)))).toBe(true);
    return {
      files,
      bytes: files.reduce((n, f) => n + statSync(f).size, 0),
      text: (marker) => files.filter((f) => readFileSync(f, 'utf8').includes(marker)).map((f) => path.relative(path.dirname(KAAS), f)),
    };
  }

  it('apply-ingress --dry-run loads under 1 MB, without the HTTP stack', () => {
    // 2.95 MB in 52 files before (the CRD validators through workload-access.ts → live-plan.ts, axios
    // and the answer validators through the apply steps and the Octavia version helpers); 0.77 MB after.
    const r = loaded(['apply-ingress', 'demo', '--env', 'example', '--dry-run']);
    expect({ bytes: r.bytes, under: r.bytes < 1_000_000 }).toEqual({ bytes: r.bytes, under: true });
    // The libraries it runs are in the count, from their vendor files.
    expect(r.files.filter((f) => f.includes(`${path.sep}vendor${path.sep}`)).map((f) => path.basename(f)).sort()).toEqual(['yaml.cjs', 'yargs.cjs']);
    expect(r.text('AxiosHeaders')).toEqual([]);
  });

  it('--help loads under 100 kB, without the HTTP stack', () => {
    const r = loaded(['--help']);
    expect(r.bytes).toBeLessThan(100_000);
    expect(r.text('AxiosHeaders')).toEqual([]);
  });
});
