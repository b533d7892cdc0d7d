import { UsageError } from '../errors.js';
import type { Layer } from '../settings/file.js';

/**
 * Which SCS file a user handed to `settings import`, told from its text, so that a cluster template
 * or a tfvars file given as the clusterctl.yaml is named for what it is (with what to pass instead)
 * rather than answered with YAML syntax errors. Pure.
 */

/** The kinds of file an SCS management host holds that users pass to settings import. */
export type ScsFileKind = 'clusterctl.yaml' | 'cluster template' | 'tfvars' | 'cloud.conf' | 'unknown';

/** What `text` is, from its shape. */
export function scsFileKind(text: string): ScsFileKind {
  const lines = text.split('\n').filter((l) => l.trim() !== '' && !/^\s*#/.test(l));
  if (/^kind:\s*\S/m.test(text) && /^apiVersion:\s*\S/m.test(text)) return 'cluster template';
  if (lines.some((l) => /^\[[A-Za-z][\w .-]*\]\s*$/.test(l))) return 'cloud.conf';
  const assignments = lines.filter((l) => /^\s*[A-Za-z_][\w-]*\s*=/.test(l)).length;
  const keys = lines.filter((l) => /^[A-Za-z_][\w.-]*\s*:(\s|$)/.test(l)).length;
  if (assignments > 0 && assignments >= keys) return 'tfvars';
  return keys > 0 ? 'clusterctl.yaml' : 'unknown';
}

/** The flag each kind goes to, and how to say it. */
const FLAG_OF: Record<Exclude<ScsFileKind, 'unknown'>, string> = {
  'clusterctl.yaml': 'the first argument',
  'cluster template': '(none: kaas renders its own cluster objects from settings)',
  tfvars: '--tfvars',
  'cloud.conf': '--cloud-conf',
};

const DESCRIBED: Record<Exclude<ScsFileKind, 'unknown'>, string> = {
  'clusterctl.yaml': 'an SCS clusterctl.yaml (KEY: value)',
  'cluster template': 'a Cluster API cluster template (Kubernetes objects with ${VARIABLE} placeholders)',
  tfvars: 'a Terraform variables file (name = value)',
  'cloud.conf': 'an OpenStack cloud.conf (INI sections)',
};

/**
 * Refuses (exit 2) a file passed as `flag` that is plainly another kind of SCS file, naming what
 * it is and what to pass instead. `expected` is the kind the flag takes.
 */
export function checkScsFileKind(text: string, shown: string, flag: string, expected: Exclude<ScsFileKind, 'unknown'>): void {
  const kind = scsFileKind(text);
  if (kind === expected || kind === 'unknown') return;
  const where = flag === 'clusterctl.yaml' ? shown : `${flag} ${shown}`;
  const cmd = 'kaas settings import ~/<cluster>/clusterctl.yaml --cluster <name>';
  const hint = kind === 'cluster template'
    ? `pass the cluster's clusterctl.yaml, which holds the values of the template's variables (${cmd}); the template itself is not needed`
    : kind === 'clusterctl.yaml'
      ? `pass it as the first argument: ${cmd}`
      : `pass it with ${FLAG_OF[kind]}, next to the cluster's clusterctl.yaml: ${cmd} ${FLAG_OF[kind]} ${shown}`;
  throw new UsageError(`${where} is ${DESCRIBED[kind]}, not ${DESCRIBED[expected]}; nothing was imported`, { hint });
}

/**
 * The warning an import owes when the imported restrict_kubeapi limits the kube-API and no
 * mgmt_host_cidrs says where the management cluster comes from (the SCS scripts added the
 * management host's address themselves; kaas must be told it, or find it through mgmt_server_name).
 */
export function restrictNeedsMgmtHost(cluster: string, env: Layer, section: Layer | undefined): string | undefined {
  const value = <T>(k: 'restrict_kubeapi' | 'mgmt_host_cidrs' | 'mgmt_server_name') => (section?.values[k] ?? env.values[k]) as T | undefined;
  const restrict = value<string[]>('restrict_kubeapi') ?? [];
  if (restrict.length === 0 || (value<string[]>('mgmt_host_cidrs') ?? []).length) return undefined;
  const server = value<string>('mgmt_server_name');
  return `clusters.${cluster}.restrict_kubeapi is [${restrict.join(', ')}]: the kube-API load balancer will admit only those addresses, and the management cluster must reach it too. `
    + `The SCS scripts added the management host's address themselves; kaas needs mgmt_host_cidrs (the address(es) the management cluster reaches the cloud from, e.g. mgmt_host_cidrs: [203.0.113.10])`
    + (server ? `, or finds it as the floating IP of server ${server} (mgmt_server_name) when that server is in this project` : '; without it create-cluster refuses the plan');
}
