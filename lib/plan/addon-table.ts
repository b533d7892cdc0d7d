/**
 * The one table of the add-ons kaas puts onto a workload cluster: names, how the version follows
 * the Kubernetes minor, the container images per version, and version-dependent flags. The add-on
 * plan (lib/plan/addons.ts), the installer (lib/cluster/addons.ts) and the bundled templates
 * (templates/addons/, through the variables the installer passes) read versions, images and flags
 * from here and nowhere else; doctor and the gateway work read the same entries.
 */

/** Add-ons kaas knows. */
export type AddonName = 'occm' | 'cilium' | 'calico' | 'cinder-csi' | 'metrics-server' | 'cert-manager';

/** A value that applies to a version range of the add-on: from `from` (inclusive) below `below` (exclusive). */
export interface VersionRule<T> {
  from?: string;
  below?: string;
  value: T;
}

/** One add-on. */
export interface AddonEntry {
  name: AddonName;
  /**
   * How the default version is chosen: `kubernetes-minor` = the add-on release with the cluster's
   * minor (cloud-provider-openstack releases follow Kubernetes), capped at `newestMinor`; `fixed` =
   * `version`.
   */
  versioning: { kind: 'kubernetes-minor'; newestMinor: number } | { kind: 'fixed'; version: string };
  /** Versions the bundled template is written for (undefined = any version). */
  bundledVersions?: readonly string[];
  /** Container images by role ("main" = the add-on's own image); `{version}` is replaced. */
  images: Readonly<Record<string, string>>;
  /** Extra container arguments by role, per version range (e.g. Cinder CSI's service split). */
  flags: Readonly<Record<string, readonly VersionRule<readonly string[]>[]>>;
}

const CSI_SIDECARS = {
  attacher: 'registry.k8s.io/sig-storage/csi-attacher:v4.7.0',
  provisioner: 'registry.k8s.io/sig-storage/csi-provisioner:v5.1.0',
  resizer: 'registry.k8s.io/sig-storage/csi-resizer:v1.12.0',
  livenessProbe: 'registry.k8s.io/sig-storage/livenessprobe:v2.14.0',
  nodeDriverRegistrar: 'registry.k8s.io/sig-storage/csi-node-driver-registrar:v2.12.0',
} as const;

/** The add-on table. Newest cloud-provider-openstack minor known to kaas: occm-loadbalancer-facts.md. */
export const ADDONS: Readonly<Record<AddonName, AddonEntry>> = {
  occm: {
    name: 'occm',
    versioning: { kind: 'kubernetes-minor', newestMinor: 36 },
    images: { main: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:{version}' },
    flags: {},
  },
  cilium: { name: 'cilium', versioning: { kind: 'fixed', version: 'v1.17.6' }, images: {}, flags: {} },
  calico: {
    name: 'calico',
    versioning: { kind: 'fixed', version: 'v3.27.3' },
    bundledVersions: ['v3.27.3'],
    images: { cni: 'docker.io/calico/cni:{version}', node: 'docker.io/calico/node:{version}', kubeControllers: 'docker.io/calico/kube-controllers:{version}' },
    flags: {},
  },
  'cinder-csi': {
    name: 'cinder-csi',
    versioning: { kind: 'kubernetes-minor', newestMinor: 36 },
    images: { main: 'registry.k8s.io/provider-os/cinder-csi-plugin:{version}', ...CSI_SIDECARS },
    flags: {},
  },
  'metrics-server': {
    name: 'metrics-server',
    versioning: { kind: 'fixed', version: 'v0.7.2' },
    images: { main: 'registry.k8s.io/metrics-server/metrics-server:{version}' },
    flags: {},
  },
  'cert-manager': { name: 'cert-manager', versioning: { kind: 'fixed', version: 'v1.17.2' }, images: {}, flags: {} },
};

/** "v1.33.4" / "v1.33" → [1, 33, 4]; missing parts are 0; undefined when it is no version. */
function parts(version: string): number[] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(\d+))?/.exec(version);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3] ?? 0)] : undefined;
}

/** Compares two versions numerically (negative when a < b); unparsable versions sort first. */
export function compareAddonVersions(a: string, b: string): number {
  const pa = parts(a) ?? [-1, 0, 0];
  const pb = parts(b) ?? [-1, 0, 0];
  return pa[0] - pb[0] || pa[1] - pb[1] || pa[2] - pb[2];
}

/** True when `version` lies in the rule's range. */
export function ruleApplies(rule: VersionRule<unknown>, version: string): boolean {
  return (rule.from === undefined || compareAddonVersions(version, rule.from) >= 0)
    && (rule.below === undefined || compareAddonVersions(version, rule.below) < 0);
}

/** The add-on's default version for a cluster's Kubernetes version ("vX.Y.Z"). */
export function defaultAddonVersion(name: AddonName, kubernetesVersion: string): string {
  const v = ADDONS[name].versioning;
  if (v.kind === 'fixed') return v.version;
  const minor = parts(kubernetesVersion)?.[1] ?? v.newestMinor;
  return `v1.${Math.min(minor, v.newestMinor)}.0`;
}

/** The add-on's images for a version, by role. */
export function addonImages(name: AddonName, version: string): Record<string, string> {
  return Object.fromEntries(Object.entries(ADDONS[name].images).map(([role, image]) => [role, image.replaceAll('{version}', version)]));
}

/** The extra arguments of each container role for a version (roles without rules are absent). */
export function addonFlags(name: AddonName, version: string): Record<string, string[]> {
  return Object.fromEntries(Object.entries(ADDONS[name].flags).map(([role, rules]) => [role, rules.filter((r) => ruleApplies(r, version)).flatMap((r) => r.value)]));
}
