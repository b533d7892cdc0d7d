import { OperationError } from '../errors.js';
import { ExecError, type ProcessRunner } from '../exec/runner.js';
import { registerSecret } from '../redact.js';
import { FIELD_MANAGER, type KubeTarget, type Kubectl } from './kubectl.js';

/**
 * Cluster API helpers on the management cluster, over the kubectl adapter (and clusterctl for
 * the workload kubeconfig, as the SCS scripts did). Status reads return plain data for the
 * waiting logic in lib/cluster/wait.ts.
 */

/** The API group/versions the management cluster serves (`kubectl api-versions`). */
export async function servedApiVersions(k: Kubectl): Promise<string[]> {
  const r = await k.run(['api-versions'], { reject: false, timeoutMs: 60_000 });
  if (r.exitCode !== 0) {
    throw new ExecError('kubectl', ['api-versions'], r.exitCode, r.stderr, 'check mgmt_kubeconfig / mgmt_context and that the management cluster is reachable: kubectl cluster-info');
  }
  return r.stdout.split('\n').map((l) => l.trim()).filter(Boolean).sort();
}

/**
 * What server-side apply would change: `kubectl diff --server-side`. kubectl exits 0 without
 * changes, 1 with changes, >1 on errors.
 */
export async function serverSideDiff(k: Kubectl, manifest: string): Promise<{ changed: boolean; diff: string }> {
  const args = ['diff', '--server-side', `--field-manager=${FIELD_MANAGER}`, '--force-conflicts', '-f', '-'];
  const r = await k.run(args, { input: manifest, reject: false, timeoutMs: 120_000 });
  if (r.exitCode > 1) throw new ExecError('kubectl', args, r.exitCode, r.stderr, 'the management cluster refused the objects (see the message above)');
  return { changed: r.exitCode === 1, diff: r.stdout };
}

/** Replica counts of a KubeadmControlPlane or MachineDeployment (v1beta2 status) the waits use. */
export interface ReplicaStatus {
  exists: boolean;
  /** Wanted (spec.replicas). */
  replicas: number;
  /** Machines whose Ready condition is True (v1beta2 `status.readyReplicas`: node ready, and for KCP its component health). */
  readyReplicas: number;
  /** Machines on the current spec and templates (`status.upToDateReplicas`). */
  upToDateReplicas: number;
  /** Machines that exist, old ones included (status.replicas). */
  currentReplicas: number;
  /** The controller has seen the latest spec (status.observedGeneration ≥ metadata.generation). */
  observed: boolean;
  /** Why it is not done yet: positive conditions that are False, and RollingOut/ScalingUp/… that are True. */
  notes: string[];
}

/** Status fields of a KubeadmControlPlane (v1beta2) the waits use. */
export interface ControlPlaneStatus extends ReplicaStatus {
  /** status.initialization.controlPlaneInitialized: the first control-plane machine answers. */
  initialized: boolean;
  /** status.version: the oldest Kubernetes version among the control-plane machines (undefined before the first). */
  version?: string;
}

type Obj = { metadata?: { generation?: number }; spec?: Record<string, unknown>; status?: Record<string, unknown> } | undefined;
type Condition = { type: string; status: string; message?: string; reason?: string };

/**
 * v1beta2 conditions whose True means "not settled" (the others read True = good). `Deleting` and
 * `Paused` say something too, but are not progress; a True `Paused` is listed because nothing moves.
 */
const NEGATIVE = new Set(['RollingOut', 'ScalingUp', 'ScalingDown', 'Remediating', 'Deleting', 'Paused']);

/** The conditions that say why an object is not done: positive ones False, negative ones True. */
export function pendingConditions(conditions: Condition[] | undefined): string[] {
  return (conditions ?? [])
    .filter((c) => (NEGATIVE.has(c.type) ? c.status === 'True' : c.status === 'False'))
    .map((c) => `${c.type}: ${(c.message || c.reason || c.status).split('\n')[0]}`);
}

const replicaStatus = (o: Obj): ReplicaStatus => {
  const gen = o?.metadata?.generation;
  const seen = o?.status?.observedGeneration;
  return {
    exists: o !== undefined,
    replicas: Number(o?.spec?.replicas ?? 0),
    readyReplicas: Number(o?.status?.readyReplicas ?? 0),
    upToDateReplicas: Number(o?.status?.upToDateReplicas ?? 0),
    currentReplicas: Number(o?.status?.replicas ?? 0),
    observed: gen === undefined || seen === undefined || Number(seen) >= gen,
    notes: pendingConditions(o?.status?.conditions as Condition[] | undefined),
  };
};

/**
 * Done rolling out: the controller saw the latest spec, every wanted machine is up to date and
 * ready, and no old machine is left (a re-run that changed a template rolls them).
 */
export function rolledOut(r: ReplicaStatus): boolean {
  return r.observed && r.readyReplicas >= r.replicas && r.upToDateReplicas >= r.replicas && r.currentReplicas <= r.replicas;
}

/**
 * The Cluster API resources read with their version spelled out: v1beta2, the version kaas renders
 * and CAPI v1.12 stores (a bare `kubectl get kubeadmcontrolplane` answers in the preferred version,
 * which is v1beta2 too, but would not say so, and v1beta1 is deprecated: CAPI v1.16 stops serving it).
 */
