/**
 * Gateway API for real: `kaas apply-gateway` (no dry-run) against the testbed's workload kube-apiserver
 * 1.34, so the Gateway API v1.6.1 and Envoy Gateway v1.9.0 CRDs kaas bundles are installed and their
 * OpenAPI/CEL validation (and the Gateway API's ValidatingAdmissionPolicy) judges every object kaas
 * applies; then `kaas migrate-ingress` output for every migration fixture is applied to the same server.
 *
 * Envoy Gateway's controller does not run on the testbed (KWOK only pretends to run its pod), so nothing
 * programs the Gateway or creates the envoy Service: apply-gateway must stop at "not Programmed", and
 * the Gateway's load balancer rows are not proven here (README says so).
 */
import fs from 'node:fs';
import path from 'node:path';
import { jest } from '@jest/globals';
import { ROOT } from '../support/peer-paths.js';
import { kaas, note, testbed, wk, wkJson, type Run, type Testbed } from './workload-support.js';

jest.setTimeout(20 * 60_000);

let tb: Testbed;
let applied: Run;

beforeAll(() => {
  tb = testbed();
  // --force: this scenario is about the Gateway API objects; the other scenarios move OCCM's cloud.conf around.
  applied = kaas(tb, ['apply-gateway', tb.cluster, '--rollout-timeout', '3m', '--address-timeout', '30s', '--no-verify', '--force'], {
    sets: { deploy_gateway: 'true', use_ovn_lb_provider: 'false', nginx_use_proxy: 'true' },
  });
  note(tb, `apply-gateway exit ${applied.code} in ${applied.ms} ms\n${applied.stderr.slice(-4000)}`);
});

test('the bundled Gateway API and Envoy Gateway CRDs are Established on the real apiserver', () => {
  for (const crd of ['gateways.gateway.networking.k8s.io', 'httproutes.gateway.networking.k8s.io', 'gatewayclasses.gateway.networking.k8s.io',
    'grpcroutes.gateway.networking.k8s.io', 'referencegrants.gateway.networking.k8s.io', 'envoyproxies.gateway.envoyproxy.io',
    'clienttrafficpolicies.gateway.envoyproxy.io', 'backendtrafficpolicies.gateway.envoyproxy.io', 'securitypolicies.gateway.envoyproxy.io', 'httproutefilters.gateway.envoyproxy.io']) {
    const c = wkJson(tb, ['get', 'crd', crd]);
    expect({ crd, established: c?.status?.conditions?.find((x: any) => x.type === 'Established')?.status }).toEqual({ crd, established: 'True' });
  }
  const gw = wkJson(tb, ['get', 'crd', 'gateways.gateway.networking.k8s.io'])!;
  expect(gw.metadata.annotations['gateway.networking.k8s.io/bundle-version']).toBe('v1.6.1');
});

test('every kaas edge object passed the real validation (CEL included) and exists', () => {
  expect(wkJson(tb, ['get', 'gatewayclass', 'kaas'])?.spec.parametersRef).toMatchObject({ kind: 'EnvoyProxy', name: 'kaas-edge', namespace: 'envoy-gateway-system' });
  const proxy = wkJson(tb, ['-n', 'envoy-gateway-system', 'get', 'envoyproxy', 'kaas-edge'])!;
  const svc = proxy.spec.provider.kubernetes.envoyService;
  expect(svc.externalTrafficPolicy).toBe('Local');
  expect(svc.annotations).toMatchObject({ 'loadbalancer.openstack.org/proxy-protocol': 'true', 'loadbalancer.openstack.org/enable-health-monitor': 'true' });
  expect(wkJson(tb, ['-n', 'envoy-gateway-system', 'get', 'gateway', 'kaas'])?.spec.gatewayClassName).toBe('kaas');
  const ctps = wkJson<{ items: any[] }>(tb, ['-n', 'envoy-gateway-system', 'get', 'clienttrafficpolicies'])!.items;
  expect(ctps.some((c) => c.spec.proxyProtocol !== undefined || c.spec.enableProxyProtocol === true)).toBe(true);
});

test('apply-gateway stops at the Gateway not Programmed (no Envoy Gateway controller runs here), and says so', () => {
  expect(applied.code).not.toBe(0);
  expect(applied.stderr).toMatch(/not Programmed with an address/);
});

test('the apiserver really runs the CEL rules: a Gateway with two listeners of one name is refused', () => {
  const bad = {
    apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'cel-probe', namespace: 'envoy-gateway-system' },
    spec: { gatewayClassName: 'kaas', listeners: [{ name: 'http', port: 80, protocol: 'HTTP' }, { name: 'http', port: 8080, protocol: 'HTTP' }] },
  };
  expect(() => wk(tb, ['apply', '--server-side', '-f', '-'], JSON.stringify(bad))).toThrow(/unique|Duplicate/i);
});

test('migrate-ingress output for every fixture is accepted by the real apiserver', () => {
  const fixtures = path.join(ROOT, 'test', 'fixtures', 'migrate');
  const out = path.join(tb.dir, 'workload', 'migrate');
  fs.rmSync(out, { recursive: true, force: true });
  const m = kaas(tb, ['migrate-ingress', '--file', fixtures, '--output-dir', out]);
  note(tb, `migrate-ingress exit ${m.code}\n${m.stderr.slice(-2000)}`);
  expect(m.code).toBe(0);
  const namespaces = fs.readdirSync(out).filter((d) => fs.statSync(path.join(out, d)).isDirectory());
  expect(namespaces.length).toBeGreaterThan(0);
  for (const ns of namespaces) wk(tb, ['apply', '--server-side', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: ns } }));
  const r = wk(tb, ['apply', '--server-side', '--field-manager', 'kaas-migrate-ingress', '--force-conflicts', '-R', '-f', out]);
  const n = r.split('\n').filter((l) => /serverside-applied/.test(l)).length;
  note(tb, `migrate-ingress: ${n} objects applied`);
  expect(n).toBeGreaterThan(20);
  expect(wkJson<{ items: unknown[] }>(tb, ['get', 'httproutes', '-A'])!.items.length).toBeGreaterThan(10);
});
