import { ImportCollector, type RawValue } from './convert.js';
import { show } from '../settings/check.js';
import { scsProviderWarning } from './providers.js';
import { importRegistryFiles, SCS_REGISTRY_DEFAULT, type RegistryFileRead } from './registry.js';
import type { SettingKey } from '../settings/types.js';

/**
 * The SCS environment file `terraform/environments/environment-<cloud>.tfvars` (names from
 * SovereignCloudStack/k8s-cluster-api-provider terraform/environments/environment-default.tfvars).
 * Terraform filled the cluster's clusterctl.yaml from these values, so the clusterctl.yaml wins
 * where both say something: it is what the cluster was created with.
 */

/** tfvars name → kaas setting (most names are the same; the others as clusterctl.yaml.tmpl maps them). */
export const TFVARS_KEYS: ReadonlyMap<string, SettingKey> = new Map<string, SettingKey>([
  ['cloud_provider', 'cloud'],
  ['external_id', 'external_network'],
  ['external', 'external_network'],
  ['capo_instance_create_timeout', 'instance_create_timeout'],
  ...([
    'prefix', 'availability_zone', 'dns_nameservers', 'kubernetes_version', 'calico_version', 'controller_flavor', 'worker_flavor',
    'controller_count', 'worker_count', 'node_cidr', 'service_cidr', 'pod_cidr', 'anti_affinity', 'soft_anti_affinity_controller',
    'use_cilium', 'use_ovn_lb_provider', 'deploy_nginx_ingress', 'deploy_cert_manager', 'deploy_metrics', 'deploy_occm',
    'deploy_cindercsi', 'etcd_unsafe_fs', 'restrict_kubeapi', 'controller_metadata', 'worker_metadata', 'deploy_harbor',
  ] as SettingKey[]).map((k) => [k, k] as [string, SettingKey]),
]);

/** tfvars of the management host and of features kaas does not deploy, and why they are dropped. */
const TFVARS_DROPPED: ReadonlyMap<string, string> = new Map([
  ...['kind_flavor', 'ssh_username', 'image', 'mgmt_cidr', 'mgmt_ip_range', 'kind_mtu', 'cilium_binaries', 'clusterapi_version', 'capi_openstack_version']
    .map((k) => [k, 'management host only: kaas runs wherever kubectl and clusterctl reach the management cluster'] as [string, string]),
  ['kube_image_raw', 'not supported: kaas does not upload node images; register the image in Glance first'],
  ['deploy_gateway_api', 'not supported: kaas does not deploy the Gateway API CRDs'],
  ['deploy_flux', 'not supported: kaas does not deploy flux'],
  ['testcluster_name', 'the cluster name is --cluster'],
]);

/**
 * Reads a tfvars file: `name = value` with strings, numbers, booleans, lists and maps (HCL
 * `{ k = "v" }` or JSON-style `{"k": "v"}`), `#` and `//` comments. tfvars hold literal values only
 * (no expressions), which is all this reads; anything else is a problem naming its line.
 */
export function readTfvars(text: string, file: string): { raws: RawValue[]; problems: string[] } {
  const raws: RawValue[] = [];
  const problems: string[] = [];
  const p = new Parser(text);
  for (;;) {
    p.skipSpace(true);
    if (p.done()) break;
    const line = p.line();
    const name = p.match(/[A-Za-z_][A-Za-z0-9_-]*/y);
    const start = p.pos;
    try {
      if (!name) throw new Error('expected name = value');
      p.skipSpace(false);
      if (!p.match(/=/y)) throw new Error(`expected "=" after ${name}`);
      const value = p.value();
      raws.push({ name, where: `${file}:${line}`, value, text: typeof value === 'string' ? value : p.text.slice(start, p.pos).replace(/^\s*=\s*/, '').trim() });
    } catch (e) {
      problems.push(`${file}:${line}: ${(e as Error).message}`);
      p.skipLine();
    }
  }
  return { raws, problems };
}

