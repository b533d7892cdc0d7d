import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/cli.js';

/**
 * The bundled CLI checks Gateway API, Envoy Gateway, Cluster API and CAPO objects with validators the
 * build compiled into dist/bundle/validators/*.cjs, read as `module.default` (lib/code-files.ts,
 * each with a V8 code cache the build made). Until
 * 2026-11-27 the build exported each validator as key "0" (ajv's standaloneCode was given the string 'v'
 * where it takes a map of export names), so `.default` was undefined and every object was skipped
 * unchecked in the bundle and the single-file executable.
 */
const DIR = path.join(ROOT, 'dist', 'bundle', 'validators');
const load = createRequire(import.meta.url);

describe('the bundle\'s CRD validators', () => {
  const files = readdirSync(DIR).filter((f) => f.endsWith('.cjs'));

  it('exist, one per bundled kind (Gateway API and Envoy Gateway; Cluster API and CAPO: crd-*), each exporting its validator as default', () => {
    expect(files.length).toBeGreaterThan(10);
    expect(files.filter((f) => f.startsWith('crd-')).sort()).toEqual([
      'crd-bootstrap.cluster.x-k8s.io_v1beta2_KubeadmConfigTemplate.cjs', 'crd-cluster.x-k8s.io_v1beta2_Cluster.cjs',
      'crd-cluster.x-k8s.io_v1beta2_MachineDeployment.cjs', 'crd-controlplane.cluster.x-k8s.io_v1beta2_KubeadmControlPlane.cjs',
      'crd-infrastructure.cluster.x-k8s.io_v1beta1_OpenStackCluster.cjs', 'crd-infrastructure.cluster.x-k8s.io_v1beta1_OpenStackMachineTemplate.cjs',
    ]);
    const missing = files.filter((f) => typeof (load(path.join(DIR, f)) as { default?: unknown }).default !== 'function');
    expect(missing).toEqual([]);
  });

  it('each has the V8 code cache the build made for it, named for this CPU, and this Node takes it (compiled as kaas compiles it, in a plain node process)', () => {
    expect(readdirSync(DIR).filter((f) => f.endsWith('.v8cache')).sort()).toEqual(files.map((f) => `${f}.${process.arch}.v8cache`).sort());
    const script = `
      const { readFileSync } = await import('node:fs');
      const { compileCodeFile, validatorOf } = await import(${JSON.stringify(path.join(ROOT, 'dist', 'lib', 'code-files.js'))});
      const out = {};
      for (const f of ${JSON.stringify(files)}) {
        const s = compileCodeFile(readFileSync(${JSON.stringify(DIR)} + '/' + f, 'utf8'), f, readFileSync(${JSON.stringify(DIR)} + '/' + f + '.${process.arch}.v8cache'));
        out[f] = { rejected: s.cachedDataRejected, validates: typeof validatorOf(s, f)({}) === 'boolean' };
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

  const osc = (lb: Record<string, unknown>) => ({ apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackCluster', metadata: { name: 'demo' }, spec: { identityRef: { cloudName: 'openstack', name: 'demo-cloud-config' }, apiServerLoadBalancer: { enabled: true, ...lb } } });
  it.each([
    ['an OpenStackCluster with allowedCIDRs', osc({ allowedCIDRs: ['203.0.113.0/24'] }), true],
    ['an OpenStackCluster with the v1alpha7 spelling allowedCidrs', osc({ allowedCidrs: ['203.0.113.0/24'] }), false],
  ])('%s: valid %s', (_, object, valid) => {
    const v = (load(path.join(DIR, 'crd-infrastructure.cluster.x-k8s.io_v1beta1_OpenStackCluster.cjs')) as { default: (o: unknown) => boolean }).default;
    expect(v(object)).toBe(valid);
  });
});
