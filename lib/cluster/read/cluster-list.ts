import { clusterNamespace } from '../../plan/cluster-model.js';

/**
 * What `kaas get clusters` shows, decided from what was read: each cluster section of the
 * environment file beside the live Cluster of that name on its management cluster (phase, and the
 * Kubernetes versions and ready machines of its control plane and MachineDeployments). Pure: the
 * reads are in get-clusters.ts.
 */

/** A cluster section of the environment file and the settings that say where its Cluster lives. */
export interface ClusterSection {
  cluster: string;
  /** The namespace setting ('' = where a Cluster of that name is, else the cluster name). */
  namespaceSetting: string;
}

/** A Cluster API object as `kubectl get … -o json` lists it (the fields read here). */
export interface LiveObject {
  kind: string;
  metadata: { name: string; namespace?: string; deletionTimestamp?: string };
  spec?: { replicas?: number; version?: string; clusterName?: string; controlPlaneRef?: { name?: string }; topology?: { version?: string }; template?: { spec?: { version?: string } } };
  status?: { phase?: string; version?: string; readyReplicas?: number };
}

/** Machines of one role: Kubernetes versions, ready and wanted replicas. */
export interface MachinesState {
  versions: string[];
  ready: number;
  replicas: number;
}

/** One row of `kaas get clusters` (the -o json|yaml item). */
export interface ClusterRow {
  cluster: string;
  namespace: string;
  /** False: a Cluster of the management cluster that the environment file has no section for (-A). */
  inEnvironment: boolean;
  /** A Cluster of this name is on the management cluster. */
  live: boolean;
  /** Its status.phase (Pending, Provisioning, Provisioned, Deleting, Failed), when the controller has set one. */
  phase?: string;
  controlPlane?: MachinesState;
  workers?: MachinesState;
}

const nsOf = (o: LiveObject) => o.metadata.namespace ?? 'default';
const sorted = (v: (string | undefined)[]) => [...new Set(v.filter((x): x is string => Boolean(x)))].sort();

/** The control plane and workers of one live Cluster. */
function liveRow(c: LiveObject, live: LiveObject[], inEnvironment: boolean): ClusterRow {
  const ns = nsOf(c);
  const same = (kind: string) => live.filter((o) => o.kind === kind && nsOf(o) === ns);
  const kcp = same('KubeadmControlPlane').find((k) => k.metadata.name === c.spec?.controlPlaneRef?.name);
  const mds = same('MachineDeployment').filter((m) => m.spec?.clusterName === c.metadata.name);
  const row: ClusterRow = { cluster: c.metadata.name, namespace: ns, inEnvironment, live: true, ...(c.status?.phase ? { phase: c.status.phase } : {}) };
  if (kcp) {
    // status.version: the oldest version among the control-plane machines; spec.version until the first is up.
    row.controlPlane = { versions: sorted([kcp.status?.version ?? kcp.spec?.version]), ready: kcp.status?.readyReplicas ?? 0, replicas: kcp.spec?.replicas ?? 0 };
  } else if (c.spec?.topology?.version) {
    row.controlPlane = { versions: [c.spec.topology.version], ready: 0, replicas: 0 };
  }
  if (mds.length) {
    row.workers = {
      versions: sorted(mds.map((m) => m.spec?.template?.spec?.version)),
      ready: mds.reduce((a, m) => a + (m.status?.readyReplicas ?? 0), 0),
      replicas: mds.reduce((a, m) => a + (m.spec?.replicas ?? 0), 0),
    };
  }
  return row;
}

/**
 * The rows: every section, with its live Cluster when there is one (in the namespace setting, else
 * the only namespace holding a Cluster of that name, else the cluster name's namespace); with `all`,
 * also the management cluster's other Clusters.
 */
export function clusterRows(sections: ClusterSection[], live: LiveObject[], all = false): ClusterRow[] {
  const clusters = live.filter((o) => o.kind === 'Cluster');
  const used = new Set<LiveObject>();
  const rows = sections.map((s): ClusterRow => {
    const named = clusters.filter((c) => c.metadata.name === s.cluster);
    const ns = clusterNamespace(s.namespaceSetting, s.cluster, named.length === 1 ? nsOf(named[0]) : undefined);
    const c = named.find((x) => nsOf(x) === ns);
    if (!c) return { cluster: s.cluster, namespace: ns, inEnvironment: true, live: false };
    used.add(c);
    return liveRow(c, live, true);
  });
  if (all) for (const c of clusters.filter((x) => !used.has(x))) rows.push(liveRow(c, live, false));
  return rows.sort((a, b) => Number(b.inEnvironment) - Number(a.inEnvironment) || a.cluster.localeCompare(b.cluster) || a.namespace.localeCompare(b.namespace));
}

const machines = (m?: MachinesState) => (m ? `${m.versions.join(',') || '-'} ${m.ready}/${m.replicas}` : '-');

/** The table `kaas get clusters` prints (one line per row, as kubectl get prints). */
export function clusterTable(rows: ClusterRow[]): string {
  const head = ['NAME', 'NAMESPACE', 'PHASE', 'CONTROL PLANE', 'WORKERS'];
  const cells = rows.map((r) => [r.inEnvironment ? r.cluster : `${r.cluster} (not in the environment file)`, r.namespace, r.live ? r.phase ?? '-' : 'not created', machines(r.controlPlane), machines(r.workers)]);
  const widths = head.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i].length)));
  return [head, ...cells].map((c) => c.map((x, i) => (i === c.length - 1 ? x : x.padEnd(widths[i]))).join('   ')).join('\n');
}
