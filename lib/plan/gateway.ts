import type { Settings } from '../settings/types.js';
import { andThen, decided, refused, type Decision } from './decision.js';
import { edgeSettings, planEdgeLb, type EdgeLbPlan } from './edge.js';
import { BUNDLED_GATEWAY_VERSIONS, findBundledGateway, type BundledGatewayVersion } from './gateway-versions.js';
import { kubernetesMinor } from './ingress-versions.js';
import type { LoadBalancerPlan } from './types.js';

/** The settings the gateway decision reads. */
export type GatewaySettings = Pick<
  Settings,
  'deploy_gateway' | 'gateway_class' | 'nginx_use_proxy' | 'node_cidr' | 'occm_loadbalancer' | 'kubernetes_version'
>;

/** Namespace of Envoy Gateway, its EnvoyProxy and the default Gateway. */
export const GATEWAY_NAMESPACE = 'envoy-gateway-system';
/** The default Gateway kaas creates; migrate-ingress attaches HTTPRoutes to it. */
export const DEFAULT_GATEWAY = 'kaas';
/**
 * The plain-HTTP listener of the default Gateway (apply-gateway renders it; migrate-ingress repeats it
 * in the whole listener list it emits, so that a client-side `kubectl apply -f` or a GitOps sync of
 * that Gateway, which replaces the list, keeps it).
 */
export const HTTP_LISTENER = { name: 'http', protocol: 'HTTP', port: 80, allowedRoutes: { namespaces: { from: 'All' } } };
/** The EnvoyProxy that carries the edge plan (GatewayClass parametersRef). */
export const ENVOY_PROXY = 'kaas-edge';

/**
 * Labels Envoy Gateway puts on the envoy Service, Deployment and pods it creates for a Gateway
 * (internal/gatewayapi OwningGatewayNameLabel/OwningGatewayNamespaceLabel; the Service is named
 * `envoy-<gateway namespace>-<gateway>-<hash>`, so it is found by these labels, never by name).
 */
export const OWNING_GATEWAY_NAME_LABEL = 'gateway.envoyproxy.io/owning-gateway-name';
export const OWNING_GATEWAY_NAMESPACE_LABEL = 'gateway.envoyproxy.io/owning-gateway-namespace';

/** The label selector of what Envoy Gateway created for one Gateway. */
export function owningGatewaySelector(namespace: string, gateway: string): string {
  return `${OWNING_GATEWAY_NAME_LABEL}=${gateway},${OWNING_GATEWAY_NAMESPACE_LABEL}=${namespace}`;
}

/** What the EnvoyProxy's `provider.kubernetes.envoyService` holds. */
export interface EnvoyServicePlan {
  type: 'LoadBalancer';
  externalTrafficPolicy: 'Local' | 'Cluster';
  annotations: Record<string, string>;
}

/** The gateway decision: plain data, printable. */
export interface GatewayPlan {
  deploy: boolean;
  version?: BundledGatewayVersion;
  gatewayClass: string;
  provider: string;
  /** The edge decision shared with ingress-nginx (set when deploying). */
  edge?: EdgeLbPlan;
  envoyService?: EnvoyServicePlan;
  /** A ClientTrafficPolicy with `proxyProtocol: {}` on the default Gateway (amphora + PROXY). */
  clientTrafficPolicyProxy: boolean;
  /** Keys the gateway needs in cloud.conf [LoadBalancer] (enable-ingress-hostname with PROXY). */
  cloudConf: Record<string, string>;
}

const NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;

