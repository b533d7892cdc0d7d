import { existsSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { appliedDir, type LocalKey } from '../state/local-state.js';
import { writeFileAtomic } from '../fs/atomic.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../plan/edge-names.js';

/**
 * What kaas applied to a workload cluster, kept as files (like the SCS scripts'
 * deployed-manifests.d) under `~/.kube/kaas/env.<env>/<namespace>/<cluster>/applied/<name>.yaml`
 * (cluster/local-state.ts), next to the kubeconfig create-cluster writes. delete-cluster uses them
 * to remove the objects (first the LoadBalancer Service, so that OCCM deletes its Octavia LB before
 * the cluster disappears).
 */

export { appliedDir };

/**
 * Saves an applied manifest atomically (dir 0700, file 0600 from the first byte: it is as private
 * as the kubeconfig beside it); returns its path. A crash mid-write keeps the previous record.
 */
export function recordApplied(key: LocalKey, name: string, manifest: string): string {
  const file = path.join(appliedDir(key), `${name}.yaml`);
  writeFileAtomic(file, manifest, { secret: true });
  return file;
}

/** The manifest saved under `name`, or undefined when nothing was recorded. */
export function readApplied(key: LocalKey, name: string): string | undefined {
  const file = path.join(appliedDir(key), `${name}.yaml`);
  return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
}

/**
 * Removes the ingress from a workload cluster: deletes the controller Service without waiting, then
 * everything else recorded, then the record. OCCM's finalizer holds the Service until the Octavia LB
 * and its floating IP are gone; a broken OCCM never lets go, and kubectl's wait would be killed after
 * minutes and read as "workload unreachable", skipping the PVCs (their Cinder volumes leaked).
 * delete-cluster waits for the load balancer in Octavia instead. Idempotent: missing objects and a
 * missing record are fine.
 */
export async function removeIngress(kubectl: Kubectl, key: LocalKey, logger: Logger): Promise<void> {
  const step = logger.step(`deleting the ingress Service ${INGRESS_NAMESPACE}/${CONTROLLER_SERVICE} (OCCM removes its load balancer)`);
  try {
    await kubectl.delete(['service', CONTROLLER_SERVICE], { namespace: INGRESS_NAMESPACE, wait: false });
    step.succeed();
  } catch (e) {
    step.fail();
    throw e;
  }
  const manifest = readApplied(key, 'ingress-nginx');
  if (manifest) {
    await kubectl.deleteManifest(manifest, { wait: false });
    rmSync(path.join(appliedDir(key), 'ingress-nginx.yaml'), { force: true });
  }
}
