import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { crdNames, renderGateway, SHARED_WITH_CRDS, withReleaseValues } from '../../../lib/gateway/render.js';
import { bundledCrdObjects, validateGatewayObjects } from '../../../lib/gateway/schema.js';
import { orThrow } from '../../../lib/plan/decision.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, planGateway } from '../../../lib/plan/gateway.js';
import { convertIngresses } from '../../../lib/gateway/migrate/convert.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../../../lib/plan/gateway-versions.js';
import { objectKey, stringifyDocuments, type KubeObject } from '../../../lib/render/documents.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { AMPHORA, OVN } from '../plan/edge-table.js';
import { kustomizeBuild } from './kustomize.js';
import { REFERENCE_DIR } from '../../support/reference.js';

/**
 * The rendered gateway of the example environment in both provider modes: kaas's own objects
 * against golden files (semantically; KAAS_UPDATE_GOLDEN=1 to update on purpose), the upstream
 * parts against the bundled upstream data, everything against the bundled CRD schemas and
 * `kubectl kustomize`.
 */
const GOLDEN = path.resolve(process.cwd(), 'test/golden/gateway');
const UPSTREAM = path.resolve(process.cwd(), 'templates/gateway');
// The reference folder beside the checkout (../shared), as CI lays it out.
const REFERENCE = path.join(REFERENCE_DIR, 'gateway');
const UPDATE = process.env.KAAS_UPDATE_GOLDEN === '1';
const v = BUNDLED_GATEWAY_VERSIONS[0];
const docs = (text: string) => parseAllDocuments(text).map((d) => d.toJS() as KubeObject).filter((o) => o !== null);
const example = loadSettings({ settingsDir: 'settings', env: 'example', cluster: 'demo', environ: {}, cwd: process.cwd() }).values;
const plan = (lb: typeof AMPHORA) => orThrow(planGateway(example, lb));

