import { edgeApplyCommand } from './edge-apply.js';

/** kaas apply-gateway <cluster> [--dry-run] [--output-dir DIR] [--capabilities FILE] [--kubeconfig F] [--context C] [--force] */
export const applyGateway = edgeApplyCommand({
  name: 'apply-gateway',
  describe: 'deploy the Gateway API with Envoy Gateway (the supported successor of ingress-nginx), its envoy Service made right for the load balancer (amphora + PROXY, amphora, OVN)',
  manifest: 'envoy-gateway.yaml',
  rolloutOf: 'Envoy Gateway',
  addressOf: 'the Gateway to be Programmed and its load-balancer address',
  dryRunShows: 'CRDs, control plane, GatewayClass, EnvoyProxy, Gateway',
  run: async () => (await import('../../lib/gateway/apply-gateway.js')).runApplyGateway,
});
