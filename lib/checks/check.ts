import { clusterNames, type ClusterNames } from '../plan/cluster-model.js';
import type { EdgeTraits } from './live-check.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { DoctorReport, Finding, Severity, Skipped } from './findings.js';
import type { ClusterSnapshot, CloudSnapshot } from '../openstack/snapshot.js';
import type { QuotaNeeds } from './quota-needs.js';

/**
 * One doctor check: a stable id, its severity, what it looks at and the generic fix (the README
 * catalogue is generated from these), and a pure function from the snapshots to findings.
 */

/** What the checks are given. */
export interface CheckInput {
  /** The cluster looked at; undefined = every kaas/OCCM/CAPO load balancer of the project. */
  cluster?: string;
  /** With `cluster`: the exact names its LBs and floating IPs carry (OCCM cluster-name, CAPO namespace). */
  names?: ClusterNames;
  /** Milliseconds since the epoch (injected: tests pin it). */
  now: number;
  /** PENDING_* longer than this many seconds counts as stuck. */
  stuckAfterSec: number;
  lb: LoadBalancerPlan;
  /** The edge plan OCCM's cloud.conf must serve: ingress-nginx's, or the gateway's where only the gateway is deployed (the same planEdgeLb decision). */
  edge: EdgeTraits;
  /** cloud.conf as kaas would render it now (undefined: no credentials to render [Global]). */
  expectedCloudConf?: string;
  /** What the cluster's plan still needs from the quotas. */
  needs: QuotaNeeds;
  cloud?: CloudSnapshot;
  kube?: ClusterSnapshot;
}

/**
 * The names of the cluster looked at (a cluster given without `names` has no `namespace` setting);
 * undefined = every cluster. Where the cluster was read, OCCM's live --cluster-name is what its load
 * balancers carry, whatever the settings derive (see the occm-cluster-name check).
 */
export function ownerNames(i: Pick<CheckInput, 'cluster' | 'names' | 'kube'>): ClusterNames | undefined {
  const names = i.names ?? (i.cluster === undefined ? undefined : clusterNames('', i.cluster));
  const live = i.kube?.occmClusterName;
  return names && live !== undefined ? { ...names, occmCluster: live } : names;
}

/** One entry of the check catalogue. */
export interface Check {
  id: string;
  severity: Severity;
  /** What the check needs: the cloud snapshot, the cluster snapshot, or both. */
  needs: ('cloud' | 'cluster')[];
  /** One line for the catalogue: what it finds. */
  what: string;
  /** One line for the catalogue: how such a finding is fixed. */
  fix: string;
  run(input: CheckInput): Finding[];
}

/** A finding of `check` with the check's own id and severity. */
export function finding(check: Pick<Check, 'id' | 'severity'>, resource: Finding['resource'], message: string, fix: string, severity: Severity = check.severity): Finding {
  return { check: check.id, severity, resource, message, fix };
}

/**
 * Runs every check whose inputs are there. A check whose side is missing is listed with
 * `unavailable`'s reason for that side: as skipped where the user chose to leave the side out
 * (`byChoice`: --cloud-only, no cluster named), else as could not run. A check that throws could
 * not run either, with its message. Never throws.
 */
export function runChecks(checks: readonly Check[], input: CheckInput, unavailable: { cloud?: string; cluster?: string }, byChoice: { cloud?: boolean; cluster?: boolean } = {}): DoctorReport {
  const findings: Finding[] = [];
  const checked: string[] = [];
  const skipped: Skipped[] = [];
  const couldNotRun: Skipped[] = [];
  for (const c of checks) {
    const missing = c.needs.find((n) => (n === 'cloud' ? !input.cloud : !input.kube));
    if (missing) {
      // Issue 23: a side that could not be read is not health; only a side left out on purpose is a skip.
      (byChoice[missing] ? skipped : couldNotRun).push({ check: c.id, reason: unavailable[missing] ?? `no ${missing} data` });
      continue;
    }
    try {
      findings.push(...c.run(input));
      checked.push(c.id);
    } catch (e) {
      couldNotRun.push({ check: c.id, reason: `the check failed: ${(e as Error).message.split('\n')[0]}` });
    }
  }
  return { findings, checked, skipped, couldNotRun };
}
