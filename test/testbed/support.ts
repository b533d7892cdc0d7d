/**
 * What the testbed scenarios share: the testbed's facts (testbed.env, the peer's peer.env), the built
 * `kaas` run as a user runs it against the testbed, kubectl against the management cluster, an
 * independent OpenStack reader (plain fetch + a Keystone token: not kaas's own lib/openstack) and
 * bounded polling. Runs inside the testbed's network namespace (run.ts puts jest there).
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { KAAS, ROOT } from '../support/cli.js';
import { parseEnvFile } from './env.js';
import { tempDir } from '../support/temp.js';

/** The facts of the running testbed. */
export interface Testbed {
  dir: string;
  netns: string;
  bin: string;
  mgmtKubeconfig: string;
  settingsDir: string;
  cloudsFile: string;
  externalCidr: string;
  k8sVersion: string;
  image: string;
  flavor: string;
  /** PATH with the built clusterctl first. */
  path: string;
  peer: Record<string, string>;
  /** Every secret of the peer (passwords, application-credential secret): never in kaas's output. */
  secrets: string[];
}

let cached: Testbed | undefined;

/** Reads KAAS_TESTBED_ENV (set by run.ts); throws, failing the test, when the testbed was not started. */
export function testbed(): Testbed {
  if (cached) return cached;
  const file = process.env.KAAS_TESTBED_ENV;
  if (!file || !fs.existsSync(file)) throw new Error('KAAS_TESTBED_ENV is not set or missing: run the scenarios with node dist/test/testbed/run.js');
  const e = parseEnvFile(fs.readFileSync(file, 'utf8'));
  const peer = parseEnvFile(fs.readFileSync(path.join(e.TESTBED_DIR, 'peer', 'peer.env'), 'utf8'));
  const secrets = [peer.OS_PEER_ADMIN_PASSWORD, peer.OS_PEER_DEMO_PASSWORD, peer.OS_PEER_APPCRED_SECRET].filter((s) => s && s.length >= 6);
  cached = {
    dir: e.TESTBED_DIR, netns: e.TESTBED_NETNS, bin: e.TESTBED_BIN, mgmtKubeconfig: e.MGMT_KUBECONFIG,
    settingsDir: path.join(e.TESTBED_DIR, 'settings'), cloudsFile: e.OS_CLIENT_CONFIG_FILE, externalCidr: e.TESTBED_EXTERNAL_CIDR,
    k8sVersion: e.TESTBED_K8S_VERSION, image: e.TESTBED_IMAGE, flavor: e.TESTBED_FLAVOR,
    path: `${e.TESTBED_BIN}:${process.env.PATH ?? '/usr/bin:/bin'}`, peer, secrets,
  };
  return cached;
}

/** The outcome of one process run. */
export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
  ms: number;
  /** Killed at the deadline. */
  timedOut: boolean;
}

/** Runs a command with a deadline; never throws for a non-zero exit (the caller asserts). */
export function run(cmd: string, args: string[], o: { env?: NodeJS.ProcessEnv; input?: string; timeoutMs?: number; cwd?: string } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const t0 = Date.now();
    const child = spawn(cmd, args, { env: o.env ?? process.env, cwd: o.cwd ?? ROOT, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5000).unref();
    }, o.timeoutMs ?? 300_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr, ms: Date.now() - t0, timedOut });
    });
    child.stdin.end(o.input ?? '');
  });
}

/** A kaas user of the testbed: its own HOME (kubeconfig contexts, apply records) for one test file. */
export interface KaasUser {
  home: string;
  env: NodeJS.ProcessEnv;
  /** Every output kaas printed so far (for the secrets check). */
  printed: string[];
}

/** A fresh HOME and the environment kaas runs with on the testbed. */
export function kaasUser(): KaasUser {
  const tb = testbed();
  const home = tempDir('kaas-tb-home-');
  return {
    home,
    printed: [],
    env: {
      PATH: tb.path, HOME: home, NO_COLOR: '1', OS_CLIENT_CONFIG_FILE: tb.cloudsFile, CLUSTERCTL_DISABLE_VERSIONCHECK: 'true',
    },
  };
}

/**
 * Runs the built kaas (dist/bundle/kaas.js) with `--settings-dir <testbed>/settings --env testbed`
 * plus `--set` per entry of `sets`. Output is kept for the secrets check.
 */
