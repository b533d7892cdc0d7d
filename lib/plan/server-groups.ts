import { decided, refused, type Decision } from './decision.js';

/**
 * Anti-affinity server groups of a workload cluster (SCS `OPENSTACK_ANTI_AFFINITY`): one for the
 * control plane (hard anti-affinity unless soft is asked for), one for the workers (always soft: a
 * cluster with more workers than hosts must still come up). Pure: the existing groups are passed in.
 */

/** A server group as Nova lists it (only what the decision needs). */
export interface ExistingServerGroup {
  id: string;
  name: string;
  policy: string;
  /** Nova server ids in the group (delete-cluster keeps a group another cluster's servers are in). */
  members?: string[];
}

/** What to do about one group. */
export interface ServerGroupAction {
  role: 'controller' | 'worker';
  name: string;
  policy: 'anti-affinity' | 'soft-anti-affinity';
  /** create = does not exist yet; reuse = exists with this policy (its id is known). */
  action: 'create' | 'reuse';
  id?: string;
  /** Nova server ids already in a reused group (a new cluster must find none: sharedServerGroups). */
  members?: string[];
}

/** Inputs: the relevant settings and the groups that exist in the project. */
export interface ServerGroupInput {
  cluster: string;
  prefix: string;
  antiAffinity: boolean;
  softController: boolean;
  existing: ExistingServerGroup[];
}

/** The names kaas gives the groups: `<prefix>-<cluster>-controller` and `-worker`. */
export function serverGroupNames(prefix: string, cluster: string): { controller: string; worker: string } {
  return { controller: `${prefix}-${cluster}-controller`, worker: `${prefix}-${cluster}-worker` };
}

/**
 * Decides which server groups to create or reuse. A group with kaas's name but another policy is
 * an error (Nova cannot change a group's policy, and its members were placed under the old one).
 */
export function planServerGroups(input: ServerGroupInput): Decision<ServerGroupAction[]> {
  if (!input.antiAffinity) {
    return decided([], ['anti_affinity is false: no server groups, Nova may place nodes on the same host']);
  }
  const names = serverGroupNames(input.prefix, input.cluster);
  const wanted: Omit<ServerGroupAction, 'action'>[] = [
    { role: 'controller', name: names.controller, policy: input.softController ? 'soft-anti-affinity' : 'anti-affinity' },
    { role: 'worker', name: names.worker, policy: 'soft-anti-affinity' },
  ];
  const reasons = [
    input.softController
      ? 'control plane: soft anti-affinity (soft_anti_affinity_controller is true)'
      : 'control plane: hard anti-affinity (each control-plane node on its own host)',
    'workers: soft anti-affinity (spread when hosts allow)',
  ];
  const groups: ServerGroupAction[] = [];
  for (const w of wanted) {
    const same = input.existing.filter((g) => g.name === w.name);
    if (same.length > 1) {
      return refused({
        message: `${same.length} server groups are named ${w.name} (ids ${same.map((g) => g.id).sort().join(', ')})`,
        hint: `delete the extra ones: openstack server group delete <id>`,
      }, reasons);
    }
    const g = same[0];
    if (!g) {
      groups.push({ ...w, action: 'create' });
    } else if (g.policy !== w.policy) {
      return refused({
        message: `server group ${w.name} exists with policy ${g.policy}, but ${w.policy} is wanted`,
        hint: 'Nova cannot change a policy: delete the group (after the cluster) or change soft_anti_affinity_controller back',
      }, reasons);
    } else {
      groups.push({ ...w, action: 'reuse', id: g.id, members: g.members ?? [] });
    }
  }
  return decided(groups, reasons);
}

/**
 * kaas's group names carry the cluster's name but not its namespace or management cluster (they are
 * the SCS scripts' names, `<prefix>-<cluster>-controller`, kept so that groups made by
 * create_cluster.sh and by earlier kaas runs are found again: renaming them would move every machine
 * to a new template). Two clusters of one name in one project — two environments, two namespaces or
 * two management clusters — therefore meet at the same groups. A cluster that does not exist yet must
 * not join a group that already holds servers: they are another cluster's, and with hard
 * anti-affinity its control plane would then need hosts of its own apart from the other cluster's.
 * A running cluster keeps its groups (its machines are in them). Pure; `clusterId` is namespace/name.
 */
export function sharedServerGroups(groups: ServerGroupAction[], clusterIsNew: boolean, clusterId: string, prefix: string): Decision<void> {
  const taken = clusterIsNew ? groups.filter((g) => g.action === 'reuse' && (g.members ?? []).length > 0) : [];
  if (!taken.length) return decided(undefined, []);
  return refused({
    message: `Cluster ${clusterId} does not exist yet, but ${taken.map((g) => `server group ${g.name} (${g.id}) already holds ${g.members!.length} server${g.members!.length === 1 ? '' : 's'} (${[...g.members!].sort().join(', ')})`).join('; ')}: another cluster of the same name in this project (another namespace, environment or management cluster) uses ${taken.length === 1 ? 'it' : 'them'}`,
    hint: `give this cluster another name, or this environment another prefix (setting prefix, now ${prefix}: the groups are named <prefix>-<cluster>-controller/-worker); if those servers are gone, check with openstack server group show <id>`,
  }, []);
}
