import { serverSideDiff } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { objectKey, stringifyDocuments, type KubeObject } from '../render/documents.js';

/**
 * Converging the objects on the management cluster (diff first, apply only on change). The
 * preflight (is it ready for kaas at all) lives in preflight.ts.
 */

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
