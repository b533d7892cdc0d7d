import { parse } from 'yaml';
import type { Refusal } from '../../plan/decision.js';
import { patchEnabled, renderTemplate, templateVariables, UnsupportedTemplate } from './go-template.js';

/**
 * Which way each setting kaas converges reaches a ClusterClass cluster whose class patches it
 * (issue 32 §5, review 2026-11-27 N2). Cluster API's topology controller applies the class's
 * `spec.patches` to the templates it clones for the cluster, after copying them
 * (sigs.k8s.io/cluster-api internal/controllers/topology/cluster/patches/engine.go, v1.12/v1.14): a
 * field a patch sets takes the patch's value whatever the class's template holds. So a new template
 * generation cannot change such a field; the variable the patch reads can. Per field:
 *
 *   - a patch sets the field's path (or a part of it) on the template kind and role kaas means
 *     (selector kind + matchResources: controlPlane, machineDeploymentClass.names, infrastructureCluster)
 *     from `valueFrom.variable` or from a `valueFrom.template` with one free scalar variable: set that
 *     variable on the Cluster (`spec.topology.variables`), its value inverted from the template and
 *     checked against the variable's schema; the template stays as it is;
 *   - no patch touches it: a new template generation, as before (topology.ts);
 *   - a patch sets it in a way kaas cannot invert (a constant, several free variables, an unsupported
 *     template): refused with the patch named — a template generation would be overwritten silently.
 * Pure.
 */

type Obj = Record<string, unknown>;

/** Which of the class's templates a field lives in. */
export type PatchTarget = { role: 'controlPlane' } | { role: 'worker'; class: string } | { role: 'infrastructureCluster' };

/** One field kaas wants, as it would be in the template. */
export interface WantedField {
  /** The kaas setting(s), in messages: "controller_flavor". */
  setting: string;
  target: PatchTarget;
  kind: 'OpenStackMachineTemplate' | 'OpenStackClusterTemplate';
  /** JSON pointer in the template: `/spec/template/spec/flavor`. */
  path: string;
  wanted: unknown;
}

/** A topology variable kaas sets. */
export interface VariableSet {
  name: string;
  value: unknown;
  /** The value in effect now: the Cluster's, else the schema's default. */
  live: unknown;
}

/** Which way one field goes. */
export type FieldRoute =
  | { setting: string; path: string; way: 'variable'; variable: VariableSet; patch: string; note: string }
  | { setting: string; path: string; way: 'template'; note: string }
  | { setting: string; path: string; way: 'refused'; refusal: Refusal };

/** Inputs of routeFields. */
export interface RouteInput {
  /** The live ClusterClass (v1beta1 or v1beta2: patches and variables have the same shape). */
  clusterClass: unknown;
  /** The Cluster's `spec.topology.variables` ([{name, value}]). */
  clusterVariables?: { name: string; value: unknown }[];
  /** `builtin` for templates: the Kubernetes version kaas wants. */
  version: string;
  fields: WantedField[];
}

const SENTINEL = 'KAAS0SOLVE0';
const dig = (o: unknown, path: string[]): unknown => path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Obj)[k] : undefined), o);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

interface Definition {
  selector?: { apiVersion?: string; kind?: string; matchResources?: { controlPlane?: boolean; infrastructureCluster?: boolean; machineDeploymentClass?: { names?: string[] } } };
  jsonPatches?: { op: string; path: string; value?: unknown; valueFrom?: { variable?: string; template?: string } }[];
}
interface Patch { name: string; enabledIf?: string; definitions?: Definition[] }

function selects(d: Definition, f: WantedField): boolean {
  const s = d.selector;
  if (!s || s.kind !== f.kind) return false;
  const m = s.matchResources ?? {};
  if (f.target.role === 'controlPlane') return m.controlPlane === true;
  if (f.target.role === 'infrastructureCluster') return m.infrastructureCluster === true;
  return (m.machineDeploymentClass?.names ?? []).includes(f.target.class);
}

/** The effective value of every variable: the Cluster's, else the schema default. */
function effectiveVariables(cc: unknown, set: { name: string; value: unknown }[]): { values: Obj; schemas: Record<string, Obj> } {
  const schemas: Record<string, Obj> = {};
  const values: Obj = {};
  for (const v of (dig(cc, ['spec', 'variables']) as { name: string; schema?: { openAPIV3Schema?: Obj } }[] | undefined) ?? []) {
    schemas[v.name] = v.schema?.openAPIV3Schema ?? {};
    if (schemas[v.name].default !== undefined) values[v.name] = schemas[v.name].default;
  }
  for (const v of set) values[v.name] = v.value;
  return { values, schemas };
}

