/**
 * What the workload-side scenarios share: the testbed's facts (testbed.env, written by testbed.sh and
 * workload.sh), kaas and kubectl runs against it (the tests already run inside the testbed's network
 * namespace: run.ts puts jest there), and polling.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cloudConfigHash } from '../../lib/state/cloud-config-rollout.js';
import { ROOT } from '../support/peer-paths.js';
import { tempDir } from '../support/temp.js';
import { parseEnvFile } from './env.js';
import { LbReader } from './openstack-reader.js';

export interface Testbed {
  dir: string;
  env: Record<string, string>;
  cluster: string;
  /** OCCM's --cluster-name (kaas: the cluster name when the namespace is the cluster's). */
  occmName: string;
  workloadKubeconfig: string;
  os: LbReader;
}

export function testbed(): Testbed {
  const file = process.env.KAAS_TESTBED_ENV;
  if (!file || !fs.existsSync(file)) throw new Error('KAAS_TESTBED_ENV unset: run through node dist/test/testbed/run.js');
  const env = parseEnvFile(fs.readFileSync(file, 'utf8'));
  if (!env.WORKLOAD_KUBECONFIG) throw new Error(`${file} has no WORKLOAD_KUBECONFIG: start the testbed with --workload (KAAS_TESTBED_WORKLOAD=1)`);
  const cluster = env.WORKLOAD_CLUSTER;
  return { dir: env.TESTBED_DIR, env, cluster, occmName: cluster, workloadKubeconfig: env.WORKLOAD_ADMIN_KUBECONFIG, os: LbReader.fromTestbed(env.TESTBED_DIR) };
}

export interface Run { code: number | null; stdout: string; stderr: string; ms: number }

/** The built kaas (dist/bundle/kaas.js) with the testbed's environment, `--settings-dir DIR/settings --env testbed` (or `opts.env`) appended. */
export function kaas(tb: Testbed, args: string[], opts: { sets?: Record<string, string>; timeoutMs?: number; home?: string; env?: string } = {}): Run {
  const sets = Object.entries(opts.sets ?? {}).flatMap(([k, v]) => ['--set', `${k}=${v}`]);
  const home = opts.home ?? path.join(tb.dir, 'workload', 'home');
  fs.mkdirSync(home, { recursive: true });
  const t0 = Date.now();
  const r = spawnSync(process.execPath, [path.join(ROOT, 'dist', 'bundle', 'kaas.js'), ...args, '--settings-dir', path.join(tb.dir, 'settings'), '--env', opts.env ?? 'testbed', ...sets], {
    cwd: ROOT, encoding: 'utf8', timeout: opts.timeoutMs ?? 900_000,
    env: { PATH: tb.env.PATH, HOME: home, OS_CLIENT_CONFIG_FILE: tb.env.OS_CLIENT_CONFIG_FILE, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true', NO_COLOR: '1', COLUMNS: '200' },
  });
  if (r.error) throw new Error(`kaas ${args.join(' ')}: ${r.error.message}\n${r.stderr}`);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, ms: Date.now() - t0 };
}

let toolHomeDir: string | undefined;

/**
 * HOME for the kubectl and openstack runs of a test file: a tempDir of its own, removed when the file
 * ends. It was /tmp, where kubectl left its discovery cache (/tmp/.kube/cache) and the openstack client
 * its entry-point cache (/tmp/.cache) after every testbed run.
 */
export function toolHome(): string {
  if (!toolHomeDir || !fs.existsSync(toolHomeDir)) toolHomeDir = tempDir('kaas-tb-tools-home-');
  return toolHomeDir;
}

/** kubectl against the workload apiserver (the admin kubeconfig workload.sh wrote). */
export function wk(tb: Testbed, args: string[], input?: string): string {
  const r = spawnSync('kubectl', ['--kubeconfig', tb.workloadKubeconfig, ...args], { encoding: 'utf8', input, env: { PATH: tb.env.PATH, HOME: toolHome() }, timeout: 120_000, maxBuffer: 256 << 20 });
  if (r.status !== 0) throw new Error(`kubectl ${args.join(' ')}: ${r.stderr}`);
  return r.stdout;
}

export function wkJson<T = any>(tb: Testbed, args: string[]): T | undefined {
  try { return JSON.parse(wk(tb, [...args, '-o', 'json'])) as T; } catch (e) { if (/NotFound|not found/.test(String(e))) return undefined; throw e; }
}

export async function until<T>(what: string, timeoutMs: number, fn: () => Promise<T | undefined | false> | T | undefined | false, everyMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await fn();
      if (v) return v;
    } catch (e) { last = e; }
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs / 1000} s waiting for ${what}${last ? `: ${String(last)}` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The LB OCCM makes for a Service: kube_service_<cluster-name>_<ns>_<name>. */
export const lbName = (tb: Testbed, ns: string, svc: string) => `kube_service_${tb.occmName}_${ns}_${svc}`;

/** The worker Nodes' InternalIPs: the members OCCM should use (control-plane nodes carry exclude-from-external-load-balancers). */
export function memberIps(tb: Testbed): string[] {
  const nodes = wkJson<{ items: any[] }>(tb, ['get', 'nodes'])!.items;
  return nodes.filter((n) => !('node.kubernetes.io/exclude-from-external-load-balancers' in (n.metadata.labels ?? {})))
    .map((n) => n.status.addresses.find((a: any) => a.type === 'InternalIP').address).sort();
}

/**
 * The aggregated metrics API (kaas's metrics-server add-on) can never be Available here: the aggregator
 * would have to reach the metrics-server pod's IP, and there is no data path. While its APIService is
 * unavailable the namespace controller refuses to finish any namespace deletion (discovery failure), so
 * the scenarios delete that APIService before they delete a namespace (a create-cluster run re-applies it).
 */
export function dropMetricsApi(tb: Testbed): void {
  try { wk(tb, ['delete', 'apiservice', 'v1beta1.metrics.k8s.io', '--ignore-not-found']); } catch { /* best effort */ }
}

/** Removes the ingress (namespace ingress-nginx) and waits until OCCM deleted its LB in Octavia. */
export async function removeIngress(tb: Testbed): Promise<void> {
  dropMetricsApi(tb);
  try { wk(tb, ['delete', 'namespace', 'ingress-nginx', '--wait=false']); } catch { /* absent */ }
  await until('the ingress LB to be gone from Octavia', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, 'ingress-nginx', 'ingress-nginx-controller'))).length === 0 && wkJson(tb, ['get', 'namespace', 'ingress-nginx']) === undefined);
}