describe('apply-gateway manifests', () => {
  it.each([['amphora', AMPHORA], ['ovn', OVN]] as const)('%s: kaas objects match the golden file and the CRD schemas', async (mode, lb) => {
    const r = await renderGateway(plan(lb), 'all');
    const file = path.join(GOLDEN, `example-${mode}.yaml`);
    if (UPDATE) {
      mkdirSync(GOLDEN, { recursive: true });
      writeFileSync(file, stringifyDocuments(r.edge));
    }
    expect(existsSync(file)).toBe(true);
    expect(r.edge).toEqual(docs(readFileSync(file, 'utf8')));
    expect(validateGatewayObjects(v, r.edge, mode).skipped).toEqual([]);
  });

  it('migrate-ingress emits the whole listener list with apply-gateway\'s http listener as rendered (client-side apply and GitOps keep it)', async () => {
    const r = await renderGateway(plan(OVN));
    const edge = r.edge.find((x) => x.kind === 'Gateway')!.spec as { listeners: { name: string }[] };
    const tls = { apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name: 'web', namespace: 'shop' }, spec: { ingressClassName: 'nginx', tls: [{ hosts: ['shop.example.org'], secretName: 'shop-tls' }], rules: [{ host: 'shop.example.org', http: { paths: [{ path: '/', pathType: 'Prefix', backend: { service: { name: 'web', port: { number: 80 } } } }] } }] } } as KubeObject;
    const gw = convertIngresses([tls], { name: DEFAULT_GATEWAY, namespace: GATEWAY_NAMESPACE, httpListener: 'http', className: example.gateway_class }).objects.find((x) => x.kind === 'Gateway')!;
    const listeners = (gw.spec as { listeners: { name: string }[] }).listeners;
    expect(listeners.map((l) => l.name)).toEqual(['http', 'https-shop-example-org']);
    expect(listeners[0]).toEqual(edge.listeners.find((l) => l.name === 'http'));
  });

  it('amphora + PROXY: the envoy Service annotations and the ClientTrafficPolicy; OVN: neither', async () => {
    const a = await renderGateway(plan(AMPHORA));
    const o = await renderGateway(plan(OVN));
    const svc = (r: typeof a) => ((r.edge.find((x) => x.kind === 'EnvoyProxy')!.spec as { provider: { kubernetes: { envoyService: unknown } } }).provider.kubernetes.envoyService);
    expect(svc(a)).toEqual({ type: 'LoadBalancer', externalTrafficPolicy: 'Local', annotations: { 'loadbalancer.openstack.org/enable-health-monitor': 'true', 'loadbalancer.openstack.org/proxy-protocol': 'true' } });
    expect(a.edge.find((x) => x.kind === 'ClientTrafficPolicy')?.spec).toMatchObject({ proxyProtocol: {} });
    // No annotations: none rendered (not `annotations: {}`, which server-side apply turns into null after a
    // row with annotations; the EnvoyProxy CRD refuses null: seen on the testbed's real apiserver).
    expect(svc(o)).toEqual({ type: 'LoadBalancer', externalTrafficPolicy: 'Local' });
    expect(o.edge.some((x) => x.kind === 'ClientTrafficPolicy')).toBe(false);
  });

  it('the CRD phase is the bundled upstream data, verbatim, and the bundle equals the reference data', async () => {
    const r = await renderGateway(plan(AMPHORA));
    const files = [['gateway-api-v1.6.1', 'standard-install.yaml'], ...['backends', 'backendtrafficpolicies', 'clienttrafficpolicies', 'envoyextensionpolicies', 'envoypatchpolicies', 'envoyproxies', 'httproutefilters', 'securitypolicies'].map((n) => ['envoy-gateway-v1.9.0', 'crds', `gateway.envoyproxy.io_${n}.yaml`])];
    for (const f of files) {
      const text = readFileSync(path.join(UPSTREAM, ...f), 'utf8');
      expect(r.crdsYaml).toContain(text.trimEnd());
      if (existsSync(REFERENCE)) expect(text).toBe(readFileSync(path.join(REFERENCE, ...f), 'utf8'));
    }
    expect(crdNames(v)).toEqual(bundledCrdObjects(v).filter((o) => o.kind === 'CustomResourceDefinition').map((o) => o.metadata.name));
    expect(crdNames(v)).toHaveLength(18);
  });

  it('the control plane is the chart render with release values only (no test image, no pull Always)', async () => {
    const r = await renderGateway(plan(AMPHORA));
    const reference = docs(readFileSync(path.join(UPSTREAM, 'envoy-gateway-v1.9.0', 'helm-default-render.yaml'), 'utf8'));
    const back = (o: unknown) => JSON.parse(JSON.stringify(o)
      .split('docker.io/envoyproxy/gateway:v1.9.0').join('docker.io/envoyproxy/gateway-dev:latest')
      .split('"imagePullPolicy":"IfNotPresent"').join('"imagePullPolicy":"Always"')
      .split('gateway-helm-v1.9.0').join('gateway-helm-v0.0.0-latest')
      .split('"app.kubernetes.io/version":"v1.9.0"').join('"app.kubernetes.io/version":"latest"')) as KubeObject;
    const [ns, ...chart] = r.controlPlane;
    expect(ns).toEqual({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'envoy-gateway-system' } });
    expect(chart.map(back)).toEqual(reference.filter((o) => !SHARED_WITH_CRDS.includes(objectKey(o))).map((o) => back(o)));
    const text = JSON.stringify(r.controlPlane);
    expect(text).not.toMatch(/gateway-dev|:latest|v0\.0\.0|"Always"/);
    const deploy = r.controlPlane.find((o) => o.kind === 'Deployment')! as unknown as { spec: { template: { spec: { containers: { image: string; imagePullPolicy: string }[] } } } };
    expect(deploy.spec.template.spec.containers[0]).toMatchObject({ image: 'docker.io/envoyproxy/gateway:v1.9.0', imagePullPolicy: 'IfNotPresent' });
    // The safe-upgrades policy the chart repeats exists once: the Gateway API bundle's, in the CRD phase.
    const crds = bundledCrdObjects(v);
    for (const key of SHARED_WITH_CRDS) {
      expect(reference.some((o) => objectKey(o) === key)).toBe(true);
      expect(crds.some((o) => objectKey(o) === key)).toBe(true);
      expect(r.controlPlane.some((o) => objectKey(o) === key)).toBe(false);
    }
  });

  it('a chart render without one of the test values it replaces is refused, naming what is missing (the upstream file changed)', () => {
    const reference = docs(readFileSync(path.join(UPSTREAM, 'envoy-gateway-v1.9.0', 'helm-default-render.yaml'), 'utf8'));
    expect(withReleaseValues(reference, v).length).toBe(reference.length);
    const pinned = JSON.parse(JSON.stringify(reference).split('"imagePullPolicy":"Always"').join('"imagePullPolicy":"IfNotPresent"')) as KubeObject[];
    expect(() => withReleaseValues(pinned, v)).toThrow(expect.objectContaining({
      message: expect.stringMatching(/helm-default-render\.yaml changed: release values cannot be set/),
      problems: ['imagePullPolicy: Always'],
    }));
    // The objects it was given are left as they were.
    expect(JSON.stringify(reference)).toContain('gateway-dev:latest');
  });

  it('kubectl kustomize builds everything offline (well-formed, no duplicate objects)', async () => {
    const r = await renderGateway(plan(AMPHORA));
    const built = kustomizeBuild(r.yaml);
    expect(built).toHaveLength(bundledCrdObjects(v).length + r.controlPlane.length + r.edge.length);
  });
});