/** A value for a variable of `schema`, or why it does not fit. */
function coerce(schema: Obj, v: unknown): { ok: true; value: unknown } | { ok: false; why: string } {
  const type = schema.type;
  if (type === 'integer' || type === 'number') {
    const n = typeof v === 'string' && /^-?\d+(\.\d+)?$/.test(v) ? Number(v) : v;
    if (typeof n !== 'number' || (type === 'integer' && !Number.isInteger(n))) return { ok: false, why: `it is ${JSON.stringify(v)}, the variable is of type ${type}` };
    if (typeof schema.minimum === 'number' && n < schema.minimum) return { ok: false, why: `${n} is below the variable's minimum ${schema.minimum}` };
    return { ok: true, value: n };
  }
  if (type === 'string' && typeof v !== 'string') return { ok: false, why: `it is ${JSON.stringify(v)}, the variable is of type string` };
  if (type === 'array' && !Array.isArray(v)) return { ok: false, why: `it is ${JSON.stringify(v)}, the variable is of type array` };
  if (type === 'boolean' && typeof v !== 'boolean') return { ok: false, why: `it is ${JSON.stringify(v)}, the variable is of type boolean` };
  return { ok: true, value: v };
}

/** Matches a rendered value holding the sentinel against the wanted one: the free variable's value, or why not. */
function solve(rendered: unknown, wanted: unknown, at: string): { value?: string | number; why?: string } {
  if (typeof rendered === 'string' && rendered.includes(SENTINEL)) {
    const [pre, post] = rendered.split(SENTINEL);
    const w = typeof wanted === 'number' ? String(wanted) : wanted;
    if (typeof w !== 'string' || !w.startsWith(pre) || !w.endsWith(post) || w.length < pre.length + post.length) {
      return { why: `the class makes ${at || 'it'} "${rendered.replace(SENTINEL, '<variable>')}", which cannot be ${JSON.stringify(wanted)}` };
    }
    const x = w.slice(pre.length, w.length - post.length);
    return { value: typeof wanted === 'number' && !pre && !post ? wanted : x };
  }
  if (rendered && typeof rendered === 'object' && !Array.isArray(rendered)) {
    if (!wanted || typeof wanted !== 'object') return { why: `the class makes ${at || 'it'} an object, kaas wants ${JSON.stringify(wanted)}` };
    const extra = Object.keys(wanted).filter((k) => !(k in (rendered as Obj)));
    if (extra.length) return { why: `the class's patch sets ${Object.keys(rendered).join(', ')} of ${at || 'it'}, kaas wants ${extra.join(', ')} too` };
    let found: { value?: string | number; why?: string } = {};
    for (const [k, v] of Object.entries(rendered)) {
      const r = solve(v, (wanted as Obj)[k], at ? `${at}.${k}` : k);
      if (r.why) return r;
      if (r.value !== undefined) found = r;
    }
    return found;
  }
  return same(rendered, wanted) ? {} : { why: `the class makes ${at || 'it'} ${JSON.stringify(rendered)}, kaas wants ${JSON.stringify(wanted)}` };
}

/** Cluster API's `builtin` template variable, as far as patches read it here: the Kubernetes version kaas wants. */
const builtinOf = (version: string) => ({ controlPlane: { version }, machineDeployment: { version }, cluster: { topology: { version } } });

/** The variable (and value) a template patch needs for `wanted`, holding the template's other variables as they are. */
function invertTemplate(src: string, wanted: unknown, eff: { values: Obj; schemas: Record<string, Obj> }, version: string): { name: string; value: unknown } | { why: string } {
  let vars: string[];
  try {
    vars = templateVariables(src);
  } catch (e) {
    if (e instanceof UnsupportedTemplate) return { why: `its template uses ${e.message}, which kaas does not evaluate` };
    throw e;
  }
  const free = vars.filter((v) => ['string', 'integer', 'number'].includes(String(eff.schemas[v]?.type)));
  if (free.length !== 1) return { why: `its template reads ${free.length ? free.join(', ') : 'no scalar variable'}; kaas sets a field through exactly one` };
  const builtin = builtinOf(version);
  const rendered = parse(renderTemplate(src, { ...eff.values, [free[0]]: SENTINEL, builtin })) as unknown;
  const r = solve(rendered, wanted, '');
  if (r.why) return { why: `${r.why} (with ${vars.filter((v) => v !== free[0]).map((v) => `${v}=${JSON.stringify(eff.values[v])}`).join(', ') || 'no other variable'})` };
  if (r.value === undefined) return { why: 'its template does not place the variable in the field' };
  return { name: free[0], value: r.value };
}

/** An empty wanted value: the field is to be absent (restrict_kubeapi: [] after a restriction). */
const isEmpty = (v: unknown) => v === undefined || v === null || v === '' || (Array.isArray(v) && !v.length);

/**
 * Decides, for each wanted field, whether it goes through a topology variable or a new template
 * generation. Only a patch that Cluster API would apply counts: its `enabledIf` is evaluated with the
 * Cluster's variables (the class defaults where the Cluster sets none) and the value kaas would set. A
 * patch switched off that way leaves the field to the patches before it, or to the template (the Cluster
 * Stacks class applies `apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs` only with `apiServerLoadBalancer:
 * octavia-amphora`; on its default `octavia-ovn` a variable kaas set would change nothing on the cloud).
 * A patch that only kaas's value switches off, for a field kaas wants empty, is the way to empty it:
 * the variable is set.
 */
