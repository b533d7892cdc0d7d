import { existsSync } from 'node:fs';
import path from 'node:path';
import { CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../plan/edge-names.js';
import { decideEdgeDefaults, type EdgeDefaults, type EdgeKnowledge, type EdgeSwitch } from '../plan/edge-default.js';
import type { LiveEdge } from '../plan/provider-pin.js';
import type { ResolvedSettings, Settings } from '../settings/types.js';
import { legacyPaths } from './legacy-state.js';
import { appliedDir, localStateDir, type LocalKey } from './local-state.js';

/**
 * What kaas knows of a cluster's edge before the unset edge switches are decided
 * (plan/edge-default.ts): the live cluster when it was read (its edge Services), else kaas's records
 * on this machine — the workload kubeconfig create-cluster writes (the cluster exists) and the
 * manifests apply-ingress/apply-gateway applied (`applied/ingress-nginx.yaml`, `applied/envoy-gateway.yaml`),
 * under the environment-keyed folder or the legacy one.
 */

/** The names of the applied records (ingress/applied.ts, gateway/applied.ts GATEWAY_RECORD). */
const RECORDS = { ingressNginx: 'ingress-nginx', gateway: 'envoy-gateway' } as const;

/** What the files on this machine say. */
export interface LocalEdgeFacts {
  /** The workload kubeconfig (recorded, set, or legacy) exists: kaas created or adopted the cluster. */
  kubeconfig: boolean;
  /** Which applied records exist. */
  records: { ingressNginx: boolean; gateway: boolean };
  /** Where the records are, for the note. */
  dir: string;
}

/** Reads the local facts of one cluster (file existence only). */
export function localEdgeFacts(key: LocalKey, kubeconfigPath: string): LocalEdgeFacts {
  const legacy = legacyPaths(key.home, key.cluster);
  const has = (name: string) => existsSync(path.join(appliedDir(key), `${name}.yaml`)) || existsSync(path.join(legacy.applied, `${name}.yaml`));
  return {
    kubeconfig: existsSync(kubeconfigPath) || existsSync(legacy.kubeconfig),
    records: { ingressNginx: has(RECORDS.ingressNginx), gateway: has(RECORDS.gateway) },
    dir: localStateDir(key),
  };
}

/** The knowledge from the live edge (when read) and the local facts. Pure. */
export function edgeKnowledge(local: LocalEdgeFacts, live: LiveEdge | undefined): EdgeKnowledge {
  if (live) {
    const ingress = `${INGRESS_NAMESPACE}/${CONTROLLER_SERVICE}`;
    return {
      cluster: 'existing',
      runs: { ingressNginx: live.edgeServices.includes(ingress), gateway: live.edgeServices.some((x) => x !== ingress) },
      source: 'its edge Services, read live',
    };
  }
  const { ingressNginx, gateway } = local.records;
  if (!local.kubeconfig && !ingressNginx && !gateway) return { cluster: 'new' };
  return { cluster: 'existing', runs: { ingressNginx, gateway }, source: `kaas's records of what it applied, ${local.dir}` };
}

/** The unset edge switches of resolved settings (their origin is the built-in default). */
export function unsetEdgeSwitches(r: Pick<ResolvedSettings, 'origins'>): EdgeSwitch[] {
  return (['deploy_nginx_ingress', 'deploy_gateway'] as EdgeSwitch[]).filter((k) => (r.origins[k]?.kind ?? 'default') === 'default');
}

/**
 * The settings with the unset edge switches decided, the notes saying how, and the `--set` values
 * that hand the same decision to the edge steps create-cluster runs (they resolve the settings
 * again). Nothing is read when both switches are set.
 */
export function withEdgeDefaults(r: Pick<ResolvedSettings, 'values' | 'origins'>, cluster: string, know: () => EdgeKnowledge): { values: Settings; decided: EdgeDefaults; sets: string[] } {
  const unset = unsetEdgeSwitches(r);
  if (!unset.length) return { values: r.values, decided: { values: {}, notes: [] }, sets: [] };
  const decided = decideEdgeDefaults(unset, know(), cluster);
  return {
    values: { ...r.values, ...decided.values },
    decided,
    sets: Object.entries(decided.values).map(([k, v]) => `${k}=${v}`),
  };
}
