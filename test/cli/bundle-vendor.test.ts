import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KAAS, ROOT, runKaas, tempDir } from '../support/cli.js';

/**
 * The libraries every command starts with (yaml, yargs) are not ES modules of the bundle but files of
 * their own, dist/bundle/vendor/<package>.cjs, loaded with the V8 code cache the build's runs of the
 * bundled CLI wrote (lib/code-files.ts loadVendorFile, build/bundle.mjs VENDOR).
 */
const BUNDLE = path.dirname(KAAS);
const VENDOR = path.join(BUNDLE, 'vendor');
const QUICK_START = ['apply-ingress', 'demo', '--env', 'example', '--dry-run'];

describe('the bundle\'s vendor files', () => {
  it('are yaml and yargs, each with a code cache for this CPU that this Node takes (compiled as kaas compiles it, in a plain node process)', () => {
    expect(readdirSync(VENDOR).sort()).toEqual(['yaml.cjs', `yaml.cjs.${process.arch}.v8cache`, 'yargs.cjs', `yargs.cjs.${process.arch}.v8cache`]);
    const script = `
      const { readFileSync } = await import('node:fs');
      const { compileCodeFile, runCodeFile } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'lib', 'code-files.js'))});
      const out = {};
      for (const name of ['yaml', 'yargs']) {
        const file = ${JSON.stringify(VENDOR)} + '/' + name + '.cjs';
        const s = compileCodeFile(readFileSync(file, 'utf8'), 'kaas:vendor/' + name + '.cjs', readFileSync(file + '.${process.arch}.v8cache'));
        out[name] = { rejected: s.cachedDataRejected, default: typeof runCodeFile(s, 'file://' + file).default };
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    // yaml's default export is its namespace object (a CommonJS package), yargs's its factory.
    expect(JSON.parse(r.stdout)).toEqual({ yaml: { rejected: false, default: 'object' }, yargs: { rejected: false, default: 'function' } });
  });

  it('are what the bundle\'s modules get for the packages: no chunk carries yaml or yargs itself', () => {
    const chunks = readdirSync(path.join(BUNDLE, 'chunks')).filter((f) => f.endsWith('.js'));
    // A message of each library's own code (yaml's composer, yargs's validation) that kaas never writes.
    const marks = ['Expected a YAML collection as document contents', 'Not enough non-option arguments: got %s, need at least %s'];
    const own = chunks.filter((f) => marks.some((m) => readFileSync(path.join(BUNDLE, 'chunks', f), 'utf8').includes(m)));
    expect(own).toEqual([]);
    expect(readFileSync(path.join(VENDOR, 'yaml.cjs'), 'utf8')).toContain('Expected a YAML collection as document contents');
    expect(readFileSync(path.join(VENDOR, 'yargs.cjs'), 'utf8')).toContain('Not enough non-option arguments: got %s, need at least %s');
  });

  it('work without their caches: a cache V8 refuses (another Node, a damaged file) only costs its reading, the output is the same', () => {
    const copy = tempDir('kaas-vendor-');
    for (const entry of readdirSync(BUNDLE)) {
      if (entry === 'validators') symlinkSync(path.join(BUNDLE, entry), path.join(copy, entry));
      else cpSync(path.join(BUNDLE, entry), path.join(copy, entry), { recursive: true });
    }
    for (const name of ['yaml', 'yargs']) writeFileSync(path.join(copy, 'vendor', `${name}.cjs.${process.arch}.v8cache`), Buffer.alloc(4096, 7));
    const damaged = runKaas(QUICK_START, { entry: path.join(copy, 'kaas.js') });
    const intact = runKaas(QUICK_START);
    expect({ code: damaged.code, stderr: damaged.stderr }).toEqual({ code: 0, stderr: intact.stderr });
    expect(damaged.stdout).toBe(intact.stdout);
    expect(damaged.stdout).toContain('kind: Service');
  });
});
