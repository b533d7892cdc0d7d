import { OperationError } from '../errors.js';
import { ExecError } from '../exec/runner.js';
import { servedApiVersions } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import { CAPI_CURRENT, CAPO_CURRENT, clusterctlUpgrade, compareMinor, judgeManagementVersions, minorOf } from '../plan/management-versions.js';
import type { CheckList } from './checks.js';

/**
 * Is the management cluster ready for what kaas renders, as CAPO v0.14 needs it: Cluster API core
 * and the kubeadm providers serving v1beta2 (Cluster API ≥ v1.11; kaas renders v1beta2, which v1.12
 * stores), CAPO serving OpenStackCluster v1beta1, provider versions that fit each
 * other (read from the controllers' image tags: CAPO v0.14 needs Cluster API ≥ v1.12), ORC
 * (openstack-resource-controller, a separate install since CAPO v0.12: CAPO resolves images through
 * its Image CRD and stops without it; not asked of an older CAPO), provider versions kaas supports
 * (Cluster API v1.12–v1.14 with CAPO v0.14: lib/plan/management-versions.ts), and each controller Deployment available. Every missing piece is reported at once, sorted,
 * each with the command that fixes it.
 */

/**
 * ORC release whose install.yaml the fix names. CAPO v0.12 was built against ORC v1, v0.13/v0.14
 * against ORC v2 (CAPO PR #2506), and ORC keeps semver within a major version; v2.6.0 is the
 * newest v2 release CAPO's own tests install (CAPO issue #3241).
 */
export const ORC_VERSION = 'v2.6.0';

/** What kaas found on the management cluster (gathered by `gatherManagementFacts`). */
export interface ManagementFacts {
  /** `kubectl api-versions`. */
  served: string[];
  /** Served versions of the CRD openstackclusters.infrastructure.cluster.x-k8s.io; undefined = no CRD. */
  capoCrd?: string[];
  /** Served versions of the CRD images.openstack.k-orc.cloud; undefined = no CRD. */
  orcCrd?: string[];
  /**
   * Deployments by name (any namespace), with the version tag of their image (`…:v1.12.1`) when it
   * has one; undefined with `deploymentsProblem` when they cannot be listed.
   */
  deployments?: { namespace: string; name: string; available: boolean; version?: string }[];
  deploymentsProblem?: string;
}

/** The verdict: checks passed, problems (sorted, each with its fix), checks that could not run. */
export interface ManagementVerdict {
  ok: { name: string; detail: string }[];
  problems: string[];
  skipped: { name: string; detail: string }[];
  /** OpenStackCluster versions CAPO serves. */
  capoVersions: string[];
}

/** The Cluster API groups kaas renders, in the version it renders (v1beta2, served since Cluster API v1.11). */
const API_GROUPS = [
  { gv: 'cluster.x-k8s.io/v1beta2', what: 'Cluster API core' },
  { gv: 'bootstrap.cluster.x-k8s.io/v1beta2', what: 'Cluster API kubeadm bootstrap provider' },
  { gv: 'controlplane.cluster.x-k8s.io/v1beta2', what: 'Cluster API kubeadm control-plane provider' },
] as const;

/** The controllers that must run, with the component that brings them. */
const CONTROLLERS = [
  { name: 'capi-controller-manager', what: 'Cluster API core', orc: false },
  { name: 'capi-kubeadm-bootstrap-controller-manager', what: 'Cluster API kubeadm bootstrap provider', orc: false },
  { name: 'capi-kubeadm-control-plane-controller-manager', what: 'Cluster API kubeadm control-plane provider', orc: false },
  { name: 'capo-controller-manager', what: 'CAPO (cluster-api-provider-openstack)', orc: false },
  { name: 'orc-controller-manager', what: 'ORC (openstack-resource-controller)', orc: true },
] as const;

