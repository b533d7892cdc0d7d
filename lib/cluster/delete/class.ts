import { ExecError } from '../../exec/runner.js';
import type { Kubectl } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import { classCleanup, classRefs, readClassUse, TOPOLOGY_RESOURCES, type LiveTopology } from '../topology/topology.js';

/**
 * What delete-cluster removes on the management cluster besides the Cluster: the cluster's own
 * ClusterClass with its templates (topology.ts classCleanup) and the objects kaas labelled with the
 * cluster's name (templates it replaced, the credentials Secret).
 *
 * Templates are not guarded by Cluster API: only the class is (CAPI v1.12.11
 * internal/webhooks/clusterclass.go ValidateDelete refuses while Clusters use it). A template a
 * surviving ClusterClass refers to therefore stays, whoever made it: a class kept because another
 * cluster uses it points at the generation kaas made for this cluster (labelled with its name), and
 * a copied class may point at this cluster's templates. Deleting one leaves every Cluster of that class
 * unable to reconcile (no scaling, no upgrade, no new machines).
 */

type Item = { kind?: string; metadata: { name: string; namespace?: string; labels?: Record<string, string> } };

/** Templates (`namespace/kind/name`, lower-case kind) the ClusterClasses refer to, but for the one named `except` in its namespace. Pure. */
export function referencedTemplates(classes: Item[], except?: { namespace: string; name: string }): Set<string> {
  const out = new Set<string>();
  for (const c of classes) {
    const ns = c.metadata.namespace ?? '';
    if (except && c.metadata.name === except.name && ns === except.namespace) continue;
    for (const r of classRefs(c)) out.add(`${ns}/${r}`);
  }
  return out;
}

/** The names of the classes that refer to a template (for the message saying why it stays). Pure. */
export function classesReferring(classes: Item[], namespace: string, ref: string): string[] {
  return classes.filter((c) => (c.metadata.namespace ?? '') === namespace && classRefs(c).includes(ref)).map((c) => c.metadata.name).sort();
}

/**
 * The class of a cluster that is gone (a delete that timed out, then CAPI finished in the background):
 * the one named after it in its namespace (as the SCS template makes it), else one kaas labels with its
 * name. Pure over the listed classes.
 */
export function ownClassOfGoneCluster(classes: Item[], cluster: string): Item | undefined {
  return classes.find((c) => c.metadata.name === cluster)
    ?? classes.find((c) => c.metadata.labels?.['cluster.x-k8s.io/cluster-name'] === cluster && c.metadata.labels?.['app.kubernetes.io/managed-by'] === 'kaas');
}

