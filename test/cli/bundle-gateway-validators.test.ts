import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/cli.js';

/**
 * The bundled CLI checks Gateway API and Envoy Gateway objects with validators the build compiled into
 * dist/bundle/validators/*.cjs, read as `module.default` (lib/gateway/crd-validators.bundle.ts). Until
 * 2026-11-27 the build exported each validator as key "0" (ajv's standaloneCode was given the string 'v'
 * where it takes a map of export names), so `.default` was undefined and every object was skipped
 * unchecked in the bundle and the single-file executable.
 */
const DIR = path.join(ROOT, 'dist', 'bundle', 'validators');
const load = createRequire(import.meta.url);

describe('the bundle\'s Gateway validators', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.cjs'));

  it('exist, one per bundled kind, each exporting its validator as default', () => {
    expect(files.length).toBeGreaterThan(10);
    const missing = files.filter((f) => typeof (load(path.join(DIR, f)) as { default?: unknown }).default !== 'function');
    expect(missing).toEqual([]);
  });

  it('each has the V8 code cache the build made for it, and this Node takes it (compiled as kaas compiles it, in a plain node process)', () => {
    expect(readdirSync(DIR).filter((f) => f.endsWith('.v8cache')).sort()).toEqual(files.map((f) => `${f}.v8cache`).sort());
    const script = `
      const { readFileSync } = await import('node:fs');
      const { compileValidator, validatorOf } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'lib', 'gateway', 'validator-script.js'))});
      const out = {};
      for (const f of ${JSON.stringify(files)}) {
        const s = compileValidator(readFileSync(${JSON.stringify(DIR)} + '/' + f, 'utf8'), f, readFileSync(${JSON.stringify(DIR)} + '/' + f + '.v8cache'));
        out[f] = { rejected: s.cachedDataRejected, validates: validatorOf(s, f)({}) === false };
      }
      console.log(JSON.stringify(out));`;
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    expect(r.stderr).toBe('');
    const out = JSON.parse(r.stdout) as Record<string, { rejected: boolean; validates: boolean }>;
    expect(Object.entries(out).filter(([, o]) => o.rejected !== false || !o.validates).map(([f]) => f)).toEqual([]);
  });

  it.each([
    ['a Gateway with a listener', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'kaas', namespace: 'envoy-gateway-system' }, spec: { gatewayClassName: 'kaas', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] } }, true],
    ['a Gateway without gatewayClassName', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'kaas' }, spec: { listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }] } }, false],
    ['a Gateway whose port is a string', { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'kaas' }, spec: { gatewayClassName: 'kaas', listeners: [{ name: 'http', port: '80', protocol: 'HTTP' }] } }, false],
  ])('%s: valid %s', (_, object, valid) => {
    const file = files.find((f) => f.endsWith('-gateway.networking.k8s.io_v1_Gateway.cjs'))!;
    const v = (load(path.join(DIR, file)) as { default: (o: unknown) => boolean }).default;
    expect(v(object)).toBe(valid);
  });
});