/** The commands that fix a missing piece, for this kubeconfig/context. */
export function fixCommands(target: { kubeconfig?: string; context?: string }) {
  const kc = [target.kubeconfig ? ` --kubeconfig ${target.kubeconfig}` : '', target.context ? ` --context ${target.context}` : ''].join('');
  return {
    init: `clusterctl init --infrastructure openstack${target.kubeconfig ? ` --kubeconfig ${target.kubeconfig}` : ''}${target.context ? ` --kubeconfig-context ${target.context}` : ''}`,
    orc: `kubectl${kc} apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`,
    upgrade: `clusterctl upgrade plan${target.kubeconfig ? ` --kubeconfig ${target.kubeconfig}` : ''} (then clusterctl upgrade apply as it says)`,
    upgradeCapi: clusterctlUpgrade(CAPI_RELEASE, undefined, target.kubeconfig),
    look: (ns: string, name: string) => `kubectl${kc} -n ${ns} describe deployment ${name}; kubectl${kc} -n ${ns} logs deployment/${name}`,
  };
}

/** The CAPO minor from which it needs ORC (v0.12 resolves images through ORC's Image CRD; older releases do it themselves). */
export const ORC_SINCE_CAPO: [number, number] = [0, 12];
/** The Cluster API release the fix lines name: the current one (lib/plan/management-versions.ts). */
export const CAPI_RELEASE = CAPI_CURRENT;
/** The CAPO release the fix lines name (kaas is tested against it; `kaas version`). */
export const CAPO_RELEASE = CAPO_CURRENT;

/**
 * Judges the provider versions (pure): the versions kaas supports (judgeManagementVersions: Cluster
 * API v1.12–v1.14 with CAPO v0.14, v1.12 with its end of life named); whether ORC is needed.
 */
export function assessProviderVersions(f: ManagementFacts, target: { kubeconfig?: string } = {}): { ok?: { name: string; detail: string }; problem?: string; skipped?: { name: string; detail: string }; orcNeeded: boolean } {
  const version = (name: string) => f.deployments?.find((d) => d.name === name)?.version;
  const capi = version('capi-controller-manager');
  const capo = version('capo-controller-manager');
  const capoMinor = minorOf(capo);
  const orcNeeded = capoMinor === undefined || compareMinor(capoMinor, ORC_SINCE_CAPO) >= 0;
  // Deployments that cannot be listed are reported once, as the skipped controllers check.
  if (!f.deployments) return { orcNeeded };
  if (!capi || !capo) {
    return { orcNeeded, skipped: { name: 'provider versions', detail: `not checked: the image of ${!capi ? 'capi-controller-manager' : 'capo-controller-manager'} carries no version tag` } };
  }
  const v = judgeManagementVersions(capi, capo, target.kubeconfig);
  if (v.problem) return { orcNeeded, problem: v.problem };
  return { orcNeeded, ok: { name: 'provider versions', detail: v.ok! } };
}

/** The Cluster API groups not served in the version kaas renders and reads (v1beta2), each with its fix (pure). */
export function clusterApiProblems(served: string[], target: { kubeconfig?: string; context?: string } = {}): string[] {
  const fix = fixCommands(target);
  return API_GROUPS.filter((a) => !served.includes(a.gv)).map((a) => {
    const group = a.gv.split('/')[0];
    const older = served.filter((gv) => gv.startsWith(`${group}/`));
    // Installed, but older than v1.11: the providers must be upgraded, not installed again.
    return older.length
      ? `${a.what} serves ${older.join(', ')} but not ${a.gv}, which kaas renders (kaas supports Cluster API v1.12–v1.14; from below v1.11 upgrade at most three minors per step, CAPO and ORC in between: docs/guides/management-cluster-versions.md) — ${fix.upgradeCapi}`
      : `${a.what}: ${a.gv} is not served — ${fix.init}`;
  });
}

/**
 * Why a read of the management cluster failed when it is reachable but serves no v1beta2 Cluster API
 * (Cluster API below v1.11, which older kaas supported): an OperationError naming the clusterctl fix.
 * Undefined when the API is served or the cluster cannot be asked (kubectl's own error then stands).
 */
export async function clusterApiMissing(k: Kubectl): Promise<OperationError | undefined> {
  let served: string[];
  try {
    served = await servedApiVersions(k);
  } catch (e) {
    if (e instanceof ExecError) return undefined;
    throw e;
  }
  const problems = clusterApiProblems(served, k.target);
  if (!problems.length) return undefined;
  return new OperationError('the management cluster does not serve the Cluster API version kaas reads (v1beta2, Cluster API ≥ v1.11)', {
    problems,
    hint: 'upgrade Cluster API on the management cluster with the clusterctl command above, then run kaas again',
  });
}

