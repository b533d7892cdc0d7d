import { OperationError } from '../errors.js';
import { serverSideDiff, servedApiVersions } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { objectKey, stringifyDocuments, type KubeObject } from '../render/documents.js';
import type { CheckList } from './checks.js';

/**
 * The management cluster: is it reachable, are Cluster API and CAPO installed and do they serve
 * the API versions kaas renders; then converge the objects (diff first, apply only on change).
 */

/** API groups kaas renders, with what installs them. */
export const REQUIRED_APIS = [
  { gv: 'cluster.x-k8s.io/v1beta1', what: 'Cluster API core' },
  { gv: 'bootstrap.cluster.x-k8s.io/v1beta1', what: 'Cluster API kubeadm bootstrap provider' },
  { gv: 'controlplane.cluster.x-k8s.io/v1beta1', what: 'Cluster API kubeadm control-plane provider' },
] as const;

/** Checks the management cluster; returns the API versions CAPO's OpenStackCluster CRD serves. */
export async function checkManagementCluster(k: Kubectl, checks: CheckList): Promise<string[]> {
  const served = await servedApiVersions(k);
  const missing = REQUIRED_APIS.filter((a) => !served.includes(a.gv));
  if (missing.length) {
    const detail = `the management cluster does not serve ${missing.map((m) => `${m.gv} (${m.what})`).join(', ')}`;
    checks.failed('management cluster', detail);
    throw new OperationError(detail, { hint: 'install Cluster API and CAPO on it: clusterctl init --infrastructure openstack' });
  }
  const crd = await k.getJson<{ spec?: { versions?: { name: string; served: boolean }[] } }>('customresourcedefinition', 'openstackclusters.infrastructure.cluster.x-k8s.io');
  const capo = (crd?.spec?.versions ?? []).filter((v) => v.served).map((v) => v.name);
  if (!capo.includes('v1beta1')) {
    const detail = crd
      ? `CAPO serves OpenStackCluster ${capo.join(', ') || 'in no version'}, kaas needs v1beta1 (CAPO ≥ v0.10)`
      : 'CAPO (cluster-api-provider-openstack) is not installed';
    checks.failed('CAPO', detail);
    throw new OperationError(detail, { hint: 'clusterctl init --infrastructure openstack (or clusterctl upgrade apply)' });
  }
  checks.ok('management cluster', `Cluster API served (${REQUIRED_APIS.map((a) => a.gv).join(', ')})`);
  checks.ok('CAPO', `OpenStackCluster served as ${capo.join(', ')}`);
  return capo;
}

/** What converging did. */
export interface ConvergeResult {
  changed: boolean;
  /** Lines of kubectl's apply output (one per object). */
  applied: string[];
}

/**
 * Shows what would change (kubectl diff --server-side) and applies only when something does.
 * Re-running on an unchanged cluster applies nothing.
 */
export async function converge(k: Kubectl, objects: KubeObject[], logger: Logger, what: string): Promise<ConvergeResult> {
  const manifest = stringifyDocuments(objects);
  const d = await serverSideDiff(k, manifest);
  if (!d.changed) {
    logger.info(`${what}: no changes (${objects.length} objects up to date)`);
    return { changed: false, applied: [] };
  }
  logger.info(`${what}: changes to apply:\n${d.diff.trimEnd()}`);
  const out = await k.apply(manifest, { forceConflicts: true });
  logger.debug(`applied ${objects.map(objectKey).join(', ')}`);
  return { changed: true, applied: out.split('\n').filter(Boolean) };
}
