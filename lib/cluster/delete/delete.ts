import { occmLoadBalancerName } from '../../openstack/octavia.js';
import { existsSync, rmSync } from 'node:fs';
import { OperationError } from '../../errors.js';
import { ExecError } from '../../exec/runner.js';
import { CAPI_CLUSTER, labelledNames, listAllNamespaces } from '../../kube/cluster-api.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../../kube/kubectl.js';
import { cleanupCloud, orphanSweepNetwork, planCloudCleanup, sweepOrphanOvnVipPorts, sweepServiceLoadBalancers } from './cloud.js';
import { ServiceMissing, type ClusterCloud } from '../cloud.js';
import { removeContexts, userKubeconfigFile } from '../../state/kubeconfig.js';
import { contextPrefix, localKey, workloadKubeconfigPath, type LocalKey } from '../../state/local-state.js';
import { workloadAccess } from '../../state/workload-access.js';
import { checkEndpoint } from '../../state/endpoint-check.js';
import { findClusterNamespace } from '../../state/cluster-namespace.js';
import { clusterNamespace, occmClusterName } from '../../plan/cluster-model.js';
import { readApplied, removeIngress } from '../../ingress/applied.js';
import { GATEWAY_RECORD, removeGateway } from '../../gateway/applied.js';
import type { Logger } from '../../log.js';
import { checkClusterName, cloudConnection, cloudCredentials, clusterSettings, managementTarget, type ClusterDeps, type ClusterRunOptions } from '../setup.js';
import { retryingProbe, waitFor } from '../wait.js';
import { isTopologyCluster, readTopology, type LiveTopology } from '../topology/topology.js';
import { removeClassAndLeftovers } from './class.js';
import { clusterApiMissing } from '../preflight.js';
import { ownedServerGroups, type OwnedServerGroups } from './server-group-owner.js';

/**
 * `kaas delete-cluster <cluster>`: LoadBalancer Services and PVCs first, waiting until OCCM and
 * Cinder CSI have removed their load balancers and volumes (they only can while the cluster runs),
 * then the Cluster (CAPO removes servers, network, API load balancer), then what is left in the
 * cloud (delete-cloud.ts), then the kubeconfig context. `--dry-run` lists; a second run finds nothing and does nothing.
 *
 * OCCM's load balancers that survive (workload cluster unreachable, OCCM broken or too slow) would
 * block CAPO: it deletes only ports named after the cluster, so their VIP ports and floating IPs keep
 * the router interface and the network, and the Cluster never goes. The wait for the Cluster
 * therefore deletes them in the cloud once no Machine is left (delete-cloud.ts
 * sweepServiceLoadBalancers). A Cluster already being deleted (an earlier run) is not asked again,
 * and its workload cluster is not contacted.
 */

/** Timeouts of the waits, in seconds. */
export interface DeleteTimeouts {
  servicesSec: number;
  clusterSec: number;
  pollMs: number;
}

/** What delete-cluster did (or would do with --dry-run). */
export interface DeleteClusterResult {
  cluster: string;
  dryRun: boolean;
  actions: string[];
}

/** Adapters of delete-cluster. */
export interface DeleteDeps extends ClusterDeps {
  kubectlFor?: (t: KubeTarget) => Kubectl;
}

type Item = { metadata: { name: string; namespace: string }; spec?: { type?: string } };
type LiveCluster = { metadata?: { deletionTimestamp?: string }; spec?: { infrastructureRef?: { name?: string }; controlPlaneEndpoint?: { host?: string; port?: number } }; status?: { phase?: string } };

/** Cluster API's Machines (listed by the cluster label while the Cluster is deleted). */
export const CAPI_MACHINE = 'machines.v1beta2.cluster.x-k8s.io';