/** Judges the facts (pure): what is there, what is missing and how to fix each piece. */
export function assessManagementCluster(f: ManagementFacts, target: { kubeconfig?: string; context?: string } = {}): ManagementVerdict {
  const fix = fixCommands(target);
  const v: ManagementVerdict = { ok: [], problems: [], skipped: [], capoVersions: f.capoCrd ?? [] };
  const missingApis = clusterApiProblems(f.served, target);
  v.problems.push(...missingApis);
  if (!missingApis.length) v.ok.push({ name: 'Cluster API', detail: `serves ${API_GROUPS.map((a) => a.gv).join(', ')}` });

  if (!f.capoCrd) v.problems.push(`CAPO (cluster-api-provider-openstack) is not installed (no OpenStackCluster CRD) — ${fix.init}`);
  else if (!f.capoCrd.includes('v1beta1')) {
    v.problems.push(`CAPO serves OpenStackCluster ${f.capoCrd.join(', ') || 'in no version'}; kaas renders v1beta1 (CAPO ≥ v0.10, v0.14 recommended) — ${fix.upgrade}`);
  } else v.ok.push({ name: 'CAPO', detail: `OpenStackCluster served as ${f.capoCrd.join(', ')}` });

  const versions = assessProviderVersions(f, target);
  if (versions.problem) v.problems.push(versions.problem);
  if (!versions.orcNeeded) {
    // CAPO before v0.12 does not use ORC: its absence is no problem.
  } else if (!f.orcCrd) v.problems.push(`ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — ${fix.orc}`);
  else if (!f.orcCrd.includes('v1alpha1')) v.problems.push(`ORC serves Image ${f.orcCrd.join(', ') || 'in no version'}; CAPO v0.14 reads v1alpha1 — ${fix.orc}`);
  else v.ok.push({ name: 'ORC', detail: `Image served as ${f.orcCrd.join(', ')}` });

  if (!f.deployments) {
    v.skipped.push({ name: 'controllers', detail: f.deploymentsProblem ?? 'the Deployments could not be listed' });
  } else {
    const up: string[] = [];
    for (const c of CONTROLLERS.filter((x) => !x.orc || versions.orcNeeded)) {
      const d = f.deployments.find((x) => x.name === c.name);
      if (!d) v.problems.push(`${c.what}: no Deployment ${c.name} — ${c.orc ? fix.orc : fix.init}`);
      else if (!d.available) v.problems.push(`${c.what}: Deployment ${d.namespace}/${c.name} is not available — ${fix.look(d.namespace, c.name)}`);
      else up.push(`${d.namespace}/${c.name}`);
    }
    if (up.length === CONTROLLERS.filter((x) => !x.orc || versions.orcNeeded).length) v.ok.push({ name: 'controllers', detail: `available: ${up.join(', ')}` });
  }
  if (versions.ok) v.ok.push(versions.ok);
  if (versions.skipped) v.skipped.push(versions.skipped);
  v.problems.sort();
  return v;
}

interface CrdJson {
  spec?: { versions?: { name: string; served: boolean }[] };
}
interface DeploymentList {
  items?: {
    metadata: { namespace: string; name: string };
    spec?: { template?: { spec?: { containers?: { name: string; image?: string }[] } } };
    status?: { conditions?: { type: string; status: string }[] };
  }[];
}

const servedVersions = (crd: CrdJson | undefined) => (crd ? (crd.spec?.versions ?? []).filter((x) => x.served).map((x) => x.name) : undefined);

/** The release tag of a controller's image (`manager` container, else the first): `…:v1.12.1` → v1.12.1. */
function imageVersion(containers: { name: string; image?: string }[]): { version?: string } {
  const image = (containers.find((c) => c.name === 'manager') ?? containers[0])?.image ?? '';
  const m = /:(v\d+\.\d+\.\d+[^@]*)(@.*)?$/.exec(image);
  return m ? { version: m[1] } : {};
}

