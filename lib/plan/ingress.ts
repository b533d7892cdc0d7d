import type { Settings } from '../settings/types.js';
import {
  BUNDLED_INGRESS_VERSIONS, defaultIngressVersion, findBundled, kubernetesMinor, rangeText, supportsKubernetes,
  type BundledIngressVersion,
} from './ingress-versions.js';
import { andThen, decided, refused, type Decision } from './decision.js';
import { edgeSettings, planEdgeLb, type EdgeLbPlan } from './edge.js';
import type { LoadBalancerPlan } from './types.js';

/** The settings the ingress decision reads. */
export type IngressSettings = Pick<
  Settings,
  'deploy_nginx_ingress' | 'nginx_use_proxy' | 'node_cidr' | 'deploy_harbor' | 'harbor_domain_name' | 'occm_loadbalancer' | 'kubernetes_version'
> & Partial<Pick<Settings, 'pod_cidr'>>;

/**
 * How ingress-nginx meets the load balancer:
 * - `amphora-proxy`: health-monitor annotation + PROXY protocol (Service annotation, ConfigMap keys);
 * - `amphora-monitor`: the health-monitor annotation only;
 * - `amphora-plain`: upstream unchanged, `create-monitor` is already on in cloud.conf;
 * - `ovn`: upstream unchanged, monitors from cloud.conf `create-monitor=true`, no PROXY protocol;
 * - `amphora-cluster` / `amphora-proxy-cluster`: monitors switched off (create-monitor: false), so
 *   externalTrafficPolicy: Cluster (with PROXY protocol in the second).
 */
export type IngressVariant = 'amphora-proxy' | 'amphora-monitor' | 'amphora-plain' | 'ovn' | 'amphora-cluster' | 'amphora-proxy-cluster';

/** Template patches (templates/ingress/patches/<name>.yaml.hbs) of each variant, in order. */
export const VARIANT_PATCHES: Record<IngressVariant, string[]> = {
  'amphora-proxy': ['health-monitor', 'proxy-protocol'],
  'amphora-monitor': ['health-monitor'],
  'amphora-plain': [],
  ovn: [],
  'amphora-cluster': ['etp-cluster'],
  'amphora-proxy-cluster': ['proxy-protocol', 'etp-cluster'],
};

/** The ingress decision: plain data plus the reasons (sentences) and warnings to print. */
export interface IngressPlan {
  deploy: boolean;
  /** Set when deploy is true. */
  version?: BundledIngressVersion;
  variant?: IngressVariant;
  provider: string;
  /** Where health monitors come from. */
  monitor: 'service annotation' | 'cloud.conf create-monitor' | 'none';
  proxyProtocol: boolean;
  /** The controller Service's externalTrafficPolicy (Cluster only without a health monitor). */
  externalTrafficPolicy?: 'Local' | 'Cluster';
  /** Whom ingress-nginx trusts for PROXY headers (proxy-real-ip-cidr): the edge plan's trustedProxyCidrs; set only with PROXY protocol. */
  trustedProxyCidrs?: string[];
  /** Keys the ingress needs in cloud.conf [LoadBalancer] (enable-ingress-hostname with PROXY). */
  cloudConf: Record<string, string>;
  reasons: string[];
  warnings: string[];
}

/** The ingress variant that carries an edge LB plan. */
function ingressVariant(e: EdgeLbPlan, lb: LoadBalancerPlan): IngressVariant {
  if (lb.ovn) return 'ovn';
  if (e.externalTrafficPolicy === 'Cluster') return e.proxyProtocol ? 'amphora-proxy-cluster' : 'amphora-cluster';
  if (e.proxyProtocol) return 'amphora-proxy';
  return e.monitor === 'cloud.conf create-monitor' ? 'amphora-plain' : 'amphora-monitor';
}

/** The retirement notice printed whenever ingress-nginx is deployed. */
export const RETIREMENT_WARNING =
  'ingress-nginx is retired upstream: no releases, bug fixes or security fixes after March 2026 ' +
  '(https://kubernetes.io/blog/2025/11/11/ingress-nginx-retirement/); plan a move to a Gateway API implementation';

