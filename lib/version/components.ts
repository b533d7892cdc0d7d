import { CAPO_RELEASE, ORC_SINCE_CAPO, ORC_VERSION } from '../cluster/preflight.js';
import { CAPI_CURRENT, CAPI_END_OF_LIFE, CAPI_SUPPORTED, CAPO_SUPPORTED } from '../plan/management-versions.js';
import { ADDONS, type AddonEntry, type VersionRule } from '../plan/addon-table.js';
import { BUNDLED_GATEWAY_VERSIONS } from '../plan/gateway-versions.js';
import { BUNDLED_INGRESS_VERSIONS, rangeText } from '../plan/ingress-versions.js';

/** One component kaas deploys or needs, with the releases it bundles or is tested with. */
export interface ComponentVersions {
  /** "ingress-nginx", "cluster-api", an add-on's name … */
  name: string;
  /** The management cluster (kaas needs it there) or the workload cluster (kaas deploys it). */
  cluster: 'management' | 'workload';
  /** The releases, newest first. */
  versions: string[];
  /** Which one kaas takes, or what the version means. */
  note: string;
}

const minor = (m: readonly [number, number]) => `v${m[0]}.${m[1]}`;

/** The management cluster's providers: the releases kaas is tested with (lib/cluster/preflight.ts). */
function managementComponents(): ComponentVersions[] {
  const eol = Object.entries(CAPI_END_OF_LIFE).map(([m, when]) => `v${m} reaches end of life ${when}`).join('; ');
  return [
    { name: 'cluster-api', cluster: 'management', versions: [...CAPI_SUPPORTED].reverse().map(minor), note: `supported minors with CAPO ${CAPO_SUPPORTED.map(minor).join(', ')}; the fix lines name ${CAPI_CURRENT}${eol ? `; ${eol}` : ''}` },
    { name: 'cluster-api-provider-openstack', cluster: 'management', versions: [CAPO_RELEASE], note: 'tested with' },
    { name: 'openstack-resource-controller', cluster: 'management', versions: [ORC_VERSION], note: `the release kaas's fix installs; CAPO ≥ ${minor(ORC_SINCE_CAPO)} needs ORC` },
  ];
}

const ruleText = (r: VersionRule<string>) => `${r.value} ${r.from && r.below ? `for ${r.from} ≤ Kubernetes < ${r.below}` : r.from ? `from Kubernetes ${r.from}` : `below Kubernetes ${r.below}`}`;

/** An add-on's versions and how kaas picks one, from its entry in the add-on table. */
export function addonVersions(e: AddonEntry): Pick<ComponentVersions, 'versions' | 'note'> {
  const v = e.versioning;
  if (v.kind === 'fixed') return { versions: [v.version], note: `the default (setting ${e.setting})` };
  if (v.kind === 'kubernetes-table') {
    const versions = [...new Set(v.rules.map((r) => r.value))].reverse();
    return { versions, note: `by the cluster's Kubernetes version (setting ${e.setting}): ${v.rules.map(ruleText).join('; ')}` };
  }
  return { versions: [`v1.${v.newestMinor}.0`], note: `the release of the cluster's Kubernetes minor (v1.<minor>.0), at most v1.${v.newestMinor}.0 (setting ${e.setting})` };
}

/** The workload cluster's edge: the bundled ingress-nginx, Envoy Gateway and Gateway API releases. */
function edgeComponents(): ComponentVersions[] {
  const gatewayApi = [...new Set(BUNDLED_GATEWAY_VERSIONS.map((g) => g.gatewayApi))];
  return [
    {
      name: 'ingress-nginx', cluster: 'workload', versions: BUNDLED_INGRESS_VERSIONS.map((b) => b.version),
      note: `bundled; by the cluster's Kubernetes minor: ${BUNDLED_INGRESS_VERSIONS.map((b) => `${b.version} for ${rangeText(b)}`).join(', ')}`,
    },
    {
      name: 'envoy-gateway', cluster: 'workload', versions: BUNDLED_GATEWAY_VERSIONS.map((g) => g.version),
      note: `bundled; ${BUNDLED_GATEWAY_VERSIONS.map((g) => `${g.version} with Gateway API ${g.gatewayApi}, envoy ${g.images.envoy.split(':').pop()}, for Kubernetes ${g.k8sMin.join('.')}–${g.k8sMax.join('.')}`).join('; ')}`,
    },
    { name: 'gateway-api', cluster: 'workload', versions: gatewayApi, note: 'bundled CRDs (standard channel), shipped with Envoy Gateway' },
  ];
}

/**
 * Every component version kaas bundles or is tested with, read from the tables kaas decides with
 * (preflight's releases, the add-on table, the bundled ingress-nginx and Envoy Gateway releases).
 */
export function componentVersions(): ComponentVersions[] {
  const addons = Object.values(ADDONS).map((e): ComponentVersions => ({ name: e.name, cluster: 'workload', ...addonVersions(e) }));
  return [...managementComponents(), ...edgeComponents(), ...addons];
}
