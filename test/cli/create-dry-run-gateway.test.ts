import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { runKaas, tempDir } from '../support/cli.js';

const T = 120_000;

/** Review m2: a real run applies the gateway when deploy_gateway is on (the example has it); the dry-run must show it. */
describe('create-cluster --dry-run shows the gateway step', () => {
  it('prints the gateway step and writes envoy-gateway.yaml beside ingress-nginx.yaml', () => {
    const dir = tempDir();
    const r = runKaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', '--output-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^gateway step: Envoy Gateway v1\.9\.0 \(Gateway API v1\.6\.1, amphora, PROXY protocol\), applied after the ingress as kaas apply-gateway does$/m);
    expect(r.stdout).toMatch(/^gateway: Envoy Gateway v1\.9\.0/m);
    const files = readdirSync(dir).sort();
    expect(files).toContain('envoy-gateway.yaml');
    const gw = readFileSync(path.join(dir, 'envoy-gateway.yaml'), 'utf8');
    expect(gw).toMatch(/^kind: GatewayClass$/m);
    expect(gw).toMatch(/^kind: ClientTrafficPolicy$/m);
  }, T);

  it('on stdout: the gateway manifests after the ingress, the 3.7 MB of upstream CRDs named rather than printed', () => {
    const r = runKaas(['create-cluster', 'demo', '--env', 'example', '--dry-run']);
    expect(r.code).toBe(0);
    const at = r.stdout.indexOf('# envoy-gateway.yaml\n');
    expect(at).toBeGreaterThan(r.stdout.indexOf('# ingress-nginx.yaml\n'));
    const gw = r.stdout.slice(at);
    expect(gw).toMatch(/^# \(the Gateway API and Envoy Gateway CRDs, [\d.]+ MB, are left out here: --output-dir DIR writes them\)$/m);
    expect(gw).toMatch(/^kind: GatewayClass$/m);
    expect(gw).not.toMatch(/^kind: CustomResourceDefinition$/m);
  }, T);

  it('says so when deploy_gateway is false', () => {
    const r = runKaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', '--set', 'deploy_gateway=false']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^gateway step: none: deploy_gateway is false$/m);
    expect(r.stdout).not.toMatch(/^# envoy-gateway\.yaml$/m);
  }, T);
});