/** What delete-cluster does with a Cluster it found, from its live state. Pure. */
export function deleteSteps(live: LiveCluster): { workload: boolean; deleteCluster: boolean; reason?: string } {
  if (live.metadata?.deletionTimestamp) {
    return {
      workload: false, deleteCluster: false,
      reason: `the Cluster is already being deleted (since ${live.metadata.deletionTimestamp}): its workload cluster is not asked; OCCM's load balancers left in the cloud are deleted once its machines are gone`,
    };
  }
  return { workload: true, deleteCluster: true };
}

/** Runs delete-cluster. */
export async function deleteCluster(o: ClusterRunOptions & { timeouts?: Partial<DeleteTimeouts> }, deps: DeleteDeps): Promise<DeleteClusterResult> {
  const t = { servicesSec: 600, clusterSec: 1800, pollMs: 10_000, ...o.timeouts };
  const cluster = checkClusterName(o.cluster);
  // A name outside the clusters: map only warns: deleting a cluster whose section is gone is cleanup,
  // the name is confirmed (typed, or --yes), and a typo finds no Cluster and deletes nothing.
  const resolved = clusterSettings(o);
  for (const w of resolved.warnings) deps.logger.warn(w);
  const s = resolved.values;
  const actions: string[] = [];
  const kubectlFor = kubectlFactory(deps);
  const mgmtTarget: KubeTarget = managementTarget(o, s);
  const mgmt = kubectlFor(mgmtTarget);
  const wait = (title: string, timeoutSec: number, hint: string, probe: () => Promise<{ done: boolean; progress: string }>) =>
    waitFor({ title, timeoutSec, intervalMs: t.pollMs, logger: deps.logger, clock: deps.clock, hint, probe });

  // The cloud first: a settings mistake (unknown cloud, password auth) is reported before the
  // management cluster is asked anything.
  const creds = cloudCredentials(o, s, false, deps.logger);
  const { cloud } = await cloudConnection(deps, creds.config, creds.problem, false);
  // Where create-cluster put it: the setting, else where the Cluster is, else the cluster name.
  // A dry-run without a management cluster still lists the cloud side (as doctor --cloud-only does).
  let ns = clusterNamespace(s.namespace, cluster);
  let live: LiveCluster | undefined;
  let mgmtDown: string | undefined;
  try {
    ns = clusterNamespace(s.namespace, cluster, s.namespace ? undefined : await findClusterNamespace(mgmt, cluster));
    live = await mgmt.getJson<LiveCluster>(CAPI_CLUSTER, cluster, { namespace: ns });
  } catch (e) {
    if (!(e instanceof ExecError)) throw e;
    const oldApi = await clusterApiMissing(mgmt);
    if (!o.dryRun) throw oldApi ?? withMgmtHint(e, mgmtTarget);
    mgmtDown = oldApi ? oldApi.message : `the management cluster cannot be reached (${lastLine(e)})`;
    deps.logger.warn(`${mgmtDown}: the Cluster and the objects kaas applied there are not listed; `
      + `what follows is what kaas finds in the cloud and on this machine (namespace ${ns} assumed)`);
    deps.logger.info(`hint: ${oldApi ? oldApi.problems.join('; ') : mgmtHintText(mgmtTarget)}`);
  }
  const occm = occmClusterName(ns, cluster);
  const key = localKey(o.home, o.env, s.namespace, cluster);
  const kubeconfig = workloadKubeconfigPath(s, key, o.cwd);

  // A cluster made from a ClusterClass: its own class (SCS: named after the cluster) and the templates
  // it refers to go after the Cluster, when no other cluster uses the class.
  const topology: LiveTopology | undefined = live && isTopologyCluster(live) ? await readTopology(mgmt, ns, cluster) : undefined;
  // Which server groups of kaas's names are this Cluster's: read before it is deleted (its templates go with it).
  const owned: OwnedServerGroups = live ? await ownedServerGroups(mgmt, ns, cluster) : { servers: [] };
  if (live) {
    const steps = deleteSteps(live);
    if (steps.reason) deps.logger.warn(steps.reason);
    let workload: Kubectl | undefined;
    let temp: string | undefined;
    if (steps.workload) {
      // As get kubeconfig: the Secret first (an expired certificate in the recorded file must not make a
      // reachable cluster look unreachable, its PVCs' volumes would leak), then the recorded file, which
      // must reach this Cluster: a refusal (exit 2) comes before anything is deleted.
      const access = await workloadAccess({
        key, recorded: kubeconfig, mgmt, namespace: ns, endpoint: live.spec?.controlPlaneEndpoint ?? {}, namespaceSetting: s.namespace, refuse: true, dryRun: o.dryRun, envFlag: `--env ${o.env}`,
      }, deps);
      temp = access.temp;
      if (access.target) workload = kubectlFor(access.target);
      else deps.logger.warn('the workload cluster cannot be reached (no kubeconfig: the management cluster gave none and none is recorded): its Service load balancers are cleaned up in the cloud afterwards, the Cinder volumes of its PVCs are not (openstack volume list)');
    }
    try {
      if (workload) await deleteWorkloadResources(workload, key, occm, deps.logger, cloud!, o.dryRun, actions, (title, sec, probe) => wait(title, sec, `kubectl --kubeconfig ${workload!.target.kubeconfig} get services,pvc -A`, probe), t.servicesSec);
    } catch (e) {
      // A broken workload cluster (a common reason to delete it) must not block the delete.
      if (!(e instanceof ExecError)) throw e;
      unreachable(deps.logger, e);
    } finally {
      if (temp) rmSync(temp, { recursive: true, force: true });
    }
    // OCCM's load balancers left in the cloud are deleted (and listed) by the wait below, once no machine is left.
    actions.push(`Cluster ${ns}/${cluster} (CAPO deletes its servers, network and kube-API load balancer)`);
    if (!o.dryRun) {
      // The cluster's network, for the sweep of the ovn provider's orphaned VIP ports: read once, before
      // CAPO starts deleting (the OpenStackCluster keeps it in its status until the network is gone).
      const infra = live.spec?.infrastructureRef?.name;
      const network = infra ? orphanSweepNetwork(await mgmt.getJson<Parameters<typeof orphanSweepNetwork>[0]>('openstackclusters.infrastructure.cluster.x-k8s.io', infra, { namespace: ns }).catch(() => undefined)) : undefined;
      if (steps.deleteCluster) await mgmt.delete([`${CAPI_CLUSTER}/${cluster}`], { namespace: ns, wait: false });
      // A kubectl error in one poll (an API server restart) does not end the wait: the next poll asks again.
      await wait(`Cluster ${cluster} deleted`, t.clusterSec, `clusterctl describe cluster ${cluster} -n ${ns}; openstack loadbalancer list --name kube_service_${occm}_…`, retryingProbe((e) => e instanceof ExecError, async () => {
        const c = await mgmt.getJson<LiveCluster>(CAPI_CLUSTER, cluster, { namespace: ns });
        if (!c) return { done: true, progress: 'gone' };
        const phase = `phase ${c.status?.phase ?? 'unknown'}`;
        const machines = await labelledNames(mgmt, CAPI_MACHINE, cluster, ns);
        if (machines.length) return { done: false, progress: `${phase}, ${machines.length} machine${machines.length === 1 ? '' : 's'} left` };
        return { done: false, progress: `${phase}, no machine left, ${await sweep(cloud!, occm, deps.logger, actions, network)}` };
      }));
    }
  }
  // Objects kaas applied that are not owned by the Cluster (its own class and templates, templates it
  // no longer references, the credentials), but none a surviving ClusterClass refers to (delete-class.ts).
  if (!mgmtDown) await removeClassAndLeftovers(mgmt, { cluster, namespace: ns, topology, clusterGone: !live, dryRun: o.dryRun }, actions, deps.logger);

  const cleanup = await planCloudCleanup(cloud!, cluster, s.prefix, ns, deps.logger, occm, owned);
  actions.push(...cleanup.map((c) => c.what));
  if (!o.dryRun) await cleanupCloud(cloud!, cleanup, deps.logger, deps.clock);

  // The entry create-cluster merged, and one merged by kaas before entries were prefixed when its server is this Cluster's.
  const endpoint = live?.spec?.controlPlaneEndpoint;
  const legacy = { name: cluster, also: (server: string) => checkEndpoint({ server }, { id: `${ns}/${cluster}`, host: endpoint?.host, port: endpoint?.port }).ok };
  const contexts = await removeContexts(userKubeconfigFile(o.environ, o.home), `${contextPrefix(key)}${cluster}`, o.dryRun, legacy);
  actions.push(...contexts.map((c) => `kubeconfig context ${c}`));
  if (existsSync(kubeconfig)) {
    actions.push(`file ${kubeconfig}`);
    if (!o.dryRun) rmSync(kubeconfig, { force: true });
  }
  return { cluster, dryRun: o.dryRun, actions };
}

