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
