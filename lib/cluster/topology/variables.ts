import { displayPath } from '../../settings/load.js';
import { describeOrigin } from '../../settings/show.js';
import { SETTINGS } from '../../settings/table.js';
import { checkClusterName, clusterSettings, type ClusterRunOptions } from '../setup.js';

/**
 * `create-cluster <cluster> --list-variables`: the user settings that shape the cluster, with the
 * value each has for it and where that came from — what a user can change, as clusterctl's
 * `generate cluster --list-variables` lists the variables a user must export. Template-internal
 * names stay internal.
 */

/** One setting of the list. */
export interface ClusterVariable {
  key: string;
  value: unknown;
  origin: string;
  /** No default and not set: create-cluster needs it (or OS_CLOUD for cloud). */
  required: boolean;
  description: string;
}

/** The -o json|yaml shape of --list-variables. */
export interface ClusterVariables {
  cluster: string;
  env: string;
  file: string;
  variables: ClusterVariable[];
}

/** Lists every setting with its effective value for the cluster. */
export function clusterVariables(o: ClusterRunOptions): ClusterVariables {
  const cluster = checkClusterName(o.cluster);
  const r = clusterSettings(o);
  const values = r.values as unknown as Record<string, unknown>;
  const variables = SETTINGS.map((d) => ({
    key: d.key,
    value: values[d.key] ?? null,
    origin: describeOrigin(r.origins[d.key]),
    required: d.default === undefined && values[d.key] === undefined,
    description: d.description,
  }));
  return { cluster, env: r.env, file: r.file, variables };
}

/** The human list: `key  value  origin`, required ones marked. */
export function variablesText(v: ClusterVariables, cwd: string): string {
  const show = (x: unknown) => (x === null ? '(not set)' : typeof x === 'string' ? (x === '' ? '""' : x) : JSON.stringify(x));
  const w1 = Math.max(...v.variables.map((x) => x.key.length));
  const w2 = Math.min(32, Math.max(...v.variables.map((x) => show(x.value).length)));
  return [
    `settings of cluster ${v.cluster} (environment ${v.env}, ${displayPath(v.file, cwd)}); set them there, as KAAS_<KEY> or with --set key=value:`,
    ...v.variables.map((x) => `  ${x.key.padEnd(w1)}  ${show(x.value).padEnd(w2)}  ${x.required ? `REQUIRED${x.key === 'cloud' ? ' (or OS_CLOUD)' : ''}` : x.origin}`),
  ].join('\n');
}
