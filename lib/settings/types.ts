/**
 * The effective settings of one cluster in one environment, after all layers are merged and
 * validated. Keys are the snake_case names users write in settings/<env>.yaml. The declaration of
 * each key (type, default, legacy SCS name, description) lives in ./table.ts.
 */
export type TriState = true | false | 'auto';
/** `true`, `false`, or a pinned version such as "v1.15.1". */
export type BoolOrVersion = boolean | string;
export type ScalarMap = Record<string, string | number | boolean>;

/** One registry's containerd host config (hosts.toml) on every node; see lib/plan/registry-hosts.ts. */
export interface RegistryMirror {
  /** Registry host as in image names ("docker.io", "harbor.example:5000"), or "_default" for every registry. */
  registry: string;
  /** Mirrors tried in order before `server` (http or https URLs). */
  endpoints?: string[];
  /** The registry's own endpoint, tried last; unset = the registry host itself. */
  server?: string;
  /** What the endpoints may do (containerd default: pull, resolve). */
  capabilities?: ('pull' | 'resolve' | 'push')[];
  /** The endpoint URLs carry the API root (no "/v2" added). */
  override_path?: boolean;
  skip_verify?: boolean;
  /** PEM file of the CA that signed the endpoints' certificates (relative: to the environment file's directory). */
  ca_file?: string;
  /** The same CA as PEM text (what settings import writes). */
  ca?: string;
}

export interface Settings {
  // --- cloud
  cloud: string;
  // --- ingress
  deploy_nginx_ingress: BoolOrVersion;
  nginx_use_proxy: boolean;
  use_ovn_lb_provider: TriState;
  occm_loadbalancer: ScalarMap;
  deploy_harbor: boolean;
  harbor_domain_name: string;
  deploy_gateway: BoolOrVersion;
  gateway_class: string;
  // --- network
  restrict_kubeapi: string[];
  node_cidr: string;
  ovn_nodeport_cidrs: string[];
  pod_cidr: string;
  service_cidr: string;
  dns_nameservers: string[];
  external_network: string;
  mtu: number;
  // --- cluster shape
  kubernetes_version: string;
  controller_count: number;
  controller_flavor: string;
  controller_root_disk: number;
  worker_count: number;
  worker_flavor: string;
  worker_root_disk: number;
  image: string;
  availability_zone: string;
  ssh_key_name: string;
  anti_affinity: boolean;
  soft_anti_affinity_controller: boolean;
  controller_gen: string;
  worker_gen: string;
  openstack_cluster_gen: string;
  instance_create_timeout: number;
  etcd_unsafe_fs: boolean;
  registry_mirrors: RegistryMirror[];
  controller_metadata: ScalarMap;
  worker_metadata: ScalarMap;
  // --- add-ons
  use_cilium: BoolOrVersion;
  cilium_chart_repo: string;
  calico_version: string;
  deploy_metrics: boolean;
  deploy_cert_manager: BoolOrVersion;
  cert_manager_chart_repo: string;
  deploy_occm: BoolOrVersion;
  deploy_cindercsi: BoolOrVersion;
  // --- management host / cluster
  mgmt_kubeconfig: string;
  mgmt_context: string;
  mgmt_host_cidrs: string[];
  mgmt_server_name: string;
  workload_kubeconfig: string;
  prefix: string;
  namespace: string;
}

export type SettingKey = keyof Settings;

/** Where an effective value came from, for `settings show`. */
export type Origin =
  | { kind: 'default' }
  | { kind: 'file'; file: string; line: number; section: 'environment' | 'cluster' }
  | { kind: 'env'; name: string }
  | { kind: 'flag'; name: string };

export interface ResolvedSettings {
  /** Environment name (settings/<env>.yaml). */
  env: string;
  /** Cluster whose `clusters.<name>` section was applied, if any. */
  cluster?: string;
  /** Absolute path of the environment file (may not exist for env "default"). */
  file: string;
  values: Settings;
  origins: Record<SettingKey, Origin>;
  /** Deprecation and other non-fatal notes, to print on stderr. */
  warnings: string[];
}
