import { rmSync } from 'node:fs';
import path from 'node:path';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE } from '../plan/gateway.js';
import { stepped } from '../ingress/apply-steps.js';
import { appliedDir, readApplied } from '../ingress/applied.js';
import type { LocalKey } from '../state/local-state.js';

/** The name under which apply-gateway records what it applied (the cluster's applied/ folder, cluster/local-state.ts). */
export const GATEWAY_RECORD = 'envoy-gateway';

/**
 * Removes the gateway from a workload cluster (delete-cluster): every Gateway of kaas's record
 * first (Envoy Gateway then deletes its envoy Service, and OCCM the Octavia LB), then the recorded
 * control plane and edge objects, so no controller re-creates a Service afterwards. The CRDs stay
 * (they go with the cluster). Idempotent.
 */
export async function removeGateway(kubectl: Kubectl, key: LocalKey, logger: Logger): Promise<void> {
  await stepped(logger, `deleting Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} (Envoy Gateway removes its Service, OCCM its load balancer)`, () =>
    kubectl.delete([`gateway.gateway.networking.k8s.io/${DEFAULT_GATEWAY}`], { namespace: GATEWAY_NAMESPACE }));
  const manifest = readApplied(key, GATEWAY_RECORD);
  if (manifest) {
    await kubectl.deleteManifest(manifest, { wait: false });
    rmSync(path.join(appliedDir(key), `${GATEWAY_RECORD}.yaml`), { force: true });
  }
}
