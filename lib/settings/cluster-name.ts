import { UsageError } from '../errors.js';
import { hiddenNote, visibleName } from '../visible.js';

/**
 * The one rule for cluster names, used by `clusters.<name>` sections, the schema, settings import
 * and every command. A name becomes:
 * - Kubernetes object names and the `cluster.x-k8s.io/cluster-name` label value (DNS-1123, ≤ 63);
 * - node host names: Nova names servers after CAPI Machines, `<cluster>-md-0-<hash ≤ 10>-<5>`
 *   (23 characters of suffix), and a host name label holds at most 63 → at most 40 here;
 * - OpenStack resource names (CAPO `k8s-cluster-<ns>-<cluster>-…`, OCCM `kube_service_<cluster>_…`)
 *   and file names under ~/.kube/kaas, so no "/", "." or "..";
 * - a DNS-1035 label (starting with a letter), as the SCS scripts required, so that it is also
 *   valid where Kubernetes asks for one (Service names, some CAPI/CAPO generated names).
 */
export const CLUSTER_NAME_MAX = 40;

/** The rule as a regular expression (also published in settings/schema.json). */
export const CLUSTER_NAME_PATTERN = '^[a-z]([-a-z0-9]*[a-z0-9])?$';

const RULE = new RegExp(CLUSTER_NAME_PATTERN);

/** The rule in words, for messages. */
export const CLUSTER_NAME_RULE = `a cluster name must be lower-case letters, digits and '-', start with a letter and end with a letter or digit, at most ${CLUSTER_NAME_MAX} characters (it becomes part of Kubernetes, node and OpenStack resource names)`;

/** True when `name` may name a cluster. */
export function isClusterName(name: string): boolean {
  return name.length <= CLUSTER_NAME_MAX && RULE.test(name);
}

/** Returns `name` when valid; else throws a UsageError (exit 2) saying what is wrong with it. */
export function checkClusterName(name: string | undefined): string {
  if (!name) throw new UsageError('name the cluster (the first argument)', { hint: 'e.g. kaas create-cluster demo --env example' });
  if (!isClusterName(name)) {
    const why = hiddenNote(name) ? hiddenNote(name).slice(2, -1) : name.length > CLUSTER_NAME_MAX ? `it has ${name.length} characters` : /[A-Z]/.test(name) ? 'it has upper-case letters' : !/^[a-z]/.test(name) ? 'it does not start with a letter' : 'it has characters other than a-z, 0-9 and "-" or ends with "-"';
    throw new UsageError(`cluster name "${visibleName(name)}" is not valid: ${why}`, { hint: CLUSTER_NAME_RULE });
  }
  return name;
}
