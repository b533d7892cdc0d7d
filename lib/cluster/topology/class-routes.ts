import type { Refusal } from '../../plan/decision.js';
import type { FieldChange } from '../live/changes.js';
import { routeFields, type FieldRoute, type PatchTarget, type WantedField } from './class-patches.js';
import type { ClassTemplate, LiveTopology, TopologyWanted } from './topology.js';

/**
 * routeFields applied to a live topology cluster: the fields kaas converges in each of the class's
 * templates, which of them go through a topology variable, and the Cluster's variables kaas sets.
 * planTopology leaves the variable-routed fields out of the template generations (and never restamps
 * a template one of its fields goes through a variable for). Pure.
 */

type Obj = Record<string, unknown>;

/** The outcome for one live topology. */
export interface TopologyRoutes {
  /** `${template name} ${path}` of each field that goes through a variable. */
  viaVariable: Set<string>;
  /** Templates at least one field of which goes through a variable. */
  patched: Set<ClassTemplate>;
  /** The variables kaas sets (all of them: kaas applies its whole intent), by name. */
  variables: { name: string; value: unknown }[];
  /** The ones whose value changes. */
  changes: FieldChange[];
  refusals: Refusal[];
  /** One line per field of a class with patches: which way it goes. */
  notes: string[];
}

const MACHINE_FIELDS = ['flavor', 'image', 'rootVolume'] as const;
const CIDRS = '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs';
const SETTING: Record<string, string> = { flavor: 'flavor', image: 'image (kubernetes_version)', rootVolume: 'root disk' };

function targetOf(t: ClassTemplate): PatchTarget {
  if (t.kind === 'OpenStackClusterTemplate') return { role: 'infrastructureCluster' };
  const m = /^workers \(class (.*)\)$/.exec(t.role);
  return m ? { role: 'worker', class: m[1] } : { role: 'controlPlane' };
}

/** Routes every field kaas converges in the class's templates. */
export function topologyRoutes(live: LiveTopology, wanted: TopologyWanted): TopologyRoutes {
  const out: TopologyRoutes = { viaVariable: new Set(), patched: new Set(), variables: [], changes: [], refusals: [], notes: [] };
  const patches = (live.clusterClass?.spec as Obj | undefined)?.patches as unknown[] | undefined;
  if (!patches?.length) return out;
  const fields: { t: ClassTemplate; f: WantedField }[] = [];
  for (const t of live.templates) {
    const target = targetOf(t);
    const who = target.role === 'controlPlane' ? 'controller' : 'worker';
    if (t.kind === 'OpenStackMachineTemplate') {
      const want = target.role === 'controlPlane' ? wanted.controlPlaneMachine : wanted.workerMachine;
      for (const k of MACHINE_FIELDS) {
        if (want[k] !== undefined) fields.push({ t, f: { setting: `${who} ${SETTING[k]}`, target, kind: t.kind, path: `/spec/template/spec/${k}`, wanted: want[k] } });
      }
    } else {
      // Also when empty: a restriction the Cluster holds in a variable is lifted through that variable.
      const cidrs = ((wanted.openStackCluster.apiServerLoadBalancer as Obj | undefined)?.allowedCIDRs as string[] | undefined) ?? [];
      fields.push({ t, f: { setting: 'restrict_kubeapi', target, kind: t.kind, path: CIDRS, wanted: cidrs } });
    }
  }
  const spec = live.cluster.spec as Obj | undefined;
  const clusterVariables = ((spec?.topology as Obj | undefined)?.variables as { name: string; value: unknown }[] | undefined) ?? [];
  const version = String((spec?.topology as Obj | undefined)?.version ?? '');
  const routes = routeFields({ clusterClass: live.clusterClass, clusterVariables, version: wanted.version || version, fields: fields.map((x) => x.f) });
  const byName = new Map<string, { value: unknown; live: unknown; setting: string }>();
  routes.forEach((r: FieldRoute, idx) => {
    const { t } = fields[idx];
    if (r.way === 'refused') out.refusals.push(r.refusal);
    // An open kube-API the class leaves open is no news.
    if (r.way === 'template' && !(r.path === CIDRS && !(fields[idx].f.wanted as string[]).length)) out.notes.push(`${t.role}: ${r.note}`);
    if (r.way !== 'variable') return;
    out.notes.push(`${t.role}: ${r.note}`);
    out.viaVariable.add(`${t.name} ${r.path}`);
    out.patched.add(t);
    const prev = byName.get(r.variable.name);
    if (prev && JSON.stringify(prev.value) !== JSON.stringify(r.variable.value)) {
      out.refusals.push({
        message: `ClusterClass ${live.className} sets both ${prev.setting} and ${r.setting} from variable ${r.variable.name}, but kaas wants ${JSON.stringify(prev.value)} and ${JSON.stringify(r.variable.value)}`,
        hint: `make ${prev.setting} and ${r.setting} the same, or give the class separate variables`,
      });
      return;
    }
    if (!prev) byName.set(r.variable.name, { value: r.variable.value, live: r.variable.live, setting: r.setting });
  });
  for (const [name, v] of byName) {
    out.variables.push({ name, value: v.value });
    // Not on the Cluster yet (the class default in effect) counts as a change: kaas sets it, and the
    // next run compares against the Cluster's own value.
    const current = clusterVariables.find((c) => c.name === name);
    if (!current || JSON.stringify(current.value) !== JSON.stringify(v.value)) {
      out.changes.push({ path: `spec.topology.variables[${name}]`, live: current ? current.value : `${JSON.stringify(v.live)} (class default)`, wanted: v.value });
    }
  }
  return out;
}
