import { RenderError } from '../render/template.js';
import { DEFAULT_GATEWAY, ENVOY_PROXY, GATEWAY_NAMESPACE, HTTP_LISTENER, type GatewayPlan } from '../plan/gateway.js';
import type { BundledGatewayVersion } from '../plan/gateway-versions.js';
import { bundledTemplate, readBundledObjects, readBundledText } from '../render/bundled.js';
import { objectKey, parseDocuments, stringifyDocuments, type KubeObject } from '../render/documents.js';
import { validateObjects } from '../render/schema.js';
import { bundledCrdFiles, bundledCrdNames, bundledCrdObjects, validateGatewayObjects } from './schema.js';

/** The Envoy Gateway control-plane Deployment (rollout waited for). */
export const CONTROL_PLANE_DEPLOYMENT = 'envoy-gateway';
/** The certgen Job: immutable once created, so it is deleted before a re-apply (as ingress-nginx's admission Jobs). */
export const CERTGEN_JOB = 'gateway-helm-certgen';

/**
 * The rendered gateway, in the three phases it is applied in: CRDs (established before anything
 * uses them), the control plane, then the kaas edge objects (EnvoyProxy, GatewayClass, Gateway,
 * ClientTrafficPolicy).
 */
export interface RenderedGateway {
  /** The CRD phase as the verbatim bundled text (3.7 MB: parsed only when objects are asked for). */
  crdsYaml: string;
  controlPlane: KubeObject[];
  edge: KubeObject[];
  /** Everything, as multi-document YAML in apply order. */
  yaml: string;
}

/**
 * The safe-upgrades policy and binding: in the Gateway API bundle and again in the chart, under
 * the same names with a different version rule (the chart's also admits the v0.0.0-dev bundles of
 * Envoy Gateway's own test builds). One name holds one spec: the Gateway API release's wins, kept
 * in the CRD phase.
 */
export const SHARED_WITH_CRDS = [
  'ValidatingAdmissionPolicy/safe-upgrades.gateway.networking.k8s.io',
  'ValidatingAdmissionPolicyBinding/safe-upgrades.gateway.networking.k8s.io',
];

/**
 * The chart's default render is a test render (gateway-dev:latest, pull Always, v0.0.0-latest
 * labels); a release install has the release image and labels. Each value must be found, so a
 * changed upstream file fails loudly instead of shipping the test image. A value with a `key`
 * replaces that key's whole value; one without replaces `from` wherever a string holds it (the image
 * is also named inside the envoy-gateway-config ConfigMap's text).
 */
export interface ReleaseValue { key?: string; from: string; to: string }

export function releaseValues(v: BundledGatewayVersion): ReleaseValue[] {
  return [
    { from: 'docker.io/envoyproxy/gateway-dev:latest', to: v.images.controlPlane },
    { key: 'imagePullPolicy', from: 'Always', to: 'IfNotPresent' },
    { from: 'gateway-helm-v0.0.0-latest', to: `gateway-helm-${v.version}` },
    { key: 'app.kubernetes.io/version', from: 'latest', to: v.version },
  ];
}

/** The chart render's objects with the release values (new objects; the bundled ones are not changed). */
export function withReleaseValues(objects: KubeObject[], v: BundledGatewayVersion): KubeObject[] {
  const values = releaseValues(v);
  const found = new Set<ReleaseValue>();
  const set = (value: unknown, key?: string): unknown => {
    if (typeof value === 'string') {
      let out = value;
      for (const r of values) {
        if (r.key === undefined ? !out.includes(r.from) : key !== r.key || out !== r.from) continue;
        out = r.key === undefined ? out.split(r.from).join(r.to) : r.to;
        found.add(r);
      }
      return out;
    }
    if (Array.isArray(value)) return value.map((x) => set(x));
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, set(x, k)]));
    return value;
  };
  const out = objects.map((o) => set(o) as KubeObject);
  const missing = values.filter((r) => !found.has(r)).map((r) => (r.key ? `${r.key}: ${r.from}` : r.from));
  if (missing.length) throw new RenderError(`templates/gateway/${v.dir}/helm-default-render.yaml changed: release values cannot be set`, missing);
  return out;
}

