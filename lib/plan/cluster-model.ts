import type { FlavorChoice, ImageChoice } from './machines.js';
import type { NodeFile } from './registry-hosts.js';
import type { ServerGroupAction } from './server-groups.js';
import type { Settings } from '../settings/types.js';

/**
 * The variables the templates under templates/cluster/ are rendered with: every decision already
 * taken, nothing looked up here. Names of objects live here so that the use cases (apply, wait,
 * delete) and the templates agree.
 */

/**
 * The namespace of a cluster's objects: the `namespace` setting, else where a Cluster of that
 * name already is (`found`, e.g. `default` for clusters kaas created before namespaces), else the
 * cluster name — as the SCS scripts (mng_cluster_ns.inc) do.
 */
export function clusterNamespace(setting: string, cluster: string, found?: string): string {
  return setting || found || cluster;
}

/**
 * OCCM's `--cluster-name`, which names every Octavia LB it creates (`kube_service_<name>_<ns>_<svc>`)
 * and must be unique per cloud project. CAPO names its resources from namespace and cluster
 * (`k8s-clusterapi-cluster-<ns>-<cluster>…`); OCCM gets the same uniqueness: the cluster name,
 * prefixed with the namespace when that is neither the cluster name nor `default` (clusters made
 * before kaas had namespaces keep the name their load balancers already carry).
 */
export function occmClusterName(namespace: string, cluster: string): string {
  return namespace === cluster || namespace === 'default' ? cluster : `${namespace}-${cluster}`;
}

/** The names a cluster's cloud resources are found by. */
export interface ClusterNames {
  cluster: string;
  /** Namespace of its objects on the management cluster (CAPO names the kube-API LB after it). */
  namespace: string;
  /** OCCM's cluster-name: the `<cluster>` of `kube_service_<cluster>_<ns>_<svc>` and of OCCM's floating-IP descriptions. */
  occmCluster: string;
}

/**
 * The names from the settings alone, for commands that do not read the management cluster
 * (apply-ingress, apply-gateway, check-lb, doctor): an empty `namespace` setting means the cluster's
 * own namespace (kaas and SCS) or `default` (kaas before namespaces), and both give OCCM the plain
 * cluster name; a `namespace` setting gives exactly what create-cluster rendered into OCCM.
 */
export function clusterNames(namespaceSetting: string, cluster: string): ClusterNames {
  const namespace = clusterNamespace(namespaceSetting, cluster);
  return { cluster, namespace, occmCluster: occmClusterName(namespace, cluster) };
}

/** The cloud's credentials as CAPO and OCCM get them (application credential only). */
export interface ClusterIdentity {
  /** clouds.yaml text with one cloud, `cloudName`. */
  cloudsYaml: string;
  /** PEM CA bundle, when the cloud uses a private CA. */
  cacert?: string;
}

/** Everything decided about one cluster. */
export interface ClusterDecisions {
  cluster: string;
  /** Namespace of the objects on the management cluster. */
  namespace: string;
  settings: Settings;
  image: ImageChoice;
  controller: FlavorChoice;
  worker: FlavorChoice;
  /** restrict_kubeapi as decided by lib/plan/kubeapi.ts (the API LB always keeps its floating IP). */
  kubeApi: { allowedCIDRs?: string[]; provider?: string };
  serverGroups: ServerGroupAction[];
  /** undefined = the cloud's credentials are not known (dry-run without clouds.yaml): no Secret. */
  identity?: ClusterIdentity;
  /** Sources of the worker NodePort rules (OVN load balancers; empty = no rule), see lib/plan/nodeports.ts. */
  nodePortSources: string[];
  /** Files on every node (control plane and workers): the registry_mirrors hosts.toml and CAs, see lib/plan/registry-hosts.ts. */
  nodeFiles?: NodeFile[];
}

/** Names of the objects of one cluster on the management cluster. */
export function clusterObjectNames(cluster: string) {
  return {
    secret: `${cluster}-cloud-config`,
    controlPlane: `${cluster}-control-plane`,
    machineDeployment: `${cluster}-md-0`,
    kubeconfigSecret: `${cluster}-kubeconfig`,
  };
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The OpenStackCluster `externalNetwork` reference for the setting (ID or name; "" = CAPO picks the only one). */
export function externalNetworkRef(setting: string): { id: string } | { filter: { name: string } } | undefined {
  if (!setting) return undefined;
  return UUID.test(setting) ? { id: setting } : { filter: { name: setting } };
}

const metadataList = (m: Settings['controller_metadata']) =>
  Object.keys(m).sort().map((key) => ({ key, value: String(m[key]) }));

/** The template variables for the decisions. */
export function templateVariables(d: ClusterDecisions): Record<string, unknown> {
  const s = d.settings;
  const names = clusterObjectNames(d.cluster);
  const group = (role: 'controller' | 'worker') => d.serverGroups.find((g) => g.role === role)?.name ?? '';
  return {
    cluster: d.cluster,
    namespace: d.namespace,
    kubernetesVersion: d.image.kubernetesVersion,
    image: d.image.image,
    sshKeyName: s.ssh_key_name,
    availabilityZone: s.availability_zone,
    etcdUnsafeFs: s.etcd_unsafe_fs,
    nodeFiles: d.nodeFiles ?? [],
    tags: [`kaas-cluster-${d.cluster}`],
    identity: {
      secretName: names.secret,
      cloudName: 'openstack',
      cloudsYaml: d.identity?.cloudsYaml ?? '',
      cacert: d.identity?.cacert ?? '',
    },
    api: { allowedCIDRs: d.kubeApi.allowedCIDRs ?? [], provider: d.kubeApi.provider ?? '' },
    network: {
      nodeCidr: s.node_cidr,
      podCidr: s.pod_cidr,
      serviceCidr: s.service_cidr,
      dnsNameservers: s.dns_nameservers,
      externalNetwork: externalNetworkRef(s.external_network) ?? '',
      nodePortSources: d.nodePortSources,
    },
    controlPlane: {
      name: names.controlPlane,
      templateBase: names.controlPlane,
      count: s.controller_count,
      flavor: d.controller.flavor,
      rootVolumeGiB: d.controller.rootVolumeGiB,
      serverGroup: group('controller'),
      metadata: metadataList(s.controller_metadata),
      gen: s.controller_gen,
    },
    workers: {
      name: names.machineDeployment,
      templateBase: names.machineDeployment,
      configBase: names.machineDeployment,
      count: s.worker_count,
      flavor: d.worker.flavor,
      rootVolumeGiB: d.worker.rootVolumeGiB,
      serverGroup: group('worker'),
      metadata: metadataList(s.worker_metadata),
      gen: s.worker_gen,
    },
  };
}
