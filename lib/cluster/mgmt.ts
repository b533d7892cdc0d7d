import { PlanError } from '../errors.js';
import { ExecError } from '../exec/runner.js';
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

/**
 * Creates objects none of which exists yet (the live read found none) and which the server's dry-run
 * already accepted (serverDryRun): one `kubectl apply --server-side`, without converge's
 * `kubectl diff`, which for new objects would only repeat the dry-run and print every object whole.
 */
export async function createNew(k: Kubectl, objects: KubeObject[], logger: Logger, what: string): Promise<ConvergeResult> {
  logger.info(`${what}: creating ${objects.length} new objects (${objects.map(objectKey).join(', ')})`);
  const out = await k.apply(stringifyDocuments(objects), { forceConflicts: true });
  return { changed: true, applied: out.split('\n').filter(Boolean) };
}

// What kubectl prints when the apiserver (or an admission webhook) refuses an object, as opposed to
// not reaching it: `Error from server (…)`, the detail form `The X "n" is invalid: …`, a missing CRD.
const REFUSED = /^(Error from server|The [A-Za-z]+ "[^"]*" is invalid|error: resource mapping not found)/m;

/**
 * The gate before every real apply: `kubectl apply --server-side --dry-run=server` of the whole
 * object set. The apiserver runs defaulting, schema validation and every admission webhook (CAPI's
 * KubeadmControlPlane and MachineDeployment, CAPO's) and stores nothing. kubectl applies object by
 * object, so a refusal found only in the real apply would leave the objects before it created; a
 * refusal here throws a PlanError (exit 2) with the apiserver's words, before anything is written.
 */
export async function serverDryRun(k: Kubectl, objects: KubeObject[], what: string): Promise<void> {
  try {
    await k.apply(stringifyDocuments(objects), { forceConflicts: true, dryRun: 'server' });
  } catch (e) {
    if (!(e instanceof ExecError) || !REFUSED.test(e.stderrTail)) throw e;
    throw new PlanError(`the management cluster refuses ${what} (server-side dry-run; nothing was applied)`, {
      // The API server's `Warning: …` lines (a deprecated API version) are no part of the refusal.
      problems: e.stderrTail.split('\n').filter((l) => l && !/^Warning: /.test(l)),
      hint: 'change the setting behind the refused field (the message names it) and run create-cluster again',
    });
  }
}
