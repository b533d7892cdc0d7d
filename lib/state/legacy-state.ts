import { existsSync, mkdirSync, readFileSync, renameSync } from 'node:fs';
import path from 'node:path';
import type { Logger } from '../log.js';
import { appliedDir, recordedKubeconfigPath, type LocalKey } from './local-state.js';
import { checkEndpoint, kubeconfigServer, type ClusterEndpoint } from './endpoint-check.js';

/**
 * kaas before the environment-keyed layout (local-state.ts) kept `~/.kube/kaas/<cluster>.yaml` and
 * `~/.kube/kaas/<cluster>/applied/`, shared by every environment with a cluster of that name. Such
 * files move once to the key of the environment whose Cluster they provably belong to (the
 * kubeconfig's server and CA are that Cluster's, endpoint-check.ts); anything else stays where it is,
 * with a warning saying why, and is never used by kaas again.
 */

/** The legacy paths of a cluster name. */
export function legacyPaths(home: string, cluster: string): { kubeconfig: string; applied: string } {
  const dir = path.join(home, '.kube', 'kaas');
  return { kubeconfig: path.join(dir, `${cluster}.yaml`), applied: path.join(dir, cluster, 'applied') };
}

/** What is on disk, for the decision. */
export interface LegacyFacts {
  /** The legacy kubeconfig's text; undefined = no such file. */
  kubeconfig?: string;
  /** The legacy applied/ folder exists. */
  applied: boolean;
  /** The new kubeconfig exists already (then nothing moves). */
  current: boolean;
  /** The new applied/ folder exists already (then the old one stays). */
  currentApplied: boolean;
}

/** Move (the kubeconfig, and the records when `applied`), leave with a warning, or nothing to do. */
export type LegacyDecision = { action: 'none' } | { action: 'move'; applied: boolean; message: string; warning?: string } | { action: 'leave'; warning: string };

/**
 * The decision for one cluster's legacy files, given the Cluster this environment works on
 * (undefined: the management cluster could not be asked, or has no such Cluster). Pure.
 */
export function decideLegacy(facts: LegacyFacts, where: { kubeconfig: string; applied: string; to: string }, cluster: ClusterEndpoint | undefined): LegacyDecision {
  if (facts.kubeconfig === undefined && !facts.applied) return { action: 'none' };
  const what = facts.kubeconfig !== undefined ? where.kubeconfig : where.applied;
  if (facts.current) return { action: 'leave', warning: `${what} (kept by kaas before it kept state per environment) was left alone: ${where.to} exists already; delete the old one once no other environment needs it` };
  if (facts.kubeconfig === undefined) {
    return { action: 'leave', warning: `${where.applied} (kept by kaas before it kept state per environment) was left alone: without the kubeconfig beside it nothing shows which environment's cluster it belongs to; move it to ${where.to}/applied by hand if it is this one's` };
  }
  if (!cluster) {
    return { action: 'leave', warning: `${where.kubeconfig} (kept by kaas before it kept state per environment) was left alone and is not used: the management cluster could not confirm that it belongs to this environment's Cluster; run again with the management cluster reachable to move it` };
  }
  const v = checkEndpoint(kubeconfigServer(facts.kubeconfig), cluster);
  if (!v.ok) {
    return { action: 'leave', warning: `${where.kubeconfig} (kept by kaas before it kept state per environment) was left alone and is not used: ${v.reason}; it is probably another environment's cluster of the same name` };
  }
  const applied = facts.applied && !facts.currentApplied;
  return {
    action: 'move', applied,
    message: `moved ${where.kubeconfig}${applied ? ` and ${where.applied}` : ''} to ${where.to}: its server is Cluster ${cluster.id}'s endpoint${v.notes.length ? ` (${v.notes.join('; ')})` : ''}`,
    ...(facts.applied && !applied ? { warning: `${where.applied} was left alone: ${where.to}/${path.basename(path.dirname(where.applied))}/applied exists already` } : {}),
  };
}

/**
 * Reads the facts, decides, and moves or warns. `cluster` gives the Cluster (with its CA) and is
 * asked only when there is a legacy kubeconfig to prove. Returns the decision.
 */
export async function migrateLegacy(k: LocalKey, cluster: () => Promise<ClusterEndpoint | undefined>, logger: Logger): Promise<LegacyDecision> {
  const from = legacyPaths(k.home, k.cluster);
  const to = { kubeconfig: recordedKubeconfigPath(k), applied: appliedDir(k) };
  const facts: LegacyFacts = {
    kubeconfig: existsSync(from.kubeconfig) ? readFileSync(from.kubeconfig, 'utf8') : undefined,
    applied: existsSync(from.applied),
    current: existsSync(to.kubeconfig),
    currentApplied: existsSync(to.applied),
  };
  const needed = facts.kubeconfig !== undefined && !facts.current;
  const d = decideLegacy(facts, { ...from, to: path.dirname(to.kubeconfig) }, needed ? await cluster() : undefined);
  if (d.action === 'leave' || (d.action === 'move' && d.warning)) logger.warn((d as { warning: string }).warning);
  if (d.action !== 'move') return d;
  mkdirSync(path.dirname(to.applied), { recursive: true, mode: 0o700 });
  // The records first: a crash between the two leaves the kubeconfig, which proves the next run's move.
  if (d.applied) renameSync(from.applied, to.applied);
  renameSync(from.kubeconfig, to.kubeconfig);
  logger.info(d.message);
  return d;
}