/** A text ending in exactly one newline (a `/\n*$/` replace tries every position of the 3.7 MB CRD text: 16 ms). */
function oneFinalNewline(text: string): string {
  let end = text.length;
  while (end > 0 && text.charCodeAt(end - 1) === 10) end--;
  return `${text.slice(0, end)}\n`;
}

/** The CRD phase, verbatim: Gateway API standard channel (with its safe-upgrades policy), then Envoy Gateway's CRDs. */
export function crdsText(v: BundledGatewayVersion): string {
  return bundledCrdFiles(v).map((parts) => oneFinalNewline(readBundledText(...parts))).join('---\n');
}

/** The names of the CRDs a release installs (what apply waits to be Established). */
export function crdNames(v: BundledGatewayVersion): string[] {
  return bundledCrdNames(v);
}

/** Every object of a rendered gateway, in apply order (for `-o json`). */
export function gatewayObjects(plan: GatewayPlan, r: RenderedGateway): KubeObject[] {
  return [...bundledCrdObjects(plan.version!), ...r.controlPlane, ...r.edge];
}

/** The control plane: its namespace and the chart render with release values, minus the policy the CRD phase holds. */
export function renderControlPlane(v: BundledGatewayVersion): KubeObject[] {
  const chart = withReleaseValues(readBundledObjects('gateway', v.dir, 'helm-default-render.yaml'), v);
  const ns: KubeObject = { apiVersion: 'v1', kind: 'Namespace', metadata: { name: GATEWAY_NAMESPACE } };
  return [ns, ...chart.filter((o) => !SHARED_WITH_CRDS.includes(objectKey(o)))];
}

/** The kaas edge objects of a plan (templates/gateway/kaas/edge.yaml.hbs). */
export function renderEdge(plan: GatewayPlan): KubeObject[] {
  const rel = 'gateway/kaas/edge.yaml.hbs';
  const text = bundledTemplate(rel).render({
    namespace: GATEWAY_NAMESPACE, envoyProxy: ENVOY_PROXY, gateway: DEFAULT_GATEWAY, gatewayClass: plan.gatewayClass, httpListener: HTTP_LISTENER,
    envoyImage: plan.version!.images.envoy, externalTrafficPolicy: plan.envoyService!.externalTrafficPolicy,
    // No annotations: the field is left out. An empty map would be applied as `annotations: {}`, which the
    // real apiserver's server-side apply turns into null once kaas owned keys there before (the previous row
    // had annotations), and the EnvoyProxy CRD refuses null (found on the testbed: every switch to a row
    // without annotations failed).
    annotations: Object.keys(plan.envoyService!.annotations).length ? plan.envoyService!.annotations : false,
    proxyProtocol: plan.clientTrafficPolicyProxy,
  });
  return parseDocuments(text, rel);
}

/**
 * Renders everything a deploy plan applies. The kaas edge objects are always checked against the
 * bundled CRD schemas; `validate: 'all'` also checks the control plane's core kinds (the test
 * suite does; at run time the verbatim upstream parts are not re-checked, which keeps dry-runs fast).
 */
export async function renderGateway(plan: GatewayPlan, validate: 'edge' | 'all' = 'edge'): Promise<RenderedGateway> {
  if (!plan.deploy || !plan.version || !plan.envoyService) throw new RenderError('renderGateway called for a plan that deploys nothing');
  const v = plan.version;
  const crdsYaml = crdsText(v);
  const controlPlane = renderControlPlane(v);
  const edge = renderEdge(plan);
  validateGatewayObjects(v, edge, `Envoy Gateway ${v.version} edge objects`);
  if (validate === 'all') await validateObjects(controlPlane, `Envoy Gateway ${v.version} control plane`);
  return { crdsYaml, controlPlane, edge, yaml: crdsYaml + stringifyDocuments([...controlPlane, ...edge]) };
}
