/**
 * The ingress-nginx versions kaas bundles (templates/ingress/upstream/), with the Kubernetes minors
 * each was tested against (kubernetes/ingress-nginx README, "Supported Versions table"). Nothing is
 * downloaded at apply time: a version not listed here cannot be deployed.
 */

/** One bundled ingress-nginx controller release. */
export interface BundledIngressVersion {
  /** "v1.15.1" */
  version: string;
  /** Oldest and newest supported Kubernetes minor, e.g. [1, 31] and [1, 35]. */
  k8sMin: [number, number];
  k8sMax: [number, number];
  /** File under templates/ingress/upstream/. */
  file: string;
}

/** Newest first. */
export const BUNDLED_INGRESS_VERSIONS: readonly BundledIngressVersion[] = [
  { version: 'v1.15.1', k8sMin: [1, 31], k8sMax: [1, 35], file: 'deploy-cloud-v1.15.1.yaml' },
  { version: 'v1.14.5', k8sMin: [1, 30], k8sMax: [1, 34], file: 'deploy-cloud-v1.14.5.yaml' },
  { version: 'v1.9.6', k8sMin: [1, 25], k8sMax: [1, 29], file: 'deploy-cloud-v1.9.6.yaml' },
];

/** The Kubernetes minor of "v1.33.x" / "v1.33.2" / "1.33"; undefined when it does not parse. */
export function kubernetesMinor(version: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.(?:\d+|x))?$/.exec(version.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

const cmp = (a: [number, number], b: [number, number]) => a[0] - b[0] || a[1] - b[1];

/** Whether a Kubernetes minor lies within a bundled version's tested range. */
export function supportsKubernetes(v: BundledIngressVersion, minor: [number, number]): boolean {
  return cmp(minor, v.k8sMin) >= 0 && cmp(minor, v.k8sMax) <= 0;
}

/** "1.31–1.35" */
export function rangeText(v: BundledIngressVersion): string {
  return `${v.k8sMin.join('.')}–${v.k8sMax.join('.')}`;
}

/** A bundled version by its name ("v1.14.5"; a missing leading "v" is tolerated). */
export function findBundled(version: string): BundledIngressVersion | undefined {
  const want = version.startsWith('v') ? version : `v${version}`;
  return BUNDLED_INGRESS_VERSIONS.find((b) => b.version === want);
}

/**
 * The default version for a cluster: the newest bundled release whose tested range contains the
 * cluster's Kubernetes minor; when none does, the newest bundled release if the cluster is newer
 * than every range, else the oldest (closest to an old cluster). The second value says whether the
 * pick is inside its tested range.
 */
export function defaultIngressVersion(minor: [number, number] | undefined): { pick: BundledIngressVersion; inRange: boolean } {
  const newest = BUNDLED_INGRESS_VERSIONS[0];
  if (!minor) return { pick: newest, inRange: false };
  const fit = BUNDLED_INGRESS_VERSIONS.find((b) => supportsKubernetes(b, minor));
  if (fit) return { pick: fit, inRange: true };
  const oldest = BUNDLED_INGRESS_VERSIONS[BUNDLED_INGRESS_VERSIONS.length - 1];
  return { pick: cmp(minor, newest.k8sMax) > 0 ? newest : oldest, inRange: false };
}