export async function kaas(u: KaasUser, args: string[], o: { sets?: string[]; timeoutMs?: number; extraEnv?: Record<string, string>; settingsDir?: string } = {}): Promise<Run> {
  const tb = testbed();
  const argv = [KAAS, ...args, '--settings-dir', o.settingsDir ?? tb.settingsDir, '--env', 'testbed', ...(o.sets ?? []).flatMap((s) => ['--set', s])];
  const r = await run(process.execPath, argv, { env: { ...u.env, ...o.extraEnv }, timeoutMs: o.timeoutMs ?? 600_000 });
  u.printed.push(`$ kaas ${args.join(' ')} ${(o.sets ?? []).map((s) => `--set ${s}`).join(' ')}\n${r.stdout}\n${r.stderr}`);
  return r;
}

/** Text for an assertion message: the command's exit and the tail of its output. */
export function tail(r: Run, n = 3000): string {
  return `exit ${r.code}${r.timedOut ? ' (killed at the deadline)' : ''} after ${Math.round(r.ms / 1000)} s\n--- stderr ---\n${r.stderr.slice(-n)}\n--- stdout ---\n${r.stdout.slice(-n)}`;
}

/** The peer's secrets that appear in anything kaas printed (should be none). */
export function leakedSecrets(u: KaasUser): string[] {
  const all = u.printed.join('\n');
  return testbed().secrets.filter((s) => all.includes(s));
}

/** kubectl against the management cluster. */
export function kubectl(args: string[], o: { input?: string; timeoutMs?: number } = {}): Promise<Run> {
  const tb = testbed();
  return run('kubectl', ['--kubeconfig', tb.mgmtKubeconfig, ...args], { env: { ...process.env, PATH: tb.path }, input: o.input, timeoutMs: o.timeoutMs ?? 120_000 });
}

type Obj = { kind?: string; metadata: { name: string; namespace?: string; resourceVersion?: string; generation?: number; labels?: Record<string, string>; annotations?: Record<string, string>; finalizers?: string[] }; spec?: any; status?: any; [k: string]: any };

/** One object as JSON, or undefined when NotFound. */
export async function getObject(resource: string, name: string, namespace: string): Promise<Obj | undefined> {
  const r = await kubectl(['get', resource, name, '-n', namespace, '-o', 'json']);
  if (r.code !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return undefined;
    throw new Error(`kubectl get ${resource} ${name}: ${r.stderr}`);
  }
  return JSON.parse(r.stdout) as Obj;
}

/** The objects of a list (namespace `undefined` = all namespaces). */
export async function listObjects(resource: string, namespace: string | undefined, selector?: string): Promise<Obj[]> {
  const r = await kubectl(['get', resource, ...(namespace ? ['-n', namespace] : ['-A']), ...(selector ? ['-l', selector] : []), '-o', 'json']);
  if (r.code !== 0) throw new Error(`kubectl get ${resource}: ${r.stderr}`);
  return (JSON.parse(r.stdout) as { items: Obj[] }).items;
}

/** The CAPI/CAPO resources of a cluster (versioned as kaas renders them: Cluster API v1beta2, CAPO v1beta1). */
export const RES = {
  cluster: 'clusters.v1beta2.cluster.x-k8s.io',
  openStackCluster: 'openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io',
  kcp: 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io',
  md: 'machinedeployments.v1beta2.cluster.x-k8s.io',
  machine: 'machines.v1beta2.cluster.x-k8s.io',
  osm: 'openstackmachines.v1beta1.infrastructure.cluster.x-k8s.io',
  osmt: 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io',
  kct: 'kubeadmconfigtemplates.v1beta2.bootstrap.cluster.x-k8s.io',
  clusterClass: 'clusterclasses.v1beta2.cluster.x-k8s.io',
  osct: 'openstackclustertemplates.v1beta1.infrastructure.cluster.x-k8s.io',
  kcpt: 'kubeadmcontrolplanetemplates.v1beta2.controlplane.cluster.x-k8s.io',
} as const;

/** Every object of the cluster's kinds in a namespace, name → resourceVersion (for "nothing was applied"). */
export async function snapshot(namespace: string): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  for (const o of (await namespaceObjects(namespace)) ?? []) out.set(`${o.kind}/${o.metadata.name}`, o.metadata.resourceVersion ?? '');
  return out;
}

