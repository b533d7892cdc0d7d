import { readFileSync, existsSync, writeFileSync, rmSync } from 'node:fs';
import { createProcessRunner, type ProcessRunner } from '../../lib/exec/runner.js';
import path from 'node:path';
import { tempDir } from '../support/temp.js';

/** One expected invocation of a faked tool and what it answers. Paths are relative to the repo root. */
export interface FakeCall {
  tool: string;
  /** The exact argv after the tool name. */
  argv: string[];
  /** Exact stdin expected (inline or from a file). */
  stdin?: string;
  stdinFile?: string;
  /** Substrings stdin must contain (when the exact text is not the point). */
  stdinContains?: string[];
  response?: {
    stdout?: string;
    stdoutFile?: string;
    stderr?: string;
    stderrFile?: string;
    exitCode?: number;
    /** Answer only after this many milliseconds (the call is recorded at once): a slow API server. */
    delayMs?: number;
  };
}

/** One recorded invocation (from the log file the fake writes). */
export interface RecordedCall {
  index: number;
  tool: string;
  argv: string[];
  stdin: string;
  /** Set when the call did not match the scenario; the fake exited 97. */
  unexpected?: string;
}

/** A prepared scenario: the env to run the code under test with, and what happened. */
export interface FakeTools {
  /** Absolute directory holding the fake executables (kubectl, clusterctl). */
  binDir: string;
  /** Absolute path of the fake kubectl (for code that takes the binary as a parameter). */
  bin(tool: string): string;
  /** Environment for a child process: fakes first on PATH, scenario and log paths set. */
  env: Record<string, string>;
  /** Every call the fakes saw, in order. */
  calls(): RecordedCall[];
  /** Throws when a call was unexpected or an expected call was never made. */
  assertDone(): void;
  cleanup(): void;
}

/** The folder of recorded real-tool outputs (relative to the repo root). */
export const RECORDED = 'test/fakes/recorded/kubectl-v1.32';

/**
 * Writes a scenario (expected calls in order) to a fresh temp dir and returns the environment
 * that puts the fakes first on PATH. Tests run from the repo root (npm test), so `test/fakes/bin`
 * is resolved against process.cwd().
 */
export function fakeTools(calls: FakeCall[]): FakeTools {
  const dir = tempDir('kaas-fake-');
  const scenario = path.join(dir, 'scenario.json');
  const log = path.join(dir, 'calls.jsonl');
  writeFileSync(scenario, JSON.stringify({ baseDir: process.cwd(), calls }, null, 2));
  const binDir = path.resolve(process.cwd(), 'test/fakes/bin');
  const read = (): RecordedCall[] =>
    existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedCall) : [];
  return {
    binDir,
    bin: (tool) => path.join(binDir, tool),
    env: { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, KAAS_FAKE_SCENARIO: scenario, KAAS_FAKE_LOG: log },
    calls: read,
    assertDone() {
      const got = read();
      const bad = got.find((c) => c.unexpected);
      if (bad) throw new Error(`fake ${bad.tool}: call #${bad.index + 1} ${JSON.stringify(bad.argv)} was unexpected: ${bad.unexpected}`);
      if (got.length < calls.length) {
        const missing = calls.slice(got.length).map((c) => `${c.tool} ${JSON.stringify(c.argv)}`);
        throw new Error(`expected calls never made:\n  ${missing.join('\n  ')}`);
      }
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}

/**
 * A ProcessRunner whose children see the fakes' environment (PATH, scenario, log), for in-process
 * tests of adapters; the real execa runner underneath, so argv and stdin travel exactly as in production.
 */
export function fakeRunner(fake: Pick<FakeTools, "env">, base: ProcessRunner = createProcessRunner()): ProcessRunner {
  return { run: (cmd, args, opts = {}) => base.run(cmd, args, { ...opts, env: { ...fake.env, ...opts.env } }) };
}

/** One object in the management-cluster fake's state. */
export type FakeObject = { apiVersion: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; generation?: number; deletionTimestamp?: string; finalizers?: string[] }; spec?: Record<string, unknown>; status?: Record<string, unknown>; [k: string]: unknown };

