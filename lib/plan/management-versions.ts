/**
 * Which management-cluster provider versions kaas supports, and the upgrade path to them: one table,
 * read by the create-cluster preflight (lib/cluster/preflight.ts), by `settings import` (warnings
 * about the SCS files' provider versions) and described in docs/guides/management-cluster-versions.md.
 *
 * Facts (checked 2026-11-27):
 * - The Go module proxy serves sigs.k8s.io/cluster-api v1.14.2 (newest) and v1.13.6, and
 *   sigs.k8s.io/cluster-api-provider-openstack v0.14.7; CAPO v0.15 is not served.
 * - Cluster API supports the newest two minors and keeps the third (N-2) in maintenance
 *   (cluster-api.sigs.k8s.io/reference/versions); a minor ships about every four months, so v1.12
 *   leaves maintenance when v1.15.0 ships (planned 2026-12-08).
 * - Cluster API tests upgrades of at most three minors at once (n-3 → n; kubernetes-sigs/cluster-api
 *   issue #11920), and keeps v1beta1 served through v1.15 (same issue, its table).
 * - CAPO needs Cluster API ≥ v1.12 for v0.14, ≥ v1.11 for v0.13, ≥ v1.9 for v0.12 (CAPO
 *   README@v0.14.7 "Compatibility"); CAPO ≥ v0.12 resolves images through ORC, which must be
 *   installed first; CAPO v0.11 is the last release serving OpenStackCluster v1alpha7, the version
 *   the SCS templates are written in (CAPO config/crd/bases@v0.11.x / @v0.12.7).
 */

/** A minor version [major, minor]. */
export type Minor = readonly [number, number];

/** The Cluster API release the fix lines name: the newest one served (Go module proxy, 2026-11-27). */
export const CAPI_CURRENT = 'v1.14.2';
/** The CAPO release the fix lines name (the newest v0.14; kaas is tested against it). */
export const CAPO_CURRENT = 'v0.14.7';
/** ORC release installed before CAPO ≥ v0.12 (see lib/cluster/preflight.ts ORC_VERSION). */
export const ORC_RELEASE = 'v2.6.0';

/** The CAPO minor from which CAPO needs ORC. */
const ORC_SINCE: Minor = [0, 12];
/** Cluster API minors kaas accepts on a management cluster, oldest first. */
export const CAPI_SUPPORTED: readonly Minor[] = [[1, 12], [1, 13], [1, 14]];
/** CAPO minors kaas accepts. */
export const CAPO_SUPPORTED: readonly Minor[] = [[0, 14]];
/** Supported minors that are in maintenance only, with the day they reach end of life and why. */
export const CAPI_END_OF_LIFE: Readonly<Record<string, string>> = { '1.12': '2026-12-08 (when Cluster API v1.15.0 ships)' };

