import type { SettingKey, Settings } from './types.js';

/** The kinds of value a setting can hold; each kind knows its JSON Schema and its wording. */
export type SettingType =
  | { kind: 'boolean' }
  | { kind: 'string' }
  | { kind: 'integer'; min?: number; max?: number }
  | { kind: 'enum'; values: (string | boolean)[] }
  | { kind: 'boolOrVersion' }
  | { kind: 'version'; allowPatchX?: boolean }
  | { kind: 'cidr' }
  | { kind: 'cidrList'; bareIpAsHost?: boolean; allowNone?: boolean }
  | { kind: 'ipList' }
  /** containerd registry host configs, see ./registry-mirrors.ts. */
  | { kind: 'registryMirrors' }
  /** Where helm takes a chart from: an http(s) chart repository (index.yaml) or an oci:// chart reference. */
  | { kind: 'chartRepo' }
  /** `keys: 'metadata'` allows Nova metadata keys (upper case, '_', '.', ':'); else cloud.conf option names. */
  | { kind: 'map'; keys?: 'option' | 'metadata' };

export type SettingGroup = 'cloud' | 'ingress' | 'network' | 'cluster' | 'add-ons' | 'management';

/** One declaration per setting: this drives validation, env names, schema, `settings show` and docs. */
export interface SettingDecl<K extends SettingKey = SettingKey> {
  key: K;
  type: SettingType;
  /** Built-in default; `undefined` means "no default: must be set where it is needed". */
  default: Settings[K] | undefined;
  group: SettingGroup;
  description: string;
  /** SCS (clusterctl.yaml / environment tfvars) names accepted with a deprecation warning. */
  legacy?: string[];
}

type Table = { [K in SettingKey]: Omit<SettingDecl<K>, 'key'> };

const bool = { kind: 'boolean' } as const;
const str = { kind: 'string' } as const;
const cidr = { kind: 'cidr' } as const;
const map = { kind: 'map' } as const;
const metadata = { kind: 'map', keys: 'metadata' } as const;
const bov = { kind: 'boolOrVersion' } as const;

