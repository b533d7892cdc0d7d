import { ADDONS } from './addon-table.js';
import { decided, refused, type Decision } from './decision.js';

/**
 * How far cilium moves on a live cluster in one run. Cilium's upgrade guide
 * (docs.cilium.io operations/upgrade, "Upgrade Warning"): the only tested upgrade and rollback path
 * is between consecutive minor releases, one minor at a time. A cluster built by an older kaas
 * (cilium 1.17.6 for every Kubernetes version) or adopted from SCS (older releases still) would
 * otherwise jump straight to the table's release (review 2026-11-27 N5). Pure: the running version
 * is read from the cilium DaemonSet's image by the installer (lib/cluster/create/addons.ts).
 */

/** What this run applies, and what is left for later runs. */
export interface CiliumStep {
  /** The version to apply now. */
  version: string;
  /** The versions later runs move to, in order (empty when this run reaches the target). */
  remaining: string[];
}

/** The releases kaas knows per cilium minor: the add-on table's (newest patch kaas was tested with). */
export function knownCiliumReleases(): Map<number, string> {
  const v = ADDONS.cilium.versioning;
  const out = new Map<number, string>();
  if (v.kind !== 'kubernetes-table') return out;
  for (const r of v.rules) {
    const m = minor(r.value);
    if (m !== undefined) out.set(m, r.value);
  }
  return out;
}

function minor(version: string): number | undefined {
  const m = /^v?1\.(\d+)\.\d+/.exec(version);
  return m ? Number(m[1]) : undefined;
}

/**
 * The cilium version to apply on a cluster that runs `running` (undefined = not installed) when the
 * settings want `target`: the target when it is at most one minor away, else the next minor's known
 * release with the rest named; refused when the next minor's release is unknown, when the running
 * version cannot be read, or for a downgrade of more than one minor.
 */
export function ciliumStep(running: string | undefined, target: string, known: Map<number, string> = knownCiliumReleases()): Decision<CiliumStep> {
  if (running === undefined) return decided({ version: target, remaining: [] }, [`cilium is not installed: installing ${target}`]);
  const r = minor(running);
  const t = minor(target);
  if (r === undefined || t === undefined) {
    return refused({
      message: `cannot tell how far cilium moves: the cluster runs "${running}", the settings want "${target}" (cilium upgrades one minor at a time)`,
      hint: `set use_cilium to a release one minor at most from the running one (vX.Y.Z), or check the image of kubectl -n kube-system get daemonset cilium`,
    });
  }
  if (Math.abs(t - r) <= 1) {
    return decided({ version: target, remaining: [] }, running === target ? [`cilium ${running} runs already`] : [`cilium ${running} → ${target}`]);
  }
  if (t < r) {
    return refused({
      message: `cilium ${running} runs; use_cilium ${target} would move down ${r - t} minor versions (Cilium's tested rollback path is one minor at a time)`,
      hint: `set use_cilium to a v1.${r - 1} or newer release, or to true (the table's version)`,
    });
  }
  const steps: string[] = [];
  for (let m = r + 1; m < t; m++) steps.push(known.get(m) ?? `v1.${m} (newest patch)`);
  steps.push(target);
  const next = known.get(r + 1);
  if (!next) {
    return refused({
      message: `cilium ${running} runs and ${target} is ${t - r} minors ahead; cilium upgrades one minor at a time and kaas knows no v1.${r + 1} release`,
      hint: `set use_cilium to the newest v1.${r + 1}.Z release and run create-cluster, then set use_cilium back to true and run again once per remaining minor (${steps.slice(1).join(', then ')})`,
    });
  }
  return decided(
    { version: next, remaining: steps.slice(1) },
    [`cilium ${running} → ${next} in this run: cilium upgrades one minor at a time; later runs: ${steps.slice(1).join(', then ')}`],
    [`cilium stops at ${next} this run (one minor at a time); run create-cluster again to move on to ${steps.slice(1).join(', then ')}`],
  );
}
