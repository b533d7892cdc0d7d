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

/** How removeGateway waits for the Gateway to be gone (tests shorten it). */
export interface RemoveGatewayWait {
  /** Default 60 s: Envoy Gateway lets go of a Gateway within seconds when it runs. */
  waitSec?: number;
  pollMs?: number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * Removes the gateway from a workload cluster (delete-cluster): every Gateway of kaas's record
 * first (Envoy Gateway then deletes its envoy Service, and OCCM the Octavia LB), then the recorded
 * control plane and edge objects, so no controller re-creates a Service afterwards. The CRDs stay
 * (they go with the cluster). Idempotent.
 *
 * The Gateway is deleted without kubectl's wait (review 2026-11-27 n3, as the ingress Service): a broken
 * controller that never removes its finalizer held kubectl until it was killed after minutes, which
 * delete-cluster read as "workload unreachable" and skipped the PVCs. kaas waits itself, bounded, and
 * when the Gateway is still there says what holds it and goes on (delete-cluster follows the load
 * balancer in Octavia).
 */
export async function removeGateway(kubectl: Kubectl, key: LocalKey, logger: Logger, w: RemoveGatewayWait = {}): Promise<void> {
  const kind = 'gateway.gateway.networking.k8s.io';
  const scope = { namespace: GATEWAY_NAMESPACE };
  const held = await stepped(logger, `deleting Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} (Envoy Gateway removes its Service, OCCM its load balancer)`, async () => {
    await kubectl.delete([`${kind}/${DEFAULT_GATEWAY}`], { ...scope, wait: false });
    return waitGone(kubectl, kind, scope, w);
  });
  if (held) {
    logger.warn(`Gateway ${GATEWAY_NAMESPACE}/${DEFAULT_GATEWAY} is still there after ${w.waitSec ?? 60}s (${held}): its controller does not let go; going on, the load balancer is followed in Octavia. Look: kubectl get ${kind} ${DEFAULT_GATEWAY} -n ${GATEWAY_NAMESPACE} -o yaml`);
  }
  const manifest = readApplied(key, GATEWAY_RECORD);
  if (manifest) {
    await kubectl.deleteManifest(manifest, { wait: false });
    rmSync(path.join(appliedDir(key), `${GATEWAY_RECORD}.yaml`), { force: true });
  }
}

/** Polls until the Gateway is gone; undefined then, else what holds it (its finalizers, whether deletion began). */
async function waitGone(kubectl: Kubectl, kind: string, scope: { namespace: string }, w: RemoveGatewayWait): Promise<string | undefined> {
  const sleep = w.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const deadline = Date.now() + (w.waitSec ?? 60) * 1000;
  for (;;) {
    const gw = await kubectl.getJson<{ metadata?: { deletionTimestamp?: unknown; finalizers?: unknown } }>(kind, DEFAULT_GATEWAY, scope);
    if (!gw) return undefined;
    if (Date.now() >= deadline) {
      const f = Array.isArray(gw.metadata?.finalizers) ? gw.metadata.finalizers.filter((x): x is string => typeof x === 'string') : [];
      const since = typeof gw.metadata?.deletionTimestamp === 'string' ? `being deleted since ${gw.metadata.deletionTimestamp}` : 'not marked for deletion';
      return `${since}; finalizers: ${f.length ? f.map((x) => JSON.stringify(x)).join(', ') : 'none'}`;
    }
    await sleep(w.pollMs ?? 2000);
  }
}