/** The cloud.conf the running OCCM was started with (workload.sh's occm loop writes it at each start), trimmed. */
export function occmConf(tb: Testbed): string {
  try { return fs.readFileSync(path.join(tb.dir, 'workload', 'cloud.conf'), 'utf8').trim(); } catch { return ''; }
}

/** Writes a line to the scenario log kept beside the testbed (what each step cost, what kaas said). */
export function note(tb: Testbed, text: string): void {
  fs.appendFileSync(path.join(tb.dir, 'log', 'scenarios.log'), `${new Date().toISOString()} ${text}\n`);
}

/**
 * Puts the row's cloud.conf in place as kaas renders and applies it (create-cluster's OCCM add-on: the
 * kube-system/cloud-config Secret and the DaemonSet whose kaas.dev/cloud-config-hash rolls OCCM), then
 * runs `kaas apply-ingress` (or apply-gateway) for real. The add-on is taken from `create-cluster --dry-run --output-dir`
 * (the same render) and applied server-side with kaas's field manager: a full create-cluster per row
 * costs its 3-minute verification of an LB whose members never come ONLINE here; the first row and the
 * provider-switch scenario run the full create-cluster instead.
 */
export async function applyEdge(tb: Testbed, label: string, sets: Record<string, string>, o: { full: boolean; command: 'apply-ingress' | 'apply-gateway'; extra?: string[]; handEdit?: (conf: string) => string }): Promise<{ dry: Run; create?: Run; apply: Run }> {
  let create: Run | undefined;
  const slug = label.replace(/[^a-z0-9]+/g, '-');
  const out = path.join(tb.dir, 'workload', 'rows', slug);
  fs.rmSync(out, { recursive: true, force: true });
  const dry = kaas(tb, ['create-cluster', tb.cluster, '--dry-run', '--output-dir', out], { sets: sets });
  if (dry.code !== 0) return { dry, apply: dry };
  if (o.handEdit) handEditCloudConf(out, o.handEdit);
  const conf = fs.readFileSync(path.join(out, 'cloud.conf'), 'utf8');
  if (o.full) {
    create = kaas(tb, ['create-cluster', tb.cluster], { sets: sets });
    note(tb, `${label}: create-cluster exit ${create.code} in ${create.ms} ms\n${create.stderr.slice(-3000)}`);
  } else {
    wk(tb, ['apply', '--server-side', '--force-conflicts', '--field-manager', 'kaas', '-f', path.join(out, 'addon-occm.yaml')]);
  }
  // OCCM (workload.sh's occm loop, as the DaemonSet) restarted with exactly this cloud.conf.
  await until('OCCM running the row\'s cloud.conf', 180_000, () => occmConf(tb) === conf.trim());
  // With the data path (DATAPATH=1) members really go ONLINE/OFFLINE: kaas's own default window (180 s) for
  // the monitors' first rounds; without it nothing ever changes, and 30 s only bounds the wait.
  const apply = kaas(tb, [o.command, tb.cluster, '--verify-timeout', tb.env.DATAPATH === '1' ? '180' : '30', ...(o.extra ?? [])], { sets });
  note(tb, `${label}: ${o.command} exit ${apply.code} in ${apply.ms} ms\n${apply.stderr.slice(-3000)}`);
  return { dry, create, apply };
}

/**
 * A cloud.conf kaas would refuse to write (a control row: OCCM's monitors off on ovn, as the seeds had it):
 * `edit` rewrites the rendered cloud.conf, the add-on's Secret (every line of it, as indented in the YAML)
 * and the pod template's kaas.dev/cloud-config-hash, so that OCCM rolls onto it as after create-cluster.
 */
function handEditCloudConf(out: string, edit: (conf: string) => string): void {
  const confFile = path.join(out, 'cloud.conf');
  const before = fs.readFileSync(confFile, 'utf8');
  const after = edit(before);
  if (after === before) throw new Error(`handEdit changed nothing in ${confFile}`);
  fs.writeFileSync(confFile, after);
  const addon = path.join(out, 'addon-occm.yaml');
  const yaml = fs.readFileSync(addon, 'utf8');
  const edited = edit(yaml).replace(cloudConfigHash({ 'cloud.conf': before }), cloudConfigHash({ 'cloud.conf': after }));
  if (!edited.includes(cloudConfigHash({ 'cloud.conf': after }))) throw new Error(`${addon}: the Secret or the pod template's cloud-config hash did not follow the hand edit`);
  fs.writeFileSync(addon, edited);
}