/** The objects snapshot and kaasWrites compare (the kinds kaas applies, and Secrets); undefined when the namespace is not there. */
async function namespaceObjects(namespace: string, flags: string[] = []): Promise<Obj[] | undefined> {
  const r = await kubectl(['get', `${RES.cluster},${RES.openStackCluster},${RES.kcp},${RES.md},${RES.osmt},${RES.kct},secrets`, '-n', namespace, ...flags, '-o', 'json']);
  if (r.code !== 0) {
    if (/NotFound|not found/.test(r.stderr)) return undefined;
    throw new Error(`kubectl get (${namespace}): ${r.stderr}`);
  }
  return (JSON.parse(r.stdout) as { items: Obj[] }).items;
}

/**
 * What kaas has written to each object of the namespace (`Kind/name` → its generation and the
 * `managedFields` entries of field manager kaas). Unlike the resourceVersion, this does not move when a
 * controller writes: Cluster API sets the Cluster as owner of the machine templates when its
 * MachineDeployment controller gets to them (CAPI machinedeployment_controller.go
 * getTemplatesAndSetOwner, v1.12 and v1.14), which can fall between two snapshots.
 */
export async function kaasWrites(namespace: string): Promise<Map<string, string>> {
  const items = await namespaceObjects(namespace, ['--show-managed-fields']);
  if (!items) throw new Error(`kaasWrites: namespace ${namespace} not found`);
  const out = new Map<string, string>();
  for (const o of items) {
    const meta = o.metadata as { name: string; generation?: number; managedFields?: { manager?: string }[] };
    out.set(`${o.kind}/${meta.name}`, JSON.stringify({ generation: meta.generation, kaas: (meta.managedFields ?? []).filter((m) => m.manager === 'kaas') }));
  }
  return out;
}

/** Polls `probe` every `everyMs` until it returns a value (not undefined) or the deadline passes. */
export async function until<T>(what: string, timeoutMs: number, probe: () => Promise<T | undefined>, everyMs = 3000): Promise<T> {
  const end = Date.now() + timeoutMs;
  let last: unknown;
  for (;;) {
    try {
      const v = await probe();
      if (v !== undefined) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`not within ${Math.round(timeoutMs / 1000)} s: ${what}${last ? ` (last error: ${(last as Error).message})` : ''}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/**
 * The manifest kaas renders for `sets` (create-cluster --dry-run --output-dir), offline: the management
 * cluster is not asked (a kubeconfig that does not exist), so that kaas's own live verdict does not
 * stand between the render and the real webhooks. Returns its cluster.yaml text.
 */
export async function renderedCluster(u: KaasUser, cluster: string, sets: string[] = []): Promise<{ run: Run; yaml: string; dir: string }> {
  const dir = tempDir('kaas-tb-render-');
  const r = await kaas(u, ['create-cluster', cluster, '--dry-run', '--output-dir', dir, '--kubeconfig', path.join(dir, 'no-management-cluster.kubeconfig')], { sets });
  const file = path.join(dir, 'cluster.yaml');
  return { run: r, yaml: fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '', dir };
}

/** `kubectl apply --server-side --dry-run=server` of a manifest: what every real webhook says of it. */
export function serverDryRun(yaml: string, fieldManager = 'kaas'): Promise<Run> {
  return kubectl(['apply', '--server-side', `--field-manager=${fieldManager}`, '--force-conflicts', '--dry-run=server', '-f', '-'], { input: yaml });
}

/** Deletes the cluster with kaas (cleanup of a test file); returns the run. */
export function kaasDelete(u: KaasUser, cluster: string, timeoutMs = 900_000): Promise<Run> {
  return kaas(u, ['delete-cluster', cluster, '--yes'], { timeoutMs });
}

/** `vX.Y.Z` → `vX.Y.(Z+1)` (the patch release after the testbed's); anything else is returned as it is. */
export function nextPatch(v: string): string {
  const m = /^v(\d+)\.(\d+)\.(\d+)$/.exec(v);
  return m ? `v${m[1]}.${m[2]}.${Number(m[3]) + 1}` : v;
}

export { openstack, type OpenStackReader, type CloudCounts } from './openstack.js';
