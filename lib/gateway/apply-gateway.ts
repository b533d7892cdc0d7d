import { clusterNames } from '../plan/cluster-model.js';
import { kubectlFactory } from '../kube/kubectl.js';
import type { ApplyIngressDeps, ApplyIngressOptions, ApplyIngressResult } from '../ingress/apply-ingress.js';
import { checkFloatingNetwork, loadEdgeRun, requireNamedCloud, writeDryRun } from '../ingress/apply-ingress.js';
import { decideGateway, formatGatewayPlan } from './plan.js';
import { gatewayObjects, renderGateway } from './render.js';

/** Inputs of `kaas apply-gateway <cluster>`: the same flags as apply-ingress. */
export type ApplyGatewayOptions = ApplyIngressOptions;
/** Adapters: the same as apply-ingress (kubectl, cloud, sleep injectable). */
export type ApplyGatewayDeps = ApplyIngressDeps;

/**
 * `kaas apply-gateway`: load settings → gateway plan (printed with its reasons, in the ingress
 * plan's format) → render → dry-run output, or apply to the workload cluster and verify. The same
 * structure as apply-ingress, and the same edge decision (lib/plan/edge.ts).
 */
export async function runApplyGateway(o: ApplyGatewayOptions, deps: ApplyGatewayDeps): Promise<ApplyIngressResult> {
  const { logger } = deps;
  const { s, getCloud } = loadEdgeRun(o, deps);
  const decision = await decideGateway(s, { capabilitiesFile: o.capabilitiesFile, cloud: getCloud });
  formatGatewayPlan(o.cluster, o.env, decision).forEach((l) => logger.info(l));
  decision.warnings.forEach((w) => logger.warn(w));
  const data: Record<string, unknown> = { cluster: o.cluster, loadBalancer: decision.lb, gateway: decision.gateway, reasons: decision.reasons };
  if (!decision.gateway.deploy) {
    logger.info('nothing to apply');
    return { text: '', data };
  }
  checkFloatingNetwork(decision.lb, o.dryRun, logger);

  const rendered = await renderGateway(decision.gateway);
  if (o.dryRun && !o.outputDir) {
    const raw = o.manifestFormat === 'json'
      ? JSON.stringify({ apiVersion: 'v1', kind: 'List', items: gatewayObjects(decision.gateway, rendered) }, null, 2) + '\n'
      : rendered.yaml;
    return { raw, data };
  }
  if (o.dryRun) {
    const files = writeDryRun(o, logger, getCloud(), { lb: decision.lb, occm: s.occm_loadbalancer, required: decision.gateway.cloudConf }, 'envoy-gateway.yaml', rendered.yaml);
    return { text: '', data: { ...data, files } };
  }

  requireNamedCloud(getCloud());
  // As in apply-ingress: the applying half loads only for a real run.
  const [{ applyGatewayToCluster }, { edgeKey, edgeKubeTarget }] = await Promise.all([import('./apply-steps.js'), import('../ingress/kubeconfig.js')]);
  const target = await edgeKubeTarget(o, s, deps);
  const kubectl = kubectlFactory(deps)(target);
  const applied = await applyGatewayToCluster(
    { names: clusterNames(s.namespace, o.cluster), key: edgeKey(o, s), force: o.force ?? false, timeouts: o.timeouts, verify: o.verify },
    { kubectl, logger, cloud: getCloud, sleep: deps.sleep },
    decision, rendered,
  );
  const v = decision.gateway.version!;
  return {
    text: `Envoy Gateway ${v.version} (Gateway API ${v.gatewayApi}) applied to cluster ${o.cluster}; Gateway envoy-gateway-system/kaas at ${applied.address}`,
    data: { ...data, applied },
  };
}