/**
 * One sweep of OCCM's load balancers in the Cluster wait: what is left, as progress. A cloud error
 * does not end the wait (the next poll tries again; the timeout's message shows the last one).
 */
async function sweep(cloud: ClusterCloud, occm: string, logger: Logger, actions: string[], network?: string): Promise<string> {
  try {
    const r = await sweepServiceLoadBalancers(cloud, occm, logger);
    actions.push(...r.deleted);
    if (network) actions.push(...await sweepOrphanOvnVipPorts(cloud, network, logger));
    return `${r.left} OCCM load balancer${r.left === 1 ? '' : 's'} left`;
  } catch (e) {
    if (e instanceof ServiceMissing) return 'no Octavia in the catalog';
    if (!(e instanceof OperationError)) throw e;
    return `deleting OCCM's load balancers failed (${e.message.split('\n')[0]}); retrying`;
  }
}

const lastLine = (e: Error) => e.message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';

/** How to point kaas at the management cluster. */
function mgmtHintText(t: KubeTarget): string {
  const where = t.kubeconfig ? `kaas asked the management cluster of ${t.kubeconfig}${t.context ? ` (context ${t.context})` : ''}` : 'no mgmt_kubeconfig is set, so kaas asked kubectl\'s default cluster';
  return `${where}; set mgmt_kubeconfig / mgmt_context (or --kubeconfig / --context) to the management cluster and check it answers: kubectl ${t.kubeconfig ? `--kubeconfig ${t.kubeconfig} ` : ''}cluster-info`;
}

