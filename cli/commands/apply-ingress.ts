import { edgeApplyCommand } from './edge-apply.js';

/** kaas apply-ingress <cluster> [--dry-run] [--output-dir DIR] [--capabilities FILE] [--kubeconfig F] [--context C] [--force] */
export const applyIngress = edgeApplyCommand({
  name: 'apply-ingress',
  describe: 'deploy ingress-nginx to a workload cluster the right way for its load balancer (amphora + PROXY, amphora, OVN)',
  manifest: 'ingress-nginx.yaml',
  rolloutOf: 'controller',
  addressOf: 'the load-balancer address',
  dryRunShows: 'ingress-nginx, patched for the LB',
  run: async () => (await import('../../lib/ingress/apply-ingress.js')).runApplyIngress,
});