function chooseVersion(s: GatewaySettings): Decision<BundledGatewayVersion> {
  const reasons: string[] = [];
  const warnings: string[] = [];
  let version: BundledGatewayVersion;
  if (typeof s.deploy_gateway === 'string') {
    const found = findBundledGateway(s.deploy_gateway);
    if (!found) {
      return refused({
        message: `deploy_gateway: ${s.deploy_gateway} is not a bundled Envoy Gateway version`,
        problems: BUNDLED_GATEWAY_VERSIONS.map((b) => `${b.version} (Gateway API ${b.gatewayApi})`),
        hint: 'set deploy_gateway to true (the newest bundled release) or to one of the bundled versions above; kaas downloads nothing at apply time',
      });
    }
    version = found;
    reasons.push(`Envoy Gateway ${version.version} (Gateway API ${version.gatewayApi} standard channel): pinned by deploy_gateway.`);
  } else {
    version = BUNDLED_GATEWAY_VERSIONS[0];
    reasons.push(`Envoy Gateway ${version.version} (Gateway API ${version.gatewayApi} standard channel): the newest bundled release.`);
  }
  const minor = kubernetesMinor(s.kubernetes_version);
  const range = `${version.k8sMin.join('.')}–${version.k8sMax.join('.')}`;
  const cmp = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];
  // The Gateway API bundle carries a ValidatingAdmissionPolicy (admissionregistration.k8s.io/v1, GA in 1.30).
  if (minor && cmp(minor, [1, 30]) < 0) {
    return refused({
      message: `Envoy Gateway ${version.version} cannot run on Kubernetes ${s.kubernetes_version}: its Gateway API bundle needs ValidatingAdmissionPolicy v1 (Kubernetes 1.30 or later)`,
      hint: 'raise kubernetes_version, or set deploy_gateway: false',
    }, reasons);
  }
  if (!minor || cmp(minor, version.k8sMin) < 0 || cmp(minor, version.k8sMax) > 0) {
    warnings.push(`Envoy Gateway ${version.version} is tested with Kubernetes ${range}, not with kubernetes_version ${s.kubernetes_version}`);
  }
  return decided(version, reasons, warnings);
}

/** The EnvoyProxy envoyService and listener policy that carry an edge LB plan. */
export function envoyServiceFor(e: EdgeLbPlan): { envoyService: EnvoyServicePlan; clientTrafficPolicyProxy: boolean; reasons: string[] } {
  const reasons: string[] = [];
  if (e.proxyProtocol) {
    reasons.push(
      'A ClientTrafficPolicy with proxyProtocol on the Gateway: Envoy reads the PROXY header the amphora prepends.',
      // EG v1.9 ClientTrafficPolicy.spec.proxyProtocol has only `optional`; no trusted-source list exists.
      'Envoy trusts a PROXY header from any peer: Envoy Gateway v1.9 cannot limit it to node_cidr, so a pod that connects to the envoy pods directly (not through the load balancer) can claim any client address.',
    );
  }
  if (e.externalTrafficPolicy === 'Cluster') reasons.push('The envoy Service gets externalTrafficPolicy: Cluster (Envoy Gateway\'s default is Local).');
  return {
    envoyService: { type: 'LoadBalancer', externalTrafficPolicy: e.externalTrafficPolicy, annotations: { ...e.annotations } },
    clientTrafficPolicyProxy: e.proxyProtocol,
    reasons,
  };
}

/**
 * The pure gateway decision: whether to deploy Envoy Gateway, which bundled version, and how its
 * envoy Service meets the load balancer — through planEdgeLb, the decision ingress-nginx uses.
 */
export function planGateway(s: GatewaySettings, lb: LoadBalancerPlan): Decision<GatewayPlan> {
  const base: GatewayPlan = { deploy: false, gatewayClass: s.gateway_class, provider: lb.provider, clientTrafficPolicyProxy: false, cloudConf: {} };
  if (s.deploy_gateway === false) return decided(base, ['Gateway API / Envoy Gateway not deployed: deploy_gateway is false.']);
  if (!NAME.test(s.gateway_class) || s.gateway_class.length > 253) {
    return refused({
      message: `gateway_class "${s.gateway_class}" is not a valid Kubernetes object name`,
      hint: "use lower-case letters, digits, '-' and '.', e.g. gateway_class: kaas",
    });
  }
  return andThen(chooseVersion(s), (version) =>
    andThen(planEdgeLb(edgeSettings(s), lb), (edge) => {
      const svc = envoyServiceFor(edge);
      return decided(
        { ...base, deploy: true, version, edge, envoyService: svc.envoyService, clientTrafficPolicyProxy: svc.clientTrafficPolicyProxy, cloudConf: edge.cloudConf },
        [`GatewayClass ${s.gateway_class} → EnvoyProxy ${GATEWAY_NAMESPACE}/${ENVOY_PROXY} (parametersRef); default Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY}.`, ...svc.reasons],
      );
    }),
  );
}