/** kubectl's error against the management cluster, with the hint kubectl's words lack. */
function withMgmtHint(e: ExecError, t: KubeTarget): ExecError {
  if (e.hint) return e;
  return new ExecError(e.command, e.args, e.exitCode_, e.stderrTail, mgmtHintText(t));
}

function unreachable(logger: Logger, e: unknown): void {
  const why = lastLine(e as Error);
  logger.warn(`the workload cluster cannot be reached (${why}): its Service load balancers are cleaned up in the cloud afterwards, the Cinder volumes of its PVCs are not (openstack volume list)`);
}

/** Deletes LoadBalancer Services and PVCs in the workload cluster and waits for OCCM to remove the LBs. */
async function deleteWorkloadResources(
  k: Kubectl, key: LocalKey, occm: string, logger: Logger, cloud: ClusterCloud, dryRun: boolean, actions: string[],
  wait: (title: string, sec: number, probe: () => Promise<{ done: boolean; progress: string }>) => Promise<number>, timeoutSec: number,
): Promise<void> {
  // The ingress first, through what apply-ingress recorded (its Service, then the rest of its objects).
  if (readApplied(key, 'ingress-nginx') !== undefined) {
    actions.push('ingress-nginx (as recorded by apply-ingress; OCCM deletes its load balancer)');
    if (!dryRun) await removeIngress(k, key, logger);
  }
  if (readApplied(key, GATEWAY_RECORD) !== undefined) {
    actions.push('Envoy Gateway and its Gateway (as recorded by apply-gateway; OCCM deletes its load balancer)');
    if (!dryRun) await removeGateway(k, key, logger);
  }
  const services = (await listAllNamespaces<Item>(k, 'services')).filter((x) => x.spec?.type === 'LoadBalancer');
  const pvcs = await listAllNamespaces<Item>(k, 'persistentvolumeclaims');
  for (const x of services) actions.push(`Service ${x.metadata.namespace}/${x.metadata.name} (type LoadBalancer: OCCM deletes its Octavia LB)`);
  for (const x of pvcs) actions.push(`PersistentVolumeClaim ${x.metadata.namespace}/${x.metadata.name} (Cinder CSI deletes its volume)`);
  if (dryRun) return;
  for (const x of [...services.map((v) => ['service', v] as const), ...pvcs.map((v) => ['pvc', v] as const)]) {
    await k.delete([`${x[0]}/${x[1].metadata.name}`], { namespace: x[1].metadata.namespace, wait: false });
  }
  if (services.length) {
    const names = new Set(services.map((x) => occmLoadBalancerName(occm, x.metadata.namespace, x.metadata.name)));
    try {
      await wait('service load balancers deleted by OCCM', timeoutSec, async () => {
        const left = (await cloud.loadBalancers()).filter((l) => names.has(l.name)).length;
        return { done: left === 0, progress: `${left} left` };
      });
    } catch (e) {
      // OCCM broken or slow: not a reason to stop; kaas deletes what it left once the machines are gone.
      if (!(e instanceof OperationError)) throw e;
      logger.warn(`OCCM did not delete the Service load balancers (${e.message.split('\n')[0]}): kaas deletes them in the cloud once the Cluster's machines are gone`);
    }
  }
  if (pvcs.length) await waitForVolumes(k, pvcs, logger, wait, timeoutSec);
}

