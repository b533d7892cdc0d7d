import { spawnSync } from 'node:child_process';
import { cpSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KAAS, ROOT, runKaas, tempDir } from '../support/cli.js';

/**
 * The libraries every command starts with (yaml, yargs) and axios, on every cloud command's way to its
 * first request, are not ES modules of the bundle but files of their own,
 * dist/bundle/vendor/<package>.cjs, loaded with the V8 code cache the build's runs of the bundled CLI
 * wrote (lib/code-files.ts loadVendorFile, build/bundle.mjs VENDOR).
 */
const LIBRARIES = ['axios', 'yaml', 'yargs'];
const BUNDLE = path.dirname(KAAS);
const VENDOR = path.join(BUNDLE, 'vendor');
const QUICK_START = ['apply-ingress', 'demo', '--env', 'example', '--dry-run'];

describe('the bundle\'s vendor files', () => {
  it('are axios, yaml and yargs, each with a code cache for this CPU that this Node takes (compiled as kaas compiles it, in a plain node process)', () => {
    expect(readdirSync(VENDOR).sort()).toEqual(LIBRARIES.flatMap((name) => [`${name}.cjs`, `${name}.cjs.${process.arch}.v8cache`]));
    const script = `
      const { readFileSync } = await import('node:fs');
      const { compileCodeFile, runCodeFile } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'lib', 'code-files.js'))});
      const out = {};
      for (const name of ${JSON.stringify(LIBRARIES)}) {
        const file = ${JSON.stringify(VENDOR)} + '/' + name + '.cjs';
        const s = compileCodeFile(readFileSync(file, 'utf8'), 'kaas:vendor/' + name + '.cjs', readFileSync(file + '.${process.arch}.v8cache'));
        out[name] = { rejected: s.cachedDataRejected, default: typeof runCodeFile(s, 'file://' + file).default };
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    // yaml's default export is its namespace object (a CommonJS package), yargs's its factory, axios's its instance (a function).
    expect(JSON.parse(r.stdout)).toEqual({ axios: { rejected: false, default: 'function' }, yaml: { rejected: false, default: 'object' }, yargs: { rejected: false, default: 'function' } });
  });

  it('are what the bundle\'s modules get for the packages: no chunk carries axios, yaml or yargs itself', () => {
    const chunks = readdirSync(path.join(BUNDLE, 'chunks')).filter((f) => f.endsWith('.js'));
    // A message of each library's own code (axios's settle, yaml's composer, yargs's validation) that kaas never writes.
    const marks = ['Request failed with status code ', 'Expected a YAML collection as document contents', 'Not enough non-option arguments: got %s, need at least %s'];
    const own = chunks.filter((f) => marks.some((m) => readFileSync(path.join(BUNDLE, 'chunks', f), 'utf8').includes(m)));
    expect(own).toEqual([]);
    expect(readFileSync(path.join(VENDOR, 'yaml.cjs'), 'utf8')).toContain('Expected a YAML collection as document contents');
    expect(readFileSync(path.join(VENDOR, 'yargs.cjs'), 'utf8')).toContain('Not enough non-option arguments: got %s, need at least %s');
    expect(readFileSync(path.join(VENDOR, 'axios.cjs'), 'utf8')).toContain('Request failed with status code ');
  });

  it('work without their caches: a cache V8 refuses (another Node, a damaged file) only costs its reading, the output is the same', () => {
    const copy = tempDir('kaas-vendor-');
    for (const entry of readdirSync(BUNDLE)) {
      if (entry === 'validators') symlinkSync(path.join(BUNDLE, entry), path.join(copy, entry));
      else cpSync(path.join(BUNDLE, entry), path.join(copy, entry), { recursive: true });
    }
    for (const name of LIBRARIES) writeFileSync(path.join(copy, 'vendor', `${name}.cjs.${process.arch}.v8cache`), Buffer.alloc(4096, 7));
    const damaged = runKaas(QUICK_START, { entry: path.join(copy, 'kaas.js') });
    const intact = runKaas(QUICK_START);
    expect({ code: damaged.code, stderr: damaged.stderr }).toEqual({ code: 0, stderr: intact.stderr });
    expect(damaged.stdout).toBe(intact.stdout);
    expect(damaged.stdout).toContain('kind: Service');
    // axios, through a request: the test clouds.yaml whose Keystone refuses connections (127.0.0.1:9).
    const ask = ['detect', '--cloud', 'password-cloud', '--settings-dir', path.join(ROOT, 'settings')];
    const unreachable = { OS_CLIENT_CONFIG_FILE: path.join(ROOT, 'test/fixtures/cluster/clouds-unreachable.yaml') };
    const refusedDamaged = runKaas(ask, { entry: path.join(copy, 'kaas.js'), env: unreachable });
    const refusedIntact = runKaas(ask, { env: unreachable });
    expect(refusedDamaged).toEqual(refusedIntact);
    expect(refusedIntact.code).not.toBe(0);
    expect(refusedIntact.stderr).toContain('127.0.0.1:9');
    expect(refusedIntact.stderr).toContain('ECONNREFUSED');
  });
});