/** "v1.12.10" → [1, 12]; undefined when it is no version. */
export function minorOf(version: string | undefined): Minor | undefined {
  const m = /^v?(\d+)\.(\d+)(?:\.|$)/.exec(version ?? '');
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Negative when a < b. */
export function compareMinor(a: Minor, b: Minor): number {
  return a[0] - b[0] || a[1] - b[1];
}

const fmt = (m: Minor) => `v${m[0]}.${m[1]}`;
const inList = (m: Minor, list: readonly Minor[]) => list.some((x) => compareMinor(x, m) === 0);

/** The clusterctl command that moves Cluster API (and optionally CAPO) to the given releases. */
export function clusterctlUpgrade(capi: string | undefined, capo: string | undefined, kubeconfig?: string): string {
  const core = capi ? ` --core cluster-api:${capi} --bootstrap kubeadm:${capi} --control-plane kubeadm:${capi}` : '';
  const infra = capo ? ` --infrastructure openstack:${capo}` : '';
  return `clusterctl upgrade apply${core}${infra}${kubeconfig ? ` --kubeconfig ${kubeconfig}` : ''}`;
}

/**
 * The waypoints from an older management cluster to the supported releases, in order. Each Cluster
 * API step spans at most three minors (what Cluster API tests); ORC comes before CAPO v0.12.
 */
const WAYPOINTS: readonly { capi?: Minor; capo?: Minor; orc?: true; why: string }[] = [
  { capi: [1, 9], capo: [0, 11], why: 'CAPO v0.11 is the last release that still serves v1alpha7 (the SCS templates) and stores v1beta1; Cluster API v1.9 is what CAPO v0.12 needs' },
  { orc: true, why: 'CAPO ≥ v0.12 resolves images through ORC and stops without it' },
  { capi: [1, 12], capo: [0, 14], why: 'CAPO v0.14 needs Cluster API ≥ v1.12; Cluster API moves to the v1beta2 contract here' },
  { capi: [1, 14], capo: [0, 14], why: 'the current Cluster API release' },
];

/**
 * The upgrade steps, in order, from the given provider versions to Cluster API v1.14 with CAPO
 * v0.14 (pure). Unknown versions count as oldest; `orcInstalled` skips the ORC step. Empty when
 * already there.
 */
export function managementUpgradeSteps(from: { capi?: string; capo?: string; orcInstalled?: boolean }, kubeconfig?: string): string[] {
  let capi: Minor = minorOf(from.capi) ?? [1, 0];
  let capo: Minor = minorOf(from.capo) ?? [0, 0];
  const steps: string[] = [];
  for (const w of WAYPOINTS) {
    if (w.orc) {
      if (!from.orcInstalled && compareMinor(capo, ORC_SINCE) < 0) {
        steps.push(`install ORC ${ORC_RELEASE} (kubectl apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_RELEASE}/install.yaml): ${w.why}`);
      }
      continue;
    }
    const capiBehind = w.capi && compareMinor(capi, w.capi) < 0;
    const capoBehind = w.capo && compareMinor(capo, w.capo) < 0;
    if (!capiBehind && !capoBehind) continue;
    const capiTo = capiBehind ? (w.capi![1] === 14 ? CAPI_CURRENT : `${fmt(w.capi!)}.x`) : undefined;
    const capoTo = capoBehind ? (w.capo![1] === 14 ? CAPO_CURRENT : `${fmt(w.capo!)}.x`) : undefined;
    const what = [capiTo && `Cluster API to ${capiTo}`, capoTo && `CAPO to ${capoTo}`].filter(Boolean).join(' and ');
    const patch = (capiTo ?? capoTo ?? '').endsWith('.x') ? ' (x = the newest patch release; clusterctl upgrade plan lists it)' : '';
    steps.push(`${what}: ${clusterctlUpgrade(capiTo, capoTo, kubeconfig)}${patch} — ${w.why}`);
    if (capiBehind) capi = w.capi!;
    if (capoBehind) capo = w.capo!;
  }
  return steps;
}

/** The verdict on a management cluster's provider versions. */
export interface VersionVerdict {
  /** Set when kaas accepts the versions: the check line. */
  ok?: string;
  /** Set when kaas refuses them: what is wrong, and the steps that fix it. */
  problem?: string;
}

/**
 * Does kaas accept these provider versions (pure)? Cluster API v1.12–v1.14 with CAPO v0.14; v1.12
 * is accepted with its end of life and the upgrade named; anything else is refused with the steps.
 */
export function judgeManagementVersions(capi: string, capo: string, kubeconfig?: string): VersionVerdict {
  const ci = minorOf(capi);
  const co = minorOf(capo);
  const range = `Cluster API ${fmt(CAPI_SUPPORTED[0])}–${fmt(CAPI_SUPPORTED[CAPI_SUPPORTED.length - 1])} with CAPO ${CAPO_SUPPORTED.map(fmt).join(', ')}.x`;
  const newest = CAPI_SUPPORTED[CAPI_SUPPORTED.length - 1];
  const problems: string[] = [];
  if (!ci || !co) return { problem: `cannot read the provider versions (Cluster API "${capi}", CAPO "${capo}"); kaas supports ${range}` };
  if (compareMinor(ci, newest) > 0 || compareMinor(co, CAPO_SUPPORTED[CAPO_SUPPORTED.length - 1]) > 0) {
    return {
      problem: `Cluster API ${capi} with CAPO ${capo} is newer than this kaas supports (${range}); kaas renders and reads the Cluster API and CAPO objects only in the versions it is tested with — use a kaas release that lists ${fmt(compareMinor(ci, newest) > 0 ? ci : co)} as supported (docs/guides/management-cluster-versions.md)`,
    };
  }
  if (!inList(ci, CAPI_SUPPORTED)) problems.push(`Cluster API ${capi} is older than kaas supports`);
  if (!inList(co, CAPO_SUPPORTED)) problems.push(`CAPO ${capo} is older than kaas supports`);
  if (problems.length) {
    const steps = managementUpgradeSteps({ capi, capo, orcInstalled: compareMinor(co, [0, 12]) >= 0 }, kubeconfig);
    return { problem: `${problems.join('; ')} (${range}) — upgrade in this order: ${steps.map((s, i) => `(${i + 1}) ${s}`).join('; ')}` };
  }
  const eol = CAPI_END_OF_LIFE[`${ci[0]}.${ci[1]}`];
  const eolNote = eol
    ? `; Cluster API ${fmt(ci)} reaches end of life on ${eol}: upgrade to ${CAPI_CURRENT} with ${clusterctlUpgrade(CAPI_CURRENT, undefined, kubeconfig)}`
    : '';
  return { ok: `Cluster API ${capi}, CAPO ${capo} (supported: ${range})${eolNote}` };
}