/** The ClusterClasses of a namespace; none where Cluster API serves no ClusterClass (no class can refer to anything). */
async function listClasses(k: Kubectl, namespace: string): Promise<Item[]> {
  try {
    return ((await k.getJson<{ items?: Item[] }>(TOPOLOGY_RESOURCES.ClusterClass, undefined, { namespace }))?.items ?? [])
      .map((c) => ({ ...c, metadata: { ...c.metadata, namespace: c.metadata.namespace ?? namespace } }));
  } catch (e) {
    if (e instanceof ExecError && /doesn't have a resource type/.test(e.stderrTail)) return [];
    throw e;
  }
}

/** What removeClassAndLeftovers needs to know of the run. */
export interface ClassCleanupInput {
  cluster: string;
  /** The Cluster's namespace. */
  namespace: string;
  /** What was read of the topology while the Cluster existed; undefined for a cluster not made from a class, or one that is gone. */
  topology?: LiveTopology;
  /** The Cluster was not found (already gone): its own class is looked for by name. */
  clusterGone: boolean;
  dryRun: boolean;
}

/**
 * Deletes the cluster's own ClusterClass (when no other cluster uses it) and then its templates and
 * the generations kaas replaced, then the objects labelled with the cluster's name, each unless a
 * surviving ClusterClass refers to it. A refused class deletion (a cluster started using it meanwhile)
 * keeps the class and its templates, and the delete goes on.
 */
export async function removeClassAndLeftovers(mgmt: Kubectl, i: ClassCleanupInput, actions: string[], logger: Logger): Promise<void> {
  let topology = i.topology;
  if (!topology && i.clusterGone) topology = await goneClusterTopology(mgmt, i.namespace, i.cluster);
  const classes = new Map<string, Item[]>();
  const classesOf = async (ns: string) => classes.get(ns) ?? classes.set(ns, await listClasses(mgmt, ns)).get(ns)!;
  let deletedClass: { namespace: string; name: string } | undefined;
  // What the class cleanup deleted (a dry run would): the labelled sweep does not list it again.
  const done = new Set<string>();
  if (topology) {
    const c = classCleanup(topology, i.cluster);
    if (c.keep) logger.info(c.keep);
    const [cls, ...templates] = c.delete;
    if (cls) deletedClass = await deleteClass(mgmt, topology, cls, i.dryRun, actions, logger);
    if (deletedClass) {
      const all = await classesOf(topology.classNamespace);
      const kept = referencedTemplates(all, deletedClass);
      for (const r of templates) {
        if (kept.has(`${topology.classNamespace}/${r}`)) {
          logger.info(`${r} in ${topology.classNamespace} stays: ClusterClass ${classesReferring(all, topology.classNamespace, r).join(', ')} refers to it`);
          continue;
        }
        done.add(`${topology.classNamespace}/${r}`);
        actions.push(`${r} in ${topology.classNamespace} (a template of it, or a generation kaas replaced)`);
        if (!i.dryRun) await mgmt.delete([r], { namespace: topology.classNamespace });
      }
    }
  }
  const leftovers = await mgmt.getJson<{ items?: Item[] }>('openstackmachinetemplates,kubeadmconfigtemplates,secrets', undefined, { namespace: i.namespace, selector: `cluster.x-k8s.io/cluster-name=${i.cluster},app.kubernetes.io/managed-by=kaas` });
  for (const item of leftovers?.items ?? []) {
    const kind = item.kind ?? '';
    const ref = `${kind.toLowerCase()}/${item.metadata.name}`;
    if (done.has(`${i.namespace}/${ref}`)) continue;
    if (kind !== 'Secret') {
      const all = await classesOf(i.namespace);
      if (referencedTemplates(all, deletedClass).has(`${i.namespace}/${ref}`)) {
        logger.info(`${kind} ${i.namespace}/${item.metadata.name} stays: ClusterClass ${classesReferring(all, i.namespace, ref).join(', ')} refers to it`);
        continue;
      }
    }
    actions.push(`${kind} ${i.namespace}/${item.metadata.name}`);
    if (!i.dryRun) await mgmt.delete([ref], { namespace: i.namespace });
  }
}

/** Deletes the class; returns it when deleted (or, in a dry run, when it would be), undefined when Cluster API refused. */
async function deleteClass(mgmt: Kubectl, t: LiveTopology, resource: string, dryRun: boolean, actions: string[], logger: Logger): Promise<{ namespace: string; name: string } | undefined> {
  const what = `${resource.replace('.v1beta2.cluster.x-k8s.io', '')} in ${t.classNamespace} (the cluster's own ClusterClass)`;
  if (!dryRun) {
    try {
      await mgmt.delete([resource], { namespace: t.classNamespace });
    } catch (e) {
      if (!(e instanceof ExecError)) throw e;
      // CAPI refuses while a Cluster uses the class (one may have started to since it was read).
      const why = e.message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
      logger.warn(`ClusterClass ${t.classNamespace}/${t.className} was not deleted (${why}): it stays with its templates; delete it yourself once no cluster uses it: kubectl delete clusterclass ${t.className} -n ${t.classNamespace}`);
      return undefined;
    }
  }
  actions.push(what);
  return { namespace: t.classNamespace, name: t.className };
}

/** The topology of a cluster that is gone, as far as its own class tells (undefined: no such class). */
async function goneClusterTopology(mgmt: Kubectl, namespace: string, cluster: string): Promise<LiveTopology | undefined> {
  const own = ownClassOfGoneCluster(await listClasses(mgmt, namespace), cluster);
  if (!own) return undefined;
  const use = await readClassUse(mgmt, namespace, own.metadata.name, { namespace, name: cluster });
  if (!use.clusterClass) return undefined;
  return {
    namespace, cluster: { metadata: { name: cluster, namespace } }, classNamespace: namespace, className: own.metadata.name,
    templates: [], machineDeployments: [], ...use,
  };
}