export const KCP_V1BETA2 = 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io';
export const MD_V1BETA2 = 'machinedeployments.v1beta2.cluster.x-k8s.io';
/**
 * The CAPI Cluster by group and version: a bare `cluster` is ambiguous where other CRDs call a kind
 * Cluster (Rancher, CloudNativePG, …), and v1beta2 answers without a deprecation warning.
 */
export const CAPI_CLUSTER = 'clusters.v1beta2.cluster.x-k8s.io';

/** Reads a KubeadmControlPlane's progress. */
export async function controlPlaneStatus(k: Kubectl, name: string, namespace: string): Promise<ControlPlaneStatus> {
  return controlPlaneOf(await k.getJson<Obj>(KCP_V1BETA2, name, { namespace }));
}

function controlPlaneOf(o: Obj): ControlPlaneStatus {
  const version = o?.status?.version;
  const init = o?.status?.initialization as { controlPlaneInitialized?: boolean } | undefined;
  return { ...replicaStatus(o), initialized: init?.controlPlaneInitialized === true, ...(typeof version === 'string' ? { version } : {}) };
}

/** Status fields of a MachineDeployment the waits use. */
export interface MachineDeploymentStatus extends ReplicaStatus {
  /**
   * spec.template.spec.version: the Kubernetes version its machines are rolled to. During a topology
   * upgrade the topology controller bumps it only after the control plane is stable (CAPI@v1.12.11
   * internal/controllers/topology/cluster/desired_state.go), so until then the old counts read "rolled out".
   */
  version?: string;
}

/** Reads a MachineDeployment's progress (replicas wanted, up to date and ready) and the version it rolls to. */
export async function machineDeploymentStatus(k: Kubectl, name: string, namespace: string): Promise<MachineDeploymentStatus> {
  return machineDeploymentOf(await k.getJson<Obj>(MD_V1BETA2, name, { namespace }));
}

function machineDeploymentOf(o: Obj): MachineDeploymentStatus {
  const version = (o?.spec?.template as { spec?: { version?: unknown } } | undefined)?.spec?.version;
  return { ...replicaStatus(o), ...(typeof version === 'string' ? { version } : {}) };
}

/**
 * The control plane's and the MachineDeployment's progress in one kubectl run
 * (`get <kcp>/<name> <md>/<name> --ignore-not-found`): what the machine waits poll.
 */
export async function machinesStatus(k: Kubectl, controlPlane: string, machineDeployment: string, namespace: string): Promise<{ cp: ControlPlaneStatus; md: MachineDeploymentStatus }> {
  const found = await k.getObjects<NonNullable<Obj> & { kind?: string }>([`${KCP_V1BETA2}/${controlPlane}`, `${MD_V1BETA2}/${machineDeployment}`], { namespace });
  return {
    cp: controlPlaneOf(found.find((o) => o.kind === 'KubeadmControlPlane')),
    md: machineDeploymentOf(found.find((o) => o.kind === 'MachineDeployment')),
  };
}

/** True when the object exists. */
export async function exists(k: Kubectl, kind: string, name: string, namespace: string): Promise<boolean> {
  return (await k.getJson(kind, name, { namespace })) !== undefined;
}

/**
 * The workload cluster's admin kubeconfig through `clusterctl get kubeconfig` (registered as a
 * secret: it holds a client key).
 */
export async function workloadKubeconfig(runner: ProcessRunner, mgmt: KubeTarget, cluster: string, namespace: string): Promise<string> {
  const args = ['get', 'kubeconfig', cluster, '--namespace', namespace];
  if (mgmt.kubeconfig) args.push('--kubeconfig', mgmt.kubeconfig);
  if (mgmt.context) args.push('--kubeconfig-context', mgmt.context);
  const r = await runner.run('clusterctl', args, { reject: false, timeoutMs: 60_000 });
  if (r.exitCode !== 0) throw new ExecError('clusterctl', args, r.exitCode, r.stderr, 'is the kubeconfig secret present? kubectl get secret ' + `${cluster}-kubeconfig -n ${namespace}`);
  if (!/^apiVersion:|\nclusters:/m.test(r.stdout)) throw new OperationError('clusterctl get kubeconfig printed no kubeconfig');
  registerSecret(r.stdout);
  return r.stdout;
}

/** Names of objects of a kind carrying the cluster label (for pruning old machine templates). */
export async function labelledNames(k: Kubectl, kind: string, cluster: string, namespace: string): Promise<string[]> {
  const list = await k.getJson<{ items?: { metadata: { name: string } }[] }>(kind, undefined, { namespace, selector: `cluster.x-k8s.io/cluster-name=${cluster}` });
  return (list?.items ?? []).map((i) => i.metadata.name).sort();
}

/** Every object of a kind (or of several: `a,b`) in all namespaces (`get <kind> --all-namespaces -o json`); `hint` for a failure. */
export async function listAllNamespaces<T = { metadata: { name: string; namespace: string } }>(k: Kubectl, kind: string, hint?: string): Promise<T[]> {
  const args = ['get', kind, '--all-namespaces', '-o', 'json'];
  const r = await k.run(args, { reject: false, timeoutMs: 60_000 });
  if (r.exitCode !== 0) throw new ExecError('kubectl', args, r.exitCode, r.stderr, hint);
  return ((JSON.parse(r.stdout) as { items?: T[] }).items ?? []);
}
