/**
 * The one table of the add-ons kaas puts onto a workload cluster: names, how the version follows
 * the Kubernetes minor, the container images per version, and version-dependent flags. The add-on
 * plan (lib/plan/addons.ts), the installer (lib/cluster/create/addons.ts) and the bundled templates
 * (templates/addons/, through the variables the installer passes) read versions, images and flags
 * from here and nowhere else; doctor and the gateway work read the same entries.
 */

import { decided, refused, type Decision } from './decision.js';

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
  /** The setting that turns the add-on on or off, or pins its version. */
  setting: string;
  /**
   * How the default version is chosen: `kubernetes-minor` = the add-on release with the cluster's
   * minor (cloud-provider-openstack releases follow Kubernetes), capped at `newestMinor`; `fixed` =
   * `version`; `kubernetes-table` = the release whose tested Kubernetes versions cover the cluster's.
   */
  versioning:
    | { kind: 'kubernetes-minor'; newestMinor: number }
    | { kind: 'fixed'; version: string }
    /** A release per Kubernetes version range (rules over the Kubernetes version, first match wins; the last rule is the fallback). */
    | { kind: 'kubernetes-table'; rules: readonly VersionRule<string>[] };
  /** Versions the bundled template is written for (undefined = any version). */
  bundledVersions?: readonly string[];
  /** Container images by role ("main" = the add-on's own image); `{version}` is replaced. */
  images: Readonly<Record<string, string>>;
  /**
   * Extra container arguments by role, per version range (e.g. Cinder CSI's service split). An
   * add-on with flags needs a release version (vX.Y.Z): otherwise kaas cannot tell which apply.
   */
  flags: Readonly<Record<string, readonly VersionRule<readonly string[]>[]>>;
  /** Why the flags are what they are, per version range (`{version}` is replaced): the plan's reasons. */
  flagReasons?: readonly VersionRule<string>[];
}

/**
 * First cloud-provider-openstack release whose cinder-csi-plugin knows --provide-controller-service
 * / --provide-node-service (PR #2316, merged 2024-02, first released in v1.30.0; later
 * cherry-picked into some v1.28/v1.29 patch releases, so those are treated as not having them).
 * The plugin parses its flags strictly: an unknown flag stops the container, so an older plugin
 * gets the older form — both services in one binary, the controller told apart only by --cluster.
 */
export const CSI_SERVICE_FLAGS_SINCE = 'v1.30.0';

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
    setting: 'deploy_occm',
    versioning: { kind: 'kubernetes-minor', newestMinor: 36 },
    images: { main: 'registry.k8s.io/provider-os/openstack-cloud-controller-manager:{version}' },
    flags: {},
  },
  cilium: {
    name: 'cilium',
    setting: 'use_cilium',
    // Cilium's "Kubernetes Compatibility" page (Documentation/network/kubernetes/compatibility.rst) lists the
    // versions each release is e2e-tested on: v1.17 → 1.29–1.32, v1.18.14 → 1.30–1.33, v1.19.3 → 1.32–1.35,
    // v1.20.2 → 1.33–1.36 (the page in the github.com/cilium/cilium v1.20.2 module).
    versioning: {
      kind: 'kubernetes-table',
      rules: [
        { below: 'v1.33.0', value: 'v1.17.6' },
        { from: 'v1.33.0', below: 'v1.34.0', value: 'v1.18.14' },
        { from: 'v1.34.0', below: 'v1.36.0', value: 'v1.19.3' },
        { from: 'v1.36.0', value: 'v1.20.2' },
      ],
    },
    images: {},
    flags: {},
  },
  calico: {
    name: 'calico',
    setting: 'calico_version',
    versioning: { kind: 'fixed', version: 'v3.27.3' },
    bundledVersions: ['v3.27.3'],
    images: { cni: 'docker.io/calico/cni:{version}', node: 'docker.io/calico/node:{version}', kubeControllers: 'docker.io/calico/kube-controllers:{version}' },
    flags: {},
  },
  'cinder-csi': {
    name: 'cinder-csi',
    setting: 'deploy_cindercsi',
    versioning: { kind: 'kubernetes-minor', newestMinor: 36 },
    images: { main: 'registry.k8s.io/provider-os/cinder-csi-plugin:{version}', ...CSI_SIDECARS },
    // Roles: the cinder-csi-plugin container of the controller Deployment and of the node DaemonSet.
    flags: {
      controller: [{ from: CSI_SERVICE_FLAGS_SINCE, value: ['--provide-node-service=false'] }],
      node: [{ from: CSI_SERVICE_FLAGS_SINCE, value: ['--provide-controller-service=false'] }],
    },
    flagReasons: [
      { from: CSI_SERVICE_FLAGS_SINCE, value: 'Cinder CSI {version}: controller and node plugins each run only their own service (--provide-*-service, since v1.30.0).' },
      { below: CSI_SERVICE_FLAGS_SINCE, value: 'Cinder CSI {version} predates --provide-controller-service/--provide-node-service (v1.30.0): both plugins get the older arguments.' },
    ],
  },
  'metrics-server': {
    name: 'metrics-server',
    setting: 'deploy_metrics',
    versioning: { kind: 'fixed', version: 'v0.7.2' },
    images: { main: 'registry.k8s.io/metrics-server/metrics-server:{version}' },
    flags: {},
  },
  'cert-manager': { name: 'cert-manager', setting: 'deploy_cert_manager', versioning: { kind: 'fixed', version: 'v1.17.2' }, images: {}, flags: {} },
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
  if (v.kind === 'kubernetes-table') return (v.rules.find((r) => ruleApplies(r, kubernetesVersion)) ?? v.rules[v.rules.length - 1]).value;
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

/**
 * The flags of an add-on version as a decision: the flags with the table's reasons, or refused
 * when the add-on has version-dependent flags and the version is no release (vX.Y.Z).
 */
export function planAddonFlags(name: AddonName, version: string): Decision<Record<string, string[]>> {
  const e = ADDONS[name];
  const reasons = (e.flagReasons ?? []).filter((r) => ruleApplies(r, version)).map((r) => r.value.replaceAll('{version}', version));
  if (Object.keys(e.flags).length && !/^v?\d+\.\d+\.\d+/.test(version)) {
    const example = e.versioning.kind === 'fixed' ? e.versioning.version : e.versioning.kind === 'kubernetes-table' ? e.versioning.rules[e.versioning.rules.length - 1].value : `v1.${e.versioning.newestMinor}.0`;
    const image = e.images.main?.split('/').pop()?.split(':')[0] ?? name;
    return refused({
      message: `${image} version "${version}" is not a release version (vX.Y.Z): kaas cannot tell which flags it knows`,
      hint: `set ${e.setting} to true (the version matching kubernetes_version) or to a release such as ${example}`,
    });
  }
  return decided(addonFlags(name, version), reasons);
}