type Pv = { metadata: { name: string }; spec?: { persistentVolumeReclaimPolicy?: string; claimRef?: { namespace?: string; name?: string }; csi?: { volumeHandle?: string } } };

/**
 * Cinder CSI deletes a PVC's volume asynchronously, and only while the cluster runs: wait until the
 * PVs (reclaim policy Delete) of the deleted PVCs are gone. A PVC still used by a pod is not
 * released; rather than block the delete, name the Cinder volumes that will stay behind.
 */
async function waitForVolumes(
  k: Kubectl, pvcs: Item[], logger: Logger,
  wait: (title: string, sec: number, probe: () => Promise<{ done: boolean; progress: string }>) => Promise<number>, timeoutSec: number,
): Promise<void> {
  const claims = new Set(pvcs.map((x) => `${x.metadata.namespace}/${x.metadata.name}`));
  let left: Pv[] = [];
  const probe = async () => {
    left = (await listAllNamespaces<Pv>(k, 'persistentvolumes')).filter((pv) =>
      pv.spec?.persistentVolumeReclaimPolicy !== 'Retain' && claims.has(`${pv.spec?.claimRef?.namespace}/${pv.spec?.claimRef?.name}`));
    return { done: left.length === 0, progress: `${left.length} left` };
  };
  try {
    await wait('volumes deleted by Cinder CSI', timeoutSec, probe);
  } catch (e) {
    if (!(e instanceof OperationError) || left.length === 0) throw e;
    const vols = left.map((pv) => `${pv.metadata.name}${pv.spec?.csi?.volumeHandle ? ` (Cinder volume ${pv.spec.csi.volumeHandle})` : ''}`);
    logger.warn(`volumes not released (a pod still uses their PVC?), left in the cloud: ${vols.join(', ')}; delete them afterwards: openstack volume delete <id>`);
  }
}