/** Picks the bundled version: `true` → the default for kubernetes_version; "vX.Y.Z" → that bundled version (refused when not bundled). */
export function chooseIngressVersion(s: IngressSettings, forced: boolean): Decision<BundledIngressVersion> {
  const minor = kubernetesMinor(s.kubernetes_version);
  const reasons: string[] = [];
  let version: BundledIngressVersion;
  if (typeof s.deploy_nginx_ingress === 'string') {
    const found = findBundled(s.deploy_nginx_ingress);
    if (!found) {
      return refused({
        message: `deploy_nginx_ingress: ${s.deploy_nginx_ingress} is not a bundled ingress-nginx version`,
        problems: BUNDLED_INGRESS_VERSIONS.map((b) => `${b.version} (Kubernetes ${rangeText(b)})`),
        hint: 'set deploy_nginx_ingress to true (the version matching kubernetes_version) or to one of the bundled versions above; kaas downloads nothing at apply time',
      });
    }
    version = found;
    reasons.push(`ingress-nginx ${version.version}: pinned by deploy_nginx_ingress.`);
  } else {
    const d = defaultIngressVersion(minor);
    version = d.pick;
    reasons.push(
      d.inRange
        ? `ingress-nginx ${version.version}: the newest bundled release tested with Kubernetes ${minor!.join('.')} (${rangeText(version)}).`
        : `ingress-nginx ${version.version}: no bundled release is tested with Kubernetes ${s.kubernetes_version}; using the closest.`,
    );
    if (forced) reasons.push('deploy_nginx_ingress is false, but Harbor needs an ingress: deploy_harbor is true and harbor_domain_name is set.');
  }
  const warnings: string[] = [];
  if (!minor || !supportsKubernetes(version, minor)) {
    warnings.push(`ingress-nginx ${version.version} is tested with Kubernetes ${rangeText(version)}, not with kubernetes_version ${s.kubernetes_version}`);
  }
  warnings.push(RETIREMENT_WARNING);
  return decided(version, reasons, warnings);
}

/**
 * The pure decision: whether to deploy ingress-nginx, which bundled version, which variant, and
 * what cloud.conf must hold for it. Refused for an unbundled pinned version and for PROXY protocol
 * without a node CIDR (the old scripts wrote `proxy-real-ip-cidr: "null"`). The plan carries its
 * reasons and warnings too, for printing.
 */
export function planIngress(s: IngressSettings, lb: LoadBalancerPlan): Decision<IngressPlan> {
  const base = { provider: lb.provider, monitor: 'none' as const, proxyProtocol: false, cloudConf: {}, warnings: [] as string[] };
  const forced = s.deploy_nginx_ingress === false && s.deploy_harbor && s.harbor_domain_name.trim() !== '';
  if (s.deploy_nginx_ingress === false && !forced) {
    const why = s.deploy_harbor ? ' (deploy_harbor is true, but harbor_domain_name is empty, so Harbor needs no ingress)' : '';
    const reasons = [`ingress-nginx not deployed: deploy_nginx_ingress is false${why}.`];
    return decided({ ...base, deploy: false, reasons }, reasons);
  }
  const planned = andThen(chooseIngressVersion(s, forced), (version) => {
    const edge = planEdgeLb(edgeSettings(s), lb);
    if (!edge.ok) return edge;
    const e = edge.value;
    const variant = ingressVariant(e, lb);
    const lead = lb.ovn ? ['OVN load balancer: the upstream manifest unchanged.'] : variant === 'amphora-plain' ? ['The upstream manifest unchanged.'] : [];
    return decided(
      { ...base, deploy: true, version, variant, monitor: e.monitor, proxyProtocol: e.proxyProtocol, externalTrafficPolicy: e.externalTrafficPolicy, ...(e.trustedProxyCidrs ? { trustedProxyCidrs: e.trustedProxyCidrs } : {}), cloudConf: e.cloudConf },
      [...lead, ...edge.reasons],
      edge.warnings,
    );
  });
  return planned.ok ? decided({ ...planned.value, reasons: planned.reasons, warnings: planned.warnings }, planned.reasons, planned.warnings) : planned;
}
