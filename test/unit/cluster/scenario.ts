import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { ApplyDeps } from '../../../lib/cluster/create/apply.js';
import { createCluster, type CreateClusterOptions } from '../../../lib/cluster/create/create.js';
import type { Clock } from '../../../lib/cluster/wait.js';
import { createProcessRunner } from '../../../lib/exec/runner.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeManagementCluster, fakeRunner, fakeTools, type FakeCall, type FakeManagementCluster, type FakeObject, type FakeTools } from '../../fakes/fake-tools.js';
import { clusterLbPlan } from '../../../lib/cluster/lb-plan.js';
import { exampleCloudState, fakeCloud, type FakeCloudState } from './fake-cloud.js';
import { tempDir } from '../../support/temp.js';

/** Recorded/synthetic outputs of kubectl and clusterctl against a CAPI v1.12 management cluster. */
export const R = 'test/fakes/recorded/capi-v1.12';
const K = 'test/fakes/recorded/kubectl-v1.32';

/** A temp home and the file names the flows use. */
export function sandbox() {
  const home = tempDir('kaas-cluster-');
  // The recorded kubeconfig of cluster demo of environment example (namespace setting empty: demo).
  return { home, mgmt: path.join(home, 'mgmt.kubeconfig'), workload: path.join(home, '.kube', 'kaas', 'env.example', 'demo', 'demo.yaml') };
}

