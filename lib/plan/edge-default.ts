import type { BoolOrVersion } from '../settings/types.js';

/**
 * Which edge a cluster gets when its settings leave `deploy_nginx_ingress` / `deploy_gateway` unset.
 *
 * New clusters get the supported edge: the Gateway API with Envoy Gateway on, ingress-nginx (retired
 * upstream, no security fixes after March 2026) off — the table's defaults. A cluster that already
 * exists keeps what it runs: one created when ingress-nginx was kaas's default (ingress-nginx
 * deployed, no setting written) keeps its ingress-nginx and gets no Gateway just because the default
 * changed. Only an unset switch is decided here; a set one (file, KAAS_* variable, --set, or what
 * `settings import` wrote) is always taken as it is. Pure.
 */

export type EdgeSwitch = 'deploy_nginx_ingress' | 'deploy_gateway';

/** What kaas knows of the cluster before it applies its edge. */
export type EdgeKnowledge =
  /** Nothing recorded on this machine and nothing read live: kaas creates it now. */
  | { cluster: 'new' }
  /**
   * It exists; `runs` is which edges it runs and `source` where that was read (the live cluster, or
   * kaas's records of what it applied); `runs` undefined: it exists but what it runs is not known.
   */
  | { cluster: 'existing'; runs?: { ingressNginx: boolean; gateway: boolean }; source?: string };

/** The verdict: the value of each unset switch (set ones are absent), and a note per decision for the plan. */
export interface EdgeDefaults {
  values: Partial<Record<EdgeSwitch, BoolOrVersion>>;
  notes: string[];
}

/** The defaults of a cluster kaas creates (also the settings table's). */
export const NEW_CLUSTER_EDGE: Record<EdgeSwitch, boolean> = { deploy_nginx_ingress: false, deploy_gateway: true };

const WHAT: Record<EdgeSwitch, string> = { deploy_nginx_ingress: 'ingress-nginx', deploy_gateway: 'the Gateway API edge (Envoy Gateway)' };

/**
 * Decides the unset edge switches of one cluster. `unset` lists the switches no layer set (their
 * origin is the built-in default).
 */
export function decideEdgeDefaults(unset: EdgeSwitch[], k: EdgeKnowledge, cluster: string): EdgeDefaults {
  const values: EdgeDefaults['values'] = {};
  const notes: string[] = [];
  for (const key of (['deploy_nginx_ingress', 'deploy_gateway'] as EdgeSwitch[]).filter((x) => unset.includes(x))) {
    if (k.cluster === 'new') {
      values[key] = NEW_CLUSTER_EDGE[key];
      notes.push(`${key} is not set: a new cluster ${NEW_CLUSTER_EDGE[key] ? 'gets' : 'does not get'} ${WHAT[key]} (the default for clusters kaas creates).`);
      continue;
    }
    if (!k.runs) {
      // Not knowing what runs, nothing is added: applying nothing removes nothing either.
      values[key] = false;
      notes.push(`${key} is not set and kaas cannot tell whether cluster ${cluster} runs ${WHAT[key]}: it applies none (set ${key}: true to deploy it, or false to say it stays off).`);
      continue;
    }
    const runs = key === 'deploy_nginx_ingress' ? k.runs.ingressNginx : k.runs.gateway;
    values[key] = runs;
    if (runs === NEW_CLUSTER_EDGE[key]) {
      notes.push(`${key} is not set: cluster ${cluster} ${runs ? 'runs' : 'does not run'} ${WHAT[key]} (${k.source ?? 'read'}), as new clusters would; kept.`);
    } else if (runs) {
      notes.push(`${key} is not set: cluster ${cluster} runs ${WHAT[key]} (${k.source ?? 'read'}), so kaas keeps it, although new clusters no longer get it; set ${key}: true to keep it for good, or false once nothing uses it.`);
    } else {
      notes.push(`${key} is not set: cluster ${cluster} does not run ${WHAT[key]} (${k.source ?? 'read'}), so kaas adds none, although new clusters get it; set ${key}: true to add it.`);
    }
  }
  return { values, notes };
}