class Parser {
  pos = 0;
  constructor(readonly text: string) {}
  done() {
    return this.pos >= this.text.length;
  }
  line() {
    return this.text.slice(0, this.pos).split('\n').length;
  }
  match(re: RegExp): string | undefined {
    re.lastIndex = this.pos;
    const m = re.exec(this.text);
    if (!m) return undefined;
    this.pos += m[0].length;
    return m[0];
  }
  skipLine() {
    const nl = this.text.indexOf('\n', this.pos);
    this.pos = nl < 0 ? this.text.length : nl + 1;
  }
  /** Spaces and comments; newlines too when `newlines` (inside brackets and between entries). */
  skipSpace(newlines: boolean) {
    for (;;) {
      if (this.match(newlines ? /\s+/y : /[ \t]+/y)) continue;
      if (this.match(/(#|\/\/)[^\n]*/y)) continue;
      return;
    }
  }
  value(): unknown {
    this.skipSpace(false);
    const str = this.match(/"(?:[^"\\\n]|\\.)*"/y);
    if (str) return JSON.parse(str) as string;
    const num = this.match(/-?\d+(\.\d+)?(?![\w.])/y);
    if (num) return Number(num);
    const bool = this.match(/(true|false|null)(?!\w)/y);
    if (bool) return bool === 'null' ? null : bool === 'true';
    if (this.match(/\[/y)) return this.list();
    if (this.match(/\{/y)) return this.map();
    throw new Error('expected a string, number, boolean, [list] or {map}');
  }
  list(): unknown[] {
    const out: unknown[] = [];
    for (;;) {
      this.skipSpace(true);
      if (this.match(/\]/y)) return out;
      out.push(this.value());
      this.skipSpace(true);
      if (!this.match(/,/y) && !this.text.startsWith(']', this.pos)) throw new Error('expected "," or "]"');
    }
  }
  map(): Record<string, unknown> {
    const out: Record<string, unknown> = {};
    for (;;) {
      this.skipSpace(true);
      if (this.match(/\}/y)) return out;
      const quoted = this.match(/"(?:[^"\\\n]|\\.)*"/y);
      const key = quoted ? (JSON.parse(quoted) as string) : this.match(/[A-Za-z_][A-Za-z0-9_.-]*/y);
      if (!key) throw new Error('expected a map key');
      this.skipSpace(false);
      if (!this.match(/[=:]/y)) throw new Error(`expected "=" or ":" after ${key}`);
      out[key] = this.value();
      this.skipSpace(true);
      this.match(/,/y);
    }
  }
}

/**
 * Takes the tfvars into the collector after the clusterctl.yaml: a setting the clusterctl.yaml
 * already gave keeps that value (a different tfvars value is noted); the rest are typed as usual.
 */
export function importTfvars(raws: RawValue[], c: ImportCollector, registryFiles: ReadonlyMap<string, RegistryFileRead> = new Map()): void {
  const hasId = raws.some((r) => r.name === 'external_id' && r.value !== '' && r.value !== null);
  if (!raws.some((r) => r.name === 'containerd_registry_files')) {
    c.notes.push(`containerd_registry_files is not set, so SCS gave every node its default ${SCS_REGISTRY_DEFAULT} (Docker Hub through registry.scs.community); kaas configures no mirror unless registry_mirrors says so: to keep it, set registry_mirrors: [{registry: docker.io, endpoints: ["https://registry.scs.community/v2/docker.io"], server: "https://registry-1.docker.io", capabilities: [pull], override_path: true}]`);
  }
  for (const raw of raws) {
    if (raw.name === 'containerd_registry_files') {
      importRegistryFiles(raw, registryFiles, c);
      continue;
    }
    const dropped = TFVARS_DROPPED.get(raw.name);
    if (dropped) {
      c.drop(raw, raw.name === 'testcluster_name' ? 'derived' : 'unsupported', dropped);
      continue;
    }
    if (raw.name === 'harbor_config') {
      const domain = typeof raw.value === 'object' && raw.value ? (raw.value as Record<string, unknown>).domain_name : undefined;
      if (typeof domain === 'string' && domain) takeUnlessSet(c, 'harbor_domain_name', { ...raw, name: 'harbor_config.domain_name', value: domain, text: domain });
      c.drop(raw, 'unsupported', 'only domain_name is taken (as harbor_domain_name); kaas does not deploy Harbor itself');
      continue;
    }
    if (raw.name === 'external' && hasId) {
      c.drop(raw, 'derived', 'external_id is taken instead (the ID the SCS clusterctl.yaml got)');
      continue;
    }
    const key = TFVARS_KEYS.get(raw.name);
    if (!key) {
      c.drop(raw, 'unknown', 'unknown to kaas: no setting has this SCS tfvars name');
      continue;
    }
    takeUnlessSet(c, key, raw);
    // SCS names the keypair "<prefix>-keypair" (clusterctl.yaml.tmpl OPENSTACK_SSH_KEY_NAME).
    if (key === 'prefix' && typeof raw.value === 'string' && raw.value && !('ssh_key_name' in c.values)) {
      c.set('ssh_key_name', `${raw.value}-keypair`, `${raw.name} (${raw.where}; SCS names the keypair <prefix>-keypair)`);
    }
  }
  const providers = scsProviderWarning(raws);
  if (providers) c.warnings.push(providers);
}

function takeUnlessSet(c: ImportCollector, key: SettingKey, raw: RawValue): void {
  if (!(key in c.values)) {
    c.take(key, raw);
    return;
  }
  const probe = new ImportCollector();
  probe.take(key, raw);
  if (key in probe.values && JSON.stringify(probe.values[key]) !== JSON.stringify(c.values[key])) {
    c.notes.push(`${raw.where}: ${raw.name} = ${show(probe.values[key])} differs from ${c.sources[key]} (${show(c.values[key])}); kept the clusterctl.yaml value, which the cluster was created with`);
  }
}