const CAPO_CRD = 'openstackclusters.infrastructure.cluster.x-k8s.io';
const ORC_CRD = 'images.openstack.k-orc.cloud';

/** Options of gatherManagementFacts. */
export interface GatherOptions {
  /** Called once the first read answered (the cluster is reachable), with the API versions it serves: a caller's own reads may start beside the rest. */
  reached?: (served: string[]) => void;
}

/** Asks the management cluster (read-only). Throws when it cannot be reached at all. */
export async function gatherManagementFacts(k: Kubectl, o: GatherOptions = {}): Promise<ManagementFacts> {
  // The first read alone: an unreachable cluster stops there, with kubectl's words.
  const served = await servedApiVersions(k);
  // Then both CRDs (one kubectl run; a missing one is left out of the answer) and the Deployments, at the same time.
  const reads = Promise.all([
    k.getMany<CrdJson & { metadata: { name: string } }>('customresourcedefinition', [CAPO_CRD, ORC_CRD]),
    k.run(['get', 'deployments', '--all-namespaces', '-o', 'json'], { reject: false, timeoutMs: 60_000 }),
  ]);
  o.reached?.(served);
  const [crds, r] = await reads;
  const capoCrd = servedVersions(crds.find((c) => c.metadata.name === CAPO_CRD));
  const orcCrd = servedVersions(crds.find((c) => c.metadata.name === ORC_CRD));
  if (r.exitCode !== 0) return { served, capoCrd, orcCrd, deploymentsProblem: `cannot list Deployments: ${r.stderr.trim().split('\n')[0]}` };
  const deployments = ((JSON.parse(r.stdout) as DeploymentList).items ?? []).map((d) => ({
    namespace: d.metadata.namespace,
    name: d.metadata.name,
    available: (d.status?.conditions ?? []).some((c) => c.type === 'Available' && c.status === 'True'),
    ...imageVersion(d.spec?.template?.spec?.containers ?? []),
  }));
  return { served, capoCrd, orcCrd, deployments };
}

function record(checks: CheckList, v: ManagementVerdict): void {
  for (const c of v.ok) checks.ok(c.name, c.detail);
  for (const c of v.skipped) checks.skipped(c.name, c.detail);
  for (const p of v.problems) checks.failed('management cluster', p);
}

/**
 * The preflight of create-cluster, judging the facts gathered ahead (apply.ts readManagementCluster):
 * records the checks and throws one OperationError listing every
 * missing piece (sorted) before anything is applied. Returns the OpenStackCluster versions served.
 */
export async function checkManagementCluster(k: Kubectl, checks: CheckList, facts: Promise<ManagementFacts>): Promise<string[]> {
  const v = assessManagementCluster(await facts, k.target);
  record(checks, v);
  if (v.problems.length) {
    throw new OperationError(`the management cluster is not ready for kaas (${v.problems.length} missing piece${v.problems.length === 1 ? '' : 's'})`, {
      problems: v.problems,
      hint: 'run the commands named above (ORC before clusterctl init on a new management cluster), then run kaas create-cluster again',
    });
  }
  return v.capoVersions;
}

/**
 * The same checks during --dry-run: reported, never thrown; skipped with the reason when kubectl
 * is missing or the management cluster cannot be reached. Returns the verdict, undefined when not checked.
 */
export async function reportManagementCluster(k: Kubectl | undefined, why: string, checks: CheckList): Promise<ManagementVerdict | undefined> {
  if (!k) {
    checks.skipped('management cluster', why);
    return undefined;
  }
  let facts: ManagementFacts;
  try {
    facts = await gatherManagementFacts(k);
  } catch (e) {
    if (!(e instanceof ExecError)) throw e;
    const said = e.stderrTail.split('\n').filter(Boolean).pop() ?? e.message.split('\n')[0];
    checks.skipped('management cluster', `not reachable, not checked: ${said}`);
    return undefined;
  }
  const v = assessManagementCluster(facts, k.target);
  record(checks, v);
  return v;
}

/** Can the Cluster API and CAPO objects be read (their APIs served)? What a per-object diff needs. */
export function servesClusterObjects(v: ManagementVerdict): boolean {
  return ['Cluster API', 'CAPO'].every((n) => v.ok.some((c) => c.name === n));
}
