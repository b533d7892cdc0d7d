/**
 * The Envoy Gateway releases kaas bundles (templates/gateway/), each with the Gateway API bundle it
 * ships, its images and the Kubernetes minors its compatibility matrix lists
 * (gateway.envoyproxy.io/news/releases/matrix). Nothing is downloaded at apply time.
 */

/** One bundled Envoy Gateway release. */
export interface BundledGatewayVersion {
  /** "v1.9.0" */
  version: string;
  /** The Gateway API standard-channel bundle it ships, "v1.6.1". */
  gatewayApi: string;
  /** Oldest and newest Kubernetes minor of the compatibility matrix. */
  k8sMin: [number, number];
  k8sMax: [number, number];
  /** Folders under templates/gateway/. */
  dir: string;
  gatewayApiDir: string;
  images: { controlPlane: string; envoy: string; ratelimit: string };
}

/** Newest first. */
export const BUNDLED_GATEWAY_VERSIONS: readonly BundledGatewayVersion[] = [
  {
    version: 'v1.9.0', gatewayApi: 'v1.6.1', k8sMin: [1, 33], k8sMax: [1, 36],
    dir: 'envoy-gateway-v1.9.0', gatewayApiDir: 'gateway-api-v1.6.1',
    images: {
      controlPlane: 'docker.io/envoyproxy/gateway:v1.9.0',
      envoy: 'docker.io/envoyproxy/envoy:distroless-v1.39.0',
      ratelimit: 'docker.io/envoyproxy/ratelimit:17b1956c',
    },
  },
];

/** A bundled version by name ("v1.9.0"; a missing leading "v" is tolerated). */
export function findBundledGateway(version: string): BundledGatewayVersion | undefined {
  const want = version.startsWith('v') ? version : `v${version}`;
  return BUNDLED_GATEWAY_VERSIONS.find((b) => b.version === want);
}