const TABLE: Table = {
  cloud: {
    type: str, default: undefined, group: 'cloud', legacy: ['OPENSTACK_CLOUD'],
    description: 'Name of the clouds.yaml entry to use (else OS_CLOUD, else plain OS_* variables).',
  },
  deploy_nginx_ingress: {
    type: bov, default: false, group: 'ingress', legacy: ['DEPLOY_NGINX_INGRESS'],
    description: 'Deploy ingress-nginx (retired upstream: no security fixes after March 2026): true (the bundled version matching kubernetes_version), false, or a bundled version "vX.Y.Z". The default false is for clusters kaas creates; left unset, an existing cluster keeps what runs (one that runs ingress-nginx from the old default true keeps it), and settings import writes the SCS value explicitly.',
  },
  nginx_use_proxy: {
    type: bool, default: true, group: 'ingress', legacy: ['NGINX_INGRESS_PROXY', 'NGINX_USE_PROXY'],
    description: 'Use PROXY protocol between an amphora load balancer and the edge proxy (nginx, and Envoy for the gateway) so that it sees client IPs (ignored with OVN, which keeps them).',
  },
  use_ovn_lb_provider: {
    type: { kind: 'enum', values: [true, false, 'auto'] }, default: false, group: 'ingress', legacy: ['USE_OVN_LB_PROVIDER'],
    description: 'Use the OVN Octavia provider for Service load balancers: true (required), false, or auto (when offered and Octavia is Wallaby or later).',
  },
  occm_loadbalancer: {
    type: map, default: {}, group: 'ingress',
    description: 'Extra cloud.conf [LoadBalancer] options for OCCM, e.g. {create-monitor: true, ingress-hostname-suffix: example.org}.',
  },
  deploy_harbor: {
    type: bool, default: false, group: 'ingress', legacy: ['DEPLOY_HARBOR'],
    description: 'Harbor will be deployed; with harbor_domain_name set this forces the ingress on.',
  },
  harbor_domain_name: {
    type: str, default: '', group: 'ingress', legacy: ['HARBOR_DOMAIN_NAME'],
    description: 'Domain name of the Harbor registry (empty: no Harbor ingress).',
  },
  deploy_gateway: {
    type: bov, default: true, group: 'ingress',
    description: 'Deploy the Gateway API (standard CRDs) with Envoy Gateway, the supported successor of ingress-nginx: true (the bundled version), false, or a bundled version "vX.Y.Z". The default true is for clusters kaas creates; left unset, an existing cluster keeps what runs (one without the gateway gets none), and settings import writes it explicitly (false unless DEPLOY_GATEWAY_API is true). nginx_use_proxy, use_ovn_lb_provider and occm_loadbalancer apply to its load balancer too; it may run beside ingress-nginx during a migration.',
  },
  gateway_class: {
    type: str, default: 'kaas', group: 'ingress',
    description: 'Name of the GatewayClass kaas creates for Envoy Gateway (the default Gateway "kaas" in envoy-gateway-system uses it; migrate-ingress attaches routes to that Gateway).',
  },
  restrict_kubeapi: {
    type: { kind: 'cidrList', bareIpAsHost: true, allowNone: true }, default: [], group: 'network', legacy: ['RESTRICT_KUBEAPI'],
    description: 'CIDRs allowed to reach the kube-API load balancer (a bare IP means /32); [] = open to all; ["none"] = exclusive internal access (the LB keeps its floating IP, only the management host is allowed). The management host is always added, CAPO adds the cluster subnets and router IPs; a restricted API LB is pinned to amphora, whatever use_ovn_lb_provider says.',
  },
  node_cidr: {
    type: cidr, default: '10.8.0.0/20', group: 'network', legacy: ['NODE_CIDR'],
    description: 'Subnet of the cluster nodes (also the range nginx trusts for PROXY headers: the amphorae reach the nodes from their ports in it).',
  },
  ovn_nodeport_cidrs: {
    type: { kind: 'cidrList', bareIpAsHost: true }, default: [], group: 'network',
    description: 'With OVN load balancers: further sources allowed to reach the worker NodePorts (30000-32767); node_cidr is always allowed (by CAPO\'s own rule; OVN health checks come from there), clients are let in by OCCM per Service (loadBalancerSourceRanges). ["0.0.0.0/0"] opens them to all.',
  },
  pod_cidr: { type: cidr, default: '192.168.0.0/16', group: 'network', legacy: ['POD_CIDR'], description: 'Pod network.' },
  service_cidr: { type: cidr, default: '10.96.0.0/12', group: 'network', legacy: ['SERVICE_CIDR'], description: 'Service network.' },
  dns_nameservers: {
    type: { kind: 'ipList' }, default: ['5.1.66.255', '185.150.99.255'], group: 'network', legacy: ['OPENSTACK_DNS_NAMESERVERS'],
    description: 'DNS servers for the node subnet.',
  },
  external_network: {
    type: str, default: '', group: 'network', legacy: ['OPENSTACK_EXTERNAL_NETWORK_ID'],
    description: 'External network (ID or name) for floating IPs and the router; empty = the only external network.',
  },
  mtu: {
    type: { kind: 'integer', min: 0, max: 9000 }, default: 0, group: 'network', legacy: ['MTU_VALUE'],
    description: 'MTU of the CNI network (0 = auto-detect; else 50 less than the cloud network).',
  },
  kubernetes_version: {
    type: { kind: 'version', allowPatchX: true }, default: 'v1.34.x', group: 'cluster', legacy: ['KUBERNETES_VERSION'],
    description: 'Kubernetes version "vX.Y.Z", or "vX.Y.x" for the newest patch release the image offers.',
  },
  controller_count: {
    type: { kind: 'integer', min: 1, max: 7 }, default: 1, group: 'cluster', legacy: ['CONTROL_PLANE_MACHINE_COUNT'],
    description: 'Number of control-plane nodes: 1, 3, 5 or 7 (odd: etcd runs stacked on them, and Cluster API refuses an even count).',
  },
  controller_flavor: {
    type: str, default: 'SCS-2V-4-20s', group: 'cluster', legacy: ['OPENSTACK_CONTROL_PLANE_MACHINE_FLAVOR'],
    description: 'Nova flavor of the control-plane nodes.',
  },
  controller_root_disk: {
    type: { kind: 'integer', min: 0, max: 10000 }, default: 25, group: 'cluster',
    description: 'Root volume size in GiB for control-plane nodes on diskless flavors (ignored when the flavor has a disk).',
  },
  worker_count: {
    type: { kind: 'integer', min: 0, max: 1000 }, default: 3, group: 'cluster', legacy: ['WORKER_MACHINE_COUNT'],
    description: 'Number of worker nodes; 0 only with deploy_cindercsi, deploy_metrics, deploy_cert_manager, deploy_nginx_ingress and deploy_gateway false (their pods do not run on control-plane nodes).',
  },
  worker_flavor: {
    type: str, default: 'SCS-2V-4-20s', group: 'cluster', legacy: ['OPENSTACK_NODE_MACHINE_FLAVOR'],
    description: 'Nova flavor of the worker nodes.',
  },
  worker_root_disk: {
    type: { kind: 'integer', min: 0, max: 10000 }, default: 25, group: 'cluster',
    description: 'Root volume size in GiB for worker nodes on diskless flavors (ignored when the flavor has a disk).',
  },
  image: {
    type: str, default: '', group: 'cluster', legacy: ['OPENSTACK_IMAGE_NAME'],
    description: 'Glance image of the nodes; empty = "ubuntu-capi-image-<kubernetes_version>".',
  },
  availability_zone: {
    type: str, default: '', group: 'cluster', legacy: ['OPENSTACK_FAILURE_DOMAIN'],
    description: 'Availability zone (failure domain) of the nodes; empty = the cloud default.',
  },
  ssh_key_name: {
    type: str, default: '', group: 'cluster', legacy: ['OPENSTACK_SSH_KEY_NAME'],
    description: 'Nova keypair injected into the nodes; empty = none.',
  },
  anti_affinity: {
    type: bool, default: true, group: 'cluster', legacy: ['OPENSTACK_ANTI_AFFINITY'],
    description: 'Spread nodes over hosts with server groups (control plane hard anti-affinity, workers soft).',
  },
  soft_anti_affinity_controller: {
    type: bool, default: false, group: 'cluster', legacy: ['OPENSTACK_SOFT_ANTI_AFFINITY_CONTROLLER'],
    description: 'Use soft instead of hard anti-affinity for the control plane (when the cloud has too few hosts).',
  },
  controller_gen: {
    type: str, default: 'genc01', group: 'cluster', legacy: ['CONTROL_PLANE_MACHINE_GEN'],
    description: 'Generation suffix of the control-plane machine template (kaas bumps it when the template changes).',
  },
  worker_gen: {
    type: str, default: 'genw01', group: 'cluster', legacy: ['WORKER_MACHINE_GEN'],
    description: 'Generation suffix of the worker machine template (kaas bumps it when the template changes).',
  },
  openstack_cluster_gen: {
    type: str, default: 'geno01', group: 'cluster', legacy: ['OPENSTACK_CLUSTER_GEN'],
    description: 'Generation suffix of the OpenStackCluster template.',
  },
  instance_create_timeout: {
    type: { kind: 'integer', min: 1, max: 240 }, default: 5, group: 'cluster', legacy: ['CLUSTER_API_OPENSTACK_INSTANCE_CREATE_TIMEOUT'],
    description: 'Minutes a server may take to become ACTIVE; kaas sizes its machine waits from it (+10 min per machine to boot and join). SCS set it on the shared CAPO controller; kaas leaves CAPO alone.',
  },
  etcd_unsafe_fs: {
    type: bool, default: false, group: 'cluster', legacy: ['ETCD_UNSAFE_FS'],
    description: 'Run etcd without fsync barriers (faster on slow disks, loses data on power failure).',
  },
  registry_mirrors: {
    type: { kind: 'registryMirrors' }, default: [], group: 'cluster',
    description: 'containerd registry mirrors and registry CAs on every node (control plane and workers), written as /etc/containerd/certs.d/<registry>/hosts.toml: a list of {registry, endpoints, server, capabilities, override_path, skip_verify, ca_file or ca}, e.g. [{registry: docker.io, endpoints: ["https://mirror.example:5000"], ca_file: ./mirror-ca.pem}]. ca_file is relative to the environment file. Needs a node image whose containerd reads /etc/containerd/certs.d (image-builder v0.1.31 and later). A change rolls every node.',
  },
  controller_metadata: {
    type: metadata, default: {}, group: 'cluster', legacy: ['OPENSTACK_CONTROL_PLANE_MACHINE_METADATA'],
    description: 'Extra Nova server metadata for control-plane nodes.',
  },
  worker_metadata: {
    type: metadata, default: {}, group: 'cluster', legacy: ['OPENSTACK_NODE_MACHINE_METADATA'],
    description: 'Extra Nova server metadata for worker nodes.',
  },
  use_cilium: {
    type: bov, default: true, group: 'add-ons', legacy: ['USE_CILIUM'],
    description: 'CNI: true = cilium (the release e2e-tested with kubernetes_version\'s minor: v1.17.6 up to 1.32, v1.18.14 for 1.33, v1.19.3 for 1.34 and 1.35, v1.20.2 from 1.36), "vX.Y.Z" = that cilium version, false = calico. A live cluster\'s cilium moves one minor per run.',
  },
  cilium_chart_repo: {
    type: { kind: 'chartRepo' }, default: 'https://helm.cilium.io', group: 'add-ons',
    description: 'Where cilium\'s chart comes from: a Helm chart repository URL (https://, or http:// on a trusted network), or an oci:// chart reference such as oci://quay.io/cilium/charts/cilium. helm gets it as --repo or as the chart, the cilium CLI as --repository. Air-gapped sites point it at their mirror.',
  },
  calico_version: {
    type: { kind: 'version' }, default: 'v3.27.3', group: 'add-ons', legacy: ['CALICO_VERSION'],
    description: 'Calico version when use_cilium is false (must be bundled).',
  },
  deploy_metrics: {
    type: bool, default: true, group: 'add-ons', legacy: ['DEPLOY_METRICS'],
    description: 'Deploy metrics-server.',
  },
  deploy_cert_manager: {
    type: bov, default: false, group: 'add-ons', legacy: ['DEPLOY_CERT_MANAGER'],
    description: 'Deploy cert-manager through helm: true, false or a version. Not bundled: helm fetches the chart at run time from cert_manager_chart_repo.',
  },
  cert_manager_chart_repo: {
    type: { kind: 'chartRepo' }, default: 'https://charts.jetstack.io', group: 'add-ons',
    description: 'Where cert-manager\'s chart comes from: a Helm chart repository URL (https://, or http:// on a trusted network), or an oci:// chart reference such as oci://quay.io/jetstack/charts/cert-manager. Air-gapped sites point it at their mirror.',
  },
  deploy_occm: {
    type: bov, default: true, group: 'add-ons', legacy: ['DEPLOY_OCCM'],
    description: 'Deploy the OpenStack cloud controller manager: true (matching kubernetes_version), false, or a version.',
  },
  deploy_cindercsi: {
    type: bov, default: true, group: 'add-ons', legacy: ['DEPLOY_CINDERCSI'],
    description: 'Deploy the Cinder CSI driver: true (matching kubernetes_version), false, or a version.',
  },
  mgmt_kubeconfig: {
    type: str, default: '', group: 'management',
    description: 'Kubeconfig of the management cluster; empty = KUBECONFIG or ~/.kube/config.',
  },
  mgmt_context: {
    type: str, default: '', group: 'management',
    description: 'Context of the management cluster in mgmt_kubeconfig; empty = its current context.',
  },
  mgmt_host_cidrs: {
    type: { kind: 'cidrList', bareIpAsHost: true }, default: [], group: 'management',
    description: 'Addresses of the management host allowed to reach the kube-API; empty = looked up through mgmt_server_name.',
  },
  mgmt_server_name: {
    type: str, default: '', group: 'management',
    description: 'Nova server name of the management host, to find its floating IP for the kube-API allow-list.',
  },
  workload_kubeconfig: {
    type: str, default: '', group: 'management',
    description: 'Where create-cluster writes the workload kubeconfig and apply-ingress reads it; empty = ~/.kube/kaas/env.<env>/<namespace>/<cluster>.yaml.',
  },
  prefix: {
    type: str, default: 'capi', group: 'management',
    description: 'Prefix of OpenStack resources kaas creates outside Cluster API (server groups).',
  },
  namespace: {
    type: str, default: '', group: 'management',
    description: 'Namespace of the cluster\'s objects on the management cluster (created if missing); empty = where the Cluster already is, else the cluster name (as the SCS scripts). A namespace other than the cluster name also prefixes OCCM\'s cluster-name, so two environments can run the same cluster name in one project.',
  },
};

/** Every setting, in documentation order. */
export const SETTINGS: SettingDecl[] = (Object.keys(TABLE) as SettingKey[]).map(
  (key) => ({ key, ...TABLE[key] }) as SettingDecl,
);

/** The declaration of one setting. */
export function declOf(key: SettingKey): SettingDecl {
  return { key, ...TABLE[key] } as SettingDecl;
}

/** True when `name` is a current setting key. */
export function isSettingKey(name: string): name is SettingKey {
  return Object.prototype.hasOwnProperty.call(TABLE, name);
}

/** Legacy SCS name → current key. */
export const LEGACY: ReadonlyMap<string, SettingKey> = new Map(
  SETTINGS.flatMap((d) => (d.legacy ?? []).map((l) => [l, d.key] as const)),
);

/** The environment variable that sets a key: KAAS_<KEY>. */
export function envName(key: SettingKey): string {
  return `KAAS_${key.toUpperCase()}`;
}
