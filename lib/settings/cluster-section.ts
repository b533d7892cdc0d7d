import { UsageError } from '../errors.js';
import { didYouMeanIn } from './suggest.js';

/**
 * A cluster name that has no `clusters.<name>` section. When the environment file lists clusters, a
 * name outside the list is most often a typo (`dmo` for `demo`), and the cluster would be built from
 * the environment-level settings alone (in an imported file, nearly all defaults). A command that
 * changes things refuses it unless the user says the cluster is new (--new-cluster); a read-only run
 * (a dry run, doctor, detect, delete-cluster: see docs/reference/settings.md) only warns. Pure.
 */

/** What a command does with a name missing from the clusters: map. */
export type MissingClusterMode =
  /** A real run of a mutating command (create-cluster, apply-ingress, apply-gateway). */
  | 'refuse'
  /** A dry run, a read-only command, or a cleanup (delete-cluster). */
  | 'warn'
  /** --new-cluster: the user said the cluster is not in the file yet. */
  | 'accept';

/** The flag that lets a mutating command run a cluster that is not in the clusters: map. */
export const NEW_CLUSTER_FLAG = '--new-cluster';

/**
 * What to say about `cluster` when the file `file` (its base name) has the sections `known`:
 * nothing when the name is known or accepted as new, a warning, or a refusal (exit 2).
 */
export function missingClusterVerdict(cluster: string, known: readonly string[], file: string, mode: MissingClusterMode): { warning?: string; refusal?: UsageError } {
  if (known.includes(cluster) || mode === 'accept') return {};
  if (!known.length) return { warning: `${file} has no clusters.${cluster} section; using the environment-level settings` };
  const listed = `${file} has no clusters.${cluster} section (it has: ${[...known].sort().join(', ')})`;
  const dym = didYouMeanIn(cluster, known);
  if (mode === 'warn') return { warning: `${listed}; using the environment-level settings (a real create-cluster, apply-ingress or apply-gateway refuses it without ${NEW_CLUSTER_FLAG})${dym}` };
  return {
    refusal: new UsageError(`not running on cluster ${cluster}: ${listed}${dym}`, {
      hint: `fix the name, add a clusters.${cluster} section to ${file}, or pass ${NEW_CLUSTER_FLAG} if ${cluster} is a new cluster made from the environment-level settings`,
    }),
  };
}

/** The mode of a mutating command: a dry run warns, --new-cluster accepts, a real run refuses. */
export function mutatingRunMode(o: { dryRun?: boolean; newCluster?: boolean }): MissingClusterMode {
  return o.newCluster ? 'accept' : o.dryRun ? 'warn' : 'refuse';
}