/** The management-cluster fake (mgmt-cluster.mjs): a stateful cluster behind the fake kubectl/clusterctl. */
export interface FakeManagementCluster {
  binDir: string;
  env: Record<string, string>;
  /** Every call, in order (argv, stdin, exit code, stderr). */
  calls(): (RecordedCall & { exitCode: number; stderr?: string })[];
  /** Calls that change something: apply (not --dry-run), delete, create. */
  mutations(): (RecordedCall & { exitCode: number })[];
  /** The objects of the management cluster, by `Kind/namespace/name`. */
  objects(): Record<string, FakeObject>;
  /**
   * Puts objects on the management cluster as if another tool had created them (e.g. the SCS
   * scripts), or on the workload cluster reached through `kubeconfig`.
   */
  seed(objects: FakeObject[], kubeconfig?: string): void;
  /**
   * false: the controllers make no progress, to test the waits — on the management cluster (machines
   * never come up), on the workload clusters (`kubectl rollout status` times out), or both (default).
   */
  controllers(on: boolean, where?: 'all' | 'management' | 'workload'): void;
  /** false: every workload cluster refuses connections, as kubectl prints it (a broken or gone cluster). */
  workloadReachable(on: boolean): void;
  cleanup(): void;
}

/**
 * What is installed on the management cluster when a test starts: `capi+capo+orc` (what `clusterctl init
 * --infrastructure openstack` plus ORC's install.yaml leave: the CRDs and Available controller
 * Deployments), `clusterctl-init` (no ORC; CAPO's controller not Available, as it stops without ORC's
 * Image CRD) or `bare` (a new cluster: coredns only).
 */
export type ManagementInstall = 'capi+capo+orc' | 'clusterctl-init' | 'bare';

/** CRDs of CAPI v1.12 (core, kubeadm providers, add-ons, IPAM, runtime SDK) and CAPO v0.14: [plural.group, kind, served versions]. */
const CAPI_CRDS: [string, string, string[]][] = [
  ['clusterresourcesets.addons.cluster.x-k8s.io', 'ClusterResourceSet', ['v1beta1', 'v1beta2']],
  ['kubeadmconfigs.bootstrap.cluster.x-k8s.io', 'KubeadmConfig', ['v1beta1', 'v1beta2']],
  ['kubeadmconfigtemplates.bootstrap.cluster.x-k8s.io', 'KubeadmConfigTemplate', ['v1beta1', 'v1beta2']],
  ['clusters.cluster.x-k8s.io', 'Cluster', ['v1beta1', 'v1beta2']],
  ['machinedeployments.cluster.x-k8s.io', 'MachineDeployment', ['v1beta1', 'v1beta2']],
  ['machines.cluster.x-k8s.io', 'Machine', ['v1beta1', 'v1beta2']],
  ['kubeadmcontrolplanes.controlplane.cluster.x-k8s.io', 'KubeadmControlPlane', ['v1beta1', 'v1beta2']],
  ['openstackmachinetemplates.infrastructure.cluster.x-k8s.io', 'OpenStackMachineTemplate', ['v1beta1']],
  ['openstackmachines.infrastructure.cluster.x-k8s.io', 'OpenStackMachine', ['v1beta1']],
  ['ipaddresses.ipam.cluster.x-k8s.io', 'IPAddress', ['v1beta1', 'v1beta2']],
  ['extensionconfigs.runtime.cluster.x-k8s.io', 'ExtensionConfig', ['v1alpha1']],
];

