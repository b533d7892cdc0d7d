import type { FlavorChoice, ImageChoice } from '../plan/machines.js';
import type { ServerGroupAction } from '../plan/server-groups.js';
import type { Settings } from '../settings/types.js';

/**
 * The variables the templates under templates/cluster/ are rendered with: every decision already
 * taken, nothing looked up here. Names of objects live here so that the use cases (apply, wait,
 * delete) and the templates agree.
 */

/** Namespace of the Cluster API objects on the management cluster. */
export const CLUSTER_NAMESPACE = 'default';

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
  settings: Settings;
  image: ImageChoice;
  controller: FlavorChoice;
  worker: FlavorChoice;
  /** restrict_kubeapi as decided by lib/plan/kubeapi.ts (the API LB always keeps its floating IP). */
  kubeApi: { allowedCIDRs?: string[]; provider?: string };
  serverGroups: ServerGroupAction[];
  /** undefined = the cloud's credentials are not known (dry-run without clouds.yaml): no Secret. */
  identity?: ClusterIdentity;
  /** The Service load balancers use OVN: open the NodePorts to clients. */
  ovnLb: boolean;
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
    namespace: CLUSTER_NAMESPACE,
    kubernetesVersion: d.image.kubernetesVersion,
    image: d.image.image,
    sshKeyName: s.ssh_key_name,
    availabilityZone: s.availability_zone,
    etcdUnsafeFs: s.etcd_unsafe_fs,
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
      nodePortsOpen: d.ovnLb,
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