export function routeFields(i: RouteInput): FieldRoute[] {
  const patches = (dig(i.clusterClass, ['spec', 'patches']) as Patch[] | undefined) ?? [];
  const eff = effectiveVariables(i.clusterClass, i.clusterVariables ?? []);
  const className = String(dig(i.clusterClass, ['metadata', 'name']) ?? '');
  const builtin = builtinOf(i.version);
  return i.fields.map((f): FieldRoute => {
    // Every patch that sets the field, in the class's order (the last one applied wins).
    const hits: { p: Patch; jp: NonNullable<Definition['jsonPatches']>[number]; sub: string[] }[] = [];
    for (const p of patches) {
      for (const d of p.definitions ?? []) {
        if (!selects(d, f)) continue;
        for (const jp of d.jsonPatches ?? []) {
          const path = jp.path.replace(/^["']|["']$/g, '');
          if (path === f.path || path.startsWith(`${f.path}/`)) hits.push({ p, jp, sub: path.slice(f.path.length).split('/').filter(Boolean).map(unescape) });
        }
      }
    }
    const base = { setting: f.setting, path: f.path };
    const off: string[] = [];
    for (let h = hits.length - 1; h >= 0; h--) {
      const hit = hits[h];
      const wanted = hit.sub.length ? dig(f.wanted, hit.sub) : f.wanted;
      const refuse = (why: string): FieldRoute => ({
        ...base, way: 'refused',
        refusal: {
          message: `ClusterClass ${className}'s patch ${hit.p.name} sets ${hit.jp.path} of the ${f.kind}, so ${f.setting} cannot reach it: ${why}`,
          hint: `set ${f.setting} to what the class makes, or change the Cluster's spec.topology.variables yourself (kubectl edit cluster)`,
        },
      });
      // The variable and value kaas would set, or why it cannot.
      let pick: { name: string; value: unknown } | undefined;
      let why: string | undefined;
      if (hit.jp.valueFrom?.variable) {
        const name = hit.jp.valueFrom.variable;
        if (name.includes('.')) why = `it reads ${name}, a part of an object variable`;
        else pick = { name, value: wanted };
      } else if (hit.jp.valueFrom?.template !== undefined) {
        const r = invertTemplate(hit.jp.valueFrom.template, wanted, eff, i.version);
        if ('why' in r) why = r.why;
        else pick = r;
      } else {
        why = `it sets the constant ${JSON.stringify(hit.jp.value)}`;
      }
      if (pick && !why) {
        if (!(pick.name in eff.schemas)) why = `it reads variable ${pick.name}, which the class does not declare`;
        else {
          const c = coerce(eff.schemas[pick.name], pick.value);
          if (!c.ok) why = `variable ${pick.name} cannot hold it: ${c.why}`;
          else pick = { name: pick.name, value: c.value };
        }
      }
      // Would Cluster API apply this patch with kaas's value (else with the values in effect)?
      const vars = (extra?: { name: string; value: unknown }) => ({ ...eff.values, ...(extra ? { [extra.name]: extra.value } : {}), builtin });
      let on: boolean;
      let onNow: boolean;
      try {
        on = patchEnabled(hit.p.enabledIf, vars(why ? undefined : pick));
        onNow = patchEnabled(hit.p.enabledIf, vars());
      } catch (e) {
        if (e instanceof UnsupportedTemplate) return refuse(`its enabledIf uses ${e.message}, which kaas does not evaluate`);
        throw e;
      }
      const when = hit.p.enabledIf ? `; the class applies it when ${hit.p.enabledIf.trim()}` : '';
      const viaVariable = (v: { name: string; value: unknown }, how: string): FieldRoute => ({
        ...base, way: 'variable', patch: hit.p.name,
        variable: { name: v.name, value: v.value, live: eff.values[v.name] },
        note: `${f.setting}: through variable ${v.name} (${how}${when}); its templates stay`,
      });
      if (!on && pick && !why && onNow && isEmpty(wanted)) {
        // kaas's value switches the patch off, which is what an empty field needs.
        return viaVariable(pick, `set to ${JSON.stringify(pick.value)}, it switches patch ${hit.p.name} of ClusterClass ${className} off`);
      }
      if (!on) {
        off.push(`patch ${hit.p.name} would set it only when ${hit.p.enabledIf?.trim()}, which is false with the Cluster's variables${pick && !why ? ` and ${pick.name}=${JSON.stringify(pick.value)}` : ''}`);
        continue;
      }
      if (why || !pick) return refuse(why ?? 'kaas cannot tell the value');
      return viaVariable(pick, `patch ${hit.p.name} of ClusterClass ${className}`);
    }
    const why = off.length ? `no patch of ClusterClass ${className} that applies sets ${f.path}: ${off.join('; ')}` : `no patch of ClusterClass ${className} sets ${f.path}`;
    return { ...base, way: 'template', note: `${f.setting}: through a new template generation (${why})` };
  });
}