/** The objects a management cluster starts with (CRDs, namespaces, controller Deployments). */
export function installedObjects(installed: ManagementInstall): FakeObject[] {
  const recorded = (f: string) => JSON.parse(readFileSync(path.resolve(process.cwd(), 'test/fakes/recorded/capi-v1.12', f), 'utf8'));
  const crds: FakeObject[] = [];
  if (installed !== 'bare') {
    for (const [name, kind, versions] of CAPI_CRDS) {
      const [plural, ...group] = name.split('.');
      crds.push({ apiVersion: 'apiextensions.k8s.io/v1', kind: 'CustomResourceDefinition', metadata: { name }, spec: { group: group.join('.'), names: { kind, plural }, scope: 'Namespaced', versions: versions.map((v, i) => ({ name: v, served: true, storage: i === versions.length - 1 })) } });
    }
    crds.push(recorded('get-crd-openstackclusters.json'));
    if (installed === 'capi+capo+orc') crds.push(recorded('get-crd-images-orc.json'));
  }
  const deployments = (recorded({ 'capi+capo+orc': 'get-deployments-all.json', 'clusterctl-init': 'get-deployments-no-orc.json', bare: 'get-deployments-bare.json' }[installed]) as { items: FakeObject[] }).items;
  const namespaces = [...new Set(['default', 'kube-system', ...deployments.map((d) => d.metadata.namespace!)])].map((name): FakeObject => ({ apiVersion: 'v1', kind: 'Namespace', metadata: { name } }));
  return [...crds, ...namespaces, ...deployments].map((o) => ({ ...o, metadata: { generation: 1, ...o.metadata } }));
}

/**
 * A management cluster kept in a JSON file: kubectl calls with `--kubeconfig <mgmtKubeconfig>`
 * (and clusterctl) act on it; any other kubeconfig is a workload cluster that accepts add-ons.
 */
export function fakeManagementCluster(mgmtKubeconfig: string, opts: { apiVersionsFile?: string; installed?: ManagementInstall; cloudFile?: string; firstEndpoint?: number } = {}): FakeManagementCluster {
  const dir = tempDir('kaas-mgmt-');
  const state = path.join(dir, 'state.json');
  const log = path.join(dir, 'calls.jsonl');
  const objects = Object.fromEntries(installedObjects(opts.installed ?? 'capi+capo+orc').map((o) => [`${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`, o]));
  // cloudFile: the fake cloud's state (persistentFakeCloud), read by CAPO's deletion (its load balancers' VIP ports block it).
  // firstEndpoint: the last octet of the first Cluster's controlPlaneEndpoint (203.0.113.<n>, default 50, the recorded kubeconfig's).
  writeFileSync(state, JSON.stringify({ mgmt: mgmtKubeconfig, workloadReachable: true, apiVersionsFile: opts.apiVersionsFile, cloudFile: opts.cloudFile, firstEndpoint: opts.firstEndpoint, clusters: { mgmt: { objects, applied: {} } } }));
  const binDir = path.resolve(process.cwd(), 'test/fakes/bin');
  const read = () => (existsSync(log) ? readFileSync(log, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as RecordedCall & { exitCode: number }) : []);
  const load = () => JSON.parse(readFileSync(state, 'utf8')) as { clusters: { mgmt: { objects: Record<string, FakeObject> } } };
  return {
    binDir,
    env: { PATH: `${binDir}${path.delimiter}${process.env.PATH ?? ''}`, KAAS_FAKE_STATE: state, KAAS_FAKE_LOG: log },
    calls: read,
    mutations: () => read().filter((c) => (c.argv.includes('apply') && !c.argv.some((a) => a.startsWith('--dry-run'))) || c.argv.includes('delete') || c.argv.includes('create')),
    objects: () => load().clusters.mgmt.objects,
    seed(objects, kubeconfig) {
      const s = load() as { clusters: Record<string, { objects: Record<string, FakeObject>; applied?: Record<string, unknown> }> };
      const target = (s.clusters[kubeconfig ?? 'mgmt'] ??= { objects: {}, applied: {} });
      for (const o of objects) {
        const ns = ['Namespace', 'PersistentVolume'].includes(o.kind) ? '' : o.metadata.namespace ?? 'default';
        target.objects[`${o.kind}/${ns}/${o.metadata.name}`] = { ...o, metadata: { generation: 1, ...o.metadata } };
      }
      writeFileSync(state, JSON.stringify(s));
    },
    workloadReachable(on) {
      const s = JSON.parse(readFileSync(state, 'utf8'));
      s.workloadReachable = on;
      writeFileSync(state, JSON.stringify(s));
    },
    controllers(on, where = 'all') {
      const s = JSON.parse(readFileSync(state, 'utf8'));
      if (where !== 'workload') s.controllers = on;
      if (where !== 'management') s.workloadControllers = on;
      writeFileSync(state, JSON.stringify(s));
    },
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