/** Builders of expected calls. */
export function calls(mgmtKubeconfig: string, workloadKubeconfig: string) {
  const m = (...a: string[]) => ['--kubeconfig', mgmtKubeconfig, ...a];
  const w = (...a: string[]) => ['--kubeconfig', workloadKubeconfig, ...a];
  const kc = (argv: string[], response: FakeCall['response'] = {}, extra: Partial<FakeCall> = {}): FakeCall => ({ tool: 'kubectl', argv, response, ...extra });
  const ssa = ['apply', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'];
  const get = (kind: string, name: string, ns: string) => ['get', kind, name, '--namespace', ns, '-o', 'json'];
  return {
    apiVersions: (file = 'api-versions.txt') => kc(m('api-versions'), { stdoutFile: `${R}/${file}` }),
    /** Both CRDs the preflight reads, in one kubectl run (preflight.ts gatherManagementFacts). */
    crds: () => kc(m('get', 'customresourcedefinition', 'openstackclusters.infrastructure.cluster.x-k8s.io', 'images.openstack.k-orc.cloud', '--ignore-not-found', '-o', 'json'), {
      stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [`${R}/get-crd-openstackclusters.json`, `${R}/get-crd-images-orc.json`].map((f) => JSON.parse(readFileSync(f, 'utf8'))) }),
    }),
    deployments: (file = 'get-deployments-all.json') => kc(m('get', 'deployments', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/${file}` }),
    /** The preflight of a ready CAPI v1.12 + CAPO v0.14 + ORC management cluster (preflight.ts). */
    preflight(): FakeCall[] {
      return [this.apiVersions(), this.crds(), this.deployments()];
    },
    rollout: (resource: string) => kc(w('rollout', 'status', resource, '--namespace', 'kube-system', '--timeout=300s'), { stdout: `${resource.startsWith('daemonset') ? 'daemon set' : 'deployment'} "${resource.split('/')[1]}" successfully rolled out\n` }),
    /** The cloud-config consumers' rollouts (OCCM, Cinder CSI) after the add-ons. */
    rollouts(): FakeCall[] {
      return ['daemonset/openstack-cloud-controller-manager', 'deployment/csi-cinder-controllerplugin', 'daemonset/csi-cinder-nodeplugin'].map((r) => this.rollout(r));
    },
    diff: (changed: boolean) => kc(m('diff', '--server-side', '--field-manager=kaas', '--force-conflicts', '-f', '-'), changed ? { stdoutFile: `${R}/diff-new-cluster.txt`, exitCode: 1 } : {}, { stdinContains: ['kind: OpenStackCluster', 'kind: Cluster'] }),
    applyCluster: () => kc(m(...ssa), { stdoutFile: `${R}/apply-cluster.txt` }, { stdinContains: ['kind: KubeadmControlPlane'] }),
    kubeconfigSecret: (present: boolean) => kc(m(...get('secret', 'demo-kubeconfig', 'default')), present ? { stdoutFile: `${R}/get-secret-kubeconfig.json` } : { stderrFile: `${R}/error-secret-kubeconfig-not-found.txt`, exitCode: 1 }),
    getKubeconfig: (): FakeCall => ({ tool: 'clusterctl', argv: ['get', 'kubeconfig', 'demo', '--namespace', 'default', '--kubeconfig', mgmtKubeconfig], response: { stdoutFile: `${R}/clusterctl-get-kubeconfig.yaml` } }),
    applyAddon: (contains: string) => kc(w(...ssa), { stdout: 'applied\n' }, { stdinContains: [contains] }),
    ciliumDaemonSet: (present: boolean) => kc(w(...get('daemonset', 'cilium', 'kube-system')), present ? { stdout: '{"apiVersion":"apps/v1","kind":"DaemonSet","metadata":{"name":"cilium","namespace":"kube-system"},"spec":{"template":{"spec":{"containers":[{"name":"cilium-agent","image":"quay.io/cilium/cilium:v1.18.14"}]}}}}' } : { stderrFile: `${R}/error-daemonset-cilium-not-found.txt`, exitCode: 1 }),
    cilium: (verb: 'install' | 'upgrade'): FakeCall => ({ tool: 'cilium', argv: [verb, '--version', '1.18.14', '--set', 'ipam.mode=kubernetes'], response: { stdout: '🔮 Auto-detected Kubernetes kind: kubeadm\n' } }),
    getCluster: (file?: string, ns = 'default') => kc(m(...get('clusters.v1beta2.cluster.x-k8s.io', 'demo', ns)), file ? { stdoutFile: `${R}/${file}` } : { stderrFile: `${R}/error-cluster-not-found.txt`, exitCode: 1 }),
    /** `get clusters --all-namespaces`: where Clusters named demo are (how kaas finds the namespace). */
    clusterList: (namespaces: string[]) => kc(m('get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'), { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: namespaces.map((namespace) => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'demo', namespace } })) }) }),
    /** The machine templates and OpenStackMachines delete-cluster reads before the Cluster goes (server-group-owner.ts). */
    machineTemplates: (file = 'get-machine-templates-and-machines.json', ns = 'default') => kc(m('get', 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io,openstackmachines.v1beta1.infrastructure.cluster.x-k8s.io', '--namespace', ns, '-o', 'json'), { stdoutFile: `${R}/${file}` }),
    connectionRefused: () => kc(m('api-versions'), { stderrFile: `${K}/error-connection-refused.txt`, exitCode: 1 }),
    m, w, kc, ssa, get,
  };
}

/** A clock that never sleeps; `onSleep` may throw to simulate the process being killed mid-wait. */
export function fakeClock(onSleep?: (n: number) => void): Clock & { sleeps: number } {
  let t = 1_000_000;
  const c = {
    sleeps: 0,
    now: () => t,
    async sleep(ms: number) {
      c.sleeps++;
      onSleep?.(c.sleeps);
      t += ms;
    },
  };
  return c;
}

/** Deps over the fakes: real runner with the fakes on PATH, the fake cloud, a memory logger. */
export function fakeDeps(fake: Pick<FakeTools, 'env'>, cloud = fakeCloud(), clock = fakeClock()): ApplyDeps & { logger: ReturnType<typeof memoryLogger>; cloud: typeof cloud } {
  return {
    logger: memoryLogger(false),
    runner: fakeRunner(fake, createProcessRunner()),
    clock,
    which: async () => true,
    connectCloud: async () => cloud,
    resolveLbPlan: clusterLbPlan,
    readFile: (p) => readFileSync(p, 'utf8'),
    applyIngress: async () => 'ingress-nginx v1.9.6 applied (test stand-in)',
    cloud,
  };
}

/** Common options of the flows in a sandbox. */
export function runOptions(sb: ReturnType<typeof sandbox>, extra: { dryRun?: boolean } = {}) {
  return {
    cluster: 'demo', env: 'example', settingsDir: 'settings', sets: [`mgmt_kubeconfig=${sb.mgmt}`], dryRun: extra.dryRun ?? false,
    environ: { OS_CLIENT_CONFIG_FILE: path.resolve('test/fixtures/cluster/clouds.yaml') }, cwd: process.cwd(), home: sb.home,
    timeouts: { pollMs: 1000 },
  };
}

export { fakeTools };

/** Flags of one create-cluster run of a flow scenario beyond `--set`s (dry run, upgrade, timeouts, …). */
export type FlowRunOptions = { dryRun?: boolean } & Partial<Omit<CreateClusterOptions, 'sets' | 'dryRun'>>;

/** A stateful create-cluster flow: a sandbox, a fake management cluster and a fake cloud, fresh per test. */
export interface FlowScenario {
  sb: ReturnType<typeof sandbox>;
  mgmt: FakeManagementCluster;
  /** The fake cloud the next run connects to; a test may replace it before its first run. */
  cloud: ReturnType<typeof fakeCloud>;
  /** create-cluster demo in the sandbox with these `--set`s on top of runOptions' (mgmt_kubeconfig). */
  run(sets?: string[], extra?: FlowRunOptions): ReturnType<typeof createCluster>;
  /** An object of the management cluster (namespace demo unless told). */
  obj(kind: string, name: string, ns?: string): FakeObject | undefined;
  /** The sorted names of the management cluster's objects of a kind. */
  names(kind: string): string[];
}

/**
 * Registers beforeEach/afterEach in the calling describe: each test gets a new sandbox, a fake
 * management cluster (cleaned up after it) and a fake cloud of `cloudState()`. Read the fields
 * inside tests only (they are set by beforeEach).
 */
export function flowScenario(cloudState: () => FakeCloudState = exampleCloudState): FlowScenario {
  const s = {
    run(sets: string[] = [], extra: FlowRunOptions = {}) {
      const o = runOptions(s.sb, { dryRun: extra.dryRun });
      return createCluster({ ...o, ...extra, dryRun: o.dryRun, sets: [...o.sets, ...sets] }, fakeDeps(s.mgmt, s.cloud));
    },
    obj: (kind: string, name: string, ns = 'demo') => s.mgmt.objects()[`${kind}/${ns}/${name}`],
    names: (kind: string) => Object.values(s.mgmt.objects()).filter((o) => o.kind === kind).map((o) => o.metadata.name).sort(),
  } as FlowScenario;
  beforeEach(() => {
    s.sb = sandbox();
    s.mgmt = fakeManagementCluster(s.sb.mgmt);
    s.cloud = fakeCloud(cloudState());
  });
  afterEach(() => s.mgmt.cleanup());
  return s;
}
