import { decided, refused, type Decision, type Refusal } from '../../plan/decision.js';
import { kubeApiOnLiveCluster, type LiveApiLb } from '../../plan/kubeapi-live.js';
import type { KubeObject } from '../../render/documents.js';
import { changedFields, classifyOpenStackCluster, classifyVersion, machineTemplateChanges, show, type FieldChange } from './changes.js';
import { liveObject, liveRefs, type LiveCluster } from './live.js';
import { rewriteRefs } from '../render.js';

/**
 * The change per object between the rendered cluster and the live one, and the objects to apply.
 * Pure: given what exists, decide what a re-run does. Immutable machine templates that changed
 * get a new (content-named) template and the control plane / MachineDeployment are repointed;
 * an unchanged live template (also one the SCS scripts created) is kept under its name; a
 * change CAPO refuses stops everything before anything is applied.
 */

/** What happens to one object. */
export interface ObjectDiff {
  kind: string;
  name: string;
  action: 'create' | 'update' | 'unchanged' | 'refused';
  fields: FieldChange[];
  note?: string;
}

/** The objects to apply, in order, and what changes. */
export interface ConvergePlan {
  /** Applied first. */
  objects: KubeObject[];
  /**
   * A Kubernetes upgrade under way or starting with this apply: the version the control plane runs
   * (KubeadmControlPlane status.version) and the one wanted. Add-ons whose version follows the
   * Kubernetes minor wait until the control plane reports `to`.
   */
  upgrade?: { from: string; to: string };
  diffs: ObjectDiff[];
  /** Templates replaced by new ones: deleted once no machine refers to them. */
  replaced: { kind: string; name: string }[];
}

type Obj = Record<string, unknown>;
const clone = <T>(o: T): T => structuredClone(o);
const at = (o: unknown, path: string[]): Obj => path.reduce<Obj>((x, k) => x[k] as Obj, o as Obj);

/** Replaces every `{kind, name: from}` reference in the objects by `to`. */
const repoint = (objects: KubeObject[], kind: string, from: string, to: string): KubeObject[] =>
  objects.map((o) => rewriteRefs(o, kind, from, to) as KubeObject);

const rename = (objects: KubeObject[], kind: string, from: string, to: string): KubeObject[] =>
  from === to ? objects : repoint(objects, kind, from, to).map((o) => (o.kind === kind && o.metadata.name === from ? { ...o, metadata: { ...o.metadata, name: to } } : o));

/** The Secret's live values (data is base64) against the rendered stringData. */
function secretChanged(live: Obj, wanted: KubeObject): boolean {
  const data = (live.data ?? {}) as Record<string, string>;
  const want = (wanted.stringData ?? {}) as Record<string, string>;
  return Object.keys(want).some((k) => Buffer.from(data[k] ?? '', 'base64').toString('utf8') !== want[k]);
}

/**
 * The SCS scripts name the server group by ID (`serverGroupID`), kaas by name: the same group
 * either way is no change (else adopting an SCS cluster would roll every machine).
 */
function sameServerGroup(live: Obj, wanted: Obj, ids: Record<string, string>): Obj {
  const id = (live.serverGroup as { id?: string } | undefined)?.id;
  const name = (wanted.serverGroup as { filter?: { name?: string } } | undefined)?.filter?.name;
  return id && name && ids[name] === id ? { ...live, serverGroup: wanted.serverGroup } : live;
}

/**
 * Plans the re-run. `names` are kaas's own object names (control plane, MachineDeployment);
 * live references win over them, so an adopted cluster keeps its names.
 */
export function planConvergence(
  rendered: KubeObject[], live: LiveCluster, cluster: string, names: { controlPlane: string; machineDeployment: string },
  serverGroupIds: Record<string, string> = {},
  apiLb: Omit<LiveApiLb, 'specProvider'> = {},
): Decision<ConvergePlan> {
  const refs = liveRefs(live, cluster, names.controlPlane, names.machineDeployment);
  if (refs.topology) {
    return refused({
      message: `Cluster ${live.namespace}/${cluster} is managed by a ClusterClass (spec.topology): its objects belong to the topology controller`,
      hint: 'change it through its ClusterClass and Cluster.spec.topology (kubectl edit), or create a new cluster with kaas',
    });
  }
  let objects = rename(clone(rendered), 'OpenStackCluster', cluster, refs.openStackCluster);
  objects = rename(objects, 'KubeadmControlPlane', names.controlPlane, refs.controlPlane);
  const diffs: ObjectDiff[] = [];
  const refusals: Refusal[] = [];
  const replaced: ConvergePlan['replaced'] = [];
  const reasons: string[] = [];

  // Machine templates: keep the live one when nothing kaas sets differs, else a new one + repoint.
  const templates: [string, string | undefined, string[]][] = [
    ['OpenStackMachineTemplate', refs.controlPlaneTemplate, ['spec', 'machineTemplate', 'spec', 'infrastructureRef']],
    ['OpenStackMachineTemplate', refs.workerTemplate, ['spec', 'template', 'spec', 'infrastructureRef']],
    ['KubeadmConfigTemplate', refs.workerConfig, ['spec', 'template', 'spec', 'bootstrap', 'configRef']],
  ];
  for (const [kind, liveName, refPath] of templates) {
    const owner = objects.find((o) => (refPath[1] === 'machineTemplate' ? o.kind === 'KubeadmControlPlane' : o.kind === 'MachineDeployment'));
    if (!owner || !liveName) continue;
    const wantedName = at(owner, refPath).name as string;
    const wanted = objects.find((o) => o.kind === kind && o.metadata.name === wantedName);
    const old = liveObject(live, kind, liveName);
    if (!wanted || !old || liveName === wantedName) continue;
    const spec = (o: unknown) => at(o, ['spec', 'template', 'spec']);
    const fields = machineTemplateChanges(sameServerGroup(spec(old), spec(wanted), serverGroupIds), spec(wanted));
    if (fields.length === 0) {
      objects = objects.filter((o) => o !== wanted);
      objects = repoint(objects, kind, wantedName, liveName);
      diffs.push({ kind, name: liveName, action: 'unchanged', fields: [], note: 'the live template matches the settings' });
    } else {
      replaced.push({ kind, name: liveName });
      diffs.push({ kind, name: wantedName, action: 'create', fields, note: `replaces ${liveName} (spec.template.spec is immutable: the machines roll)` });
      reasons.push(`${kind} ${liveName} → ${wantedName}: ${fields.map((f) => `${f.path.replace('spec.template.spec.', '')} ${show(f.live)} → ${show(f.wanted)}`).join(', ')}`);
    }
  }

  // Kubernetes upgrades: control plane and workers in one apply, as Cluster API expects. Its MachineSet
  // preflight checks (on by default in v1.12) hold new worker machines while the control plane upgrades
  // (ControlPlaneIsStable) and refuse workers on another minor than KubeadmControlPlane.spec.version
  // (KubeadmVersionSkew): holding the workers' version back would block their rollout for good.
  const kcpLive = liveObject(live, 'KubeadmControlPlane', refs.controlPlane);
  const kcpWanted = objects.find((o) => o.kind === 'KubeadmControlPlane');
  let upgrade: ConvergePlan['upgrade'];
  if (kcpLive && kcpWanted) {
    const wantedVersion = String(at(kcpWanted, ['spec']).version);
    const v = classifyVersion(`KubeadmControlPlane ${refs.controlPlane}`, String(at(kcpLive, ['spec']).version), wantedVersion);
    if (!v.ok) refusals.push(...v.refusals);
    else reasons.push(...v.reasons);
    // The version the control plane runs (status.version, the oldest of its machines), which lags
    // spec.version while an upgrade (maybe one a previous run started) is under way.
    const running = String((kcpLive.status as Obj | undefined)?.version ?? at(kcpLive, ['spec']).version);
    // An upgrade still under way (spec v1.34, machines on v1.33) must finish before the next minor:
    // else kubeadm would take the oldest machines from v1.33 straight to v1.35.
    const fromRunning = v.ok && running !== String(at(kcpLive, ['spec']).version) ? classifyVersion(`KubeadmControlPlane ${refs.controlPlane} (its machines run ${running})`, running, wantedVersion) : undefined;
    if (fromRunning && !fromRunning.ok) {
      const rolling = String(at(kcpLive, ['spec']).version);
      refusals.push(...fromRunning.refusals.map((r) => ({ ...r, hint: `the upgrade to ${rolling} is still rolling: run create-cluster with kubernetes_version=${rolling} until it finishes, then with kubernetes_version=${wantedVersion}` })));
    } else if (v.ok && running !== wantedVersion) upgrade = { from: running, to: wantedVersion };
  }
  const mdWanted = objects.find((o) => o.kind === 'MachineDeployment');
  const mdLive = mdWanted ? liveObject(live, 'MachineDeployment', mdWanted.metadata.name) : undefined;
  if (mdLive && mdWanted) {
    const v = classifyVersion(`MachineDeployment ${mdWanted.metadata.name}`, String(at(mdLive, ['spec', 'template', 'spec']).version), String(at(mdWanted, ['spec', 'template', 'spec']).version));
    if (!v.ok) refusals.push(...v.refusals);
  }

  for (const o of objects) {
    if (diffs.some((d) => d.kind === o.kind && d.name === o.metadata.name)) continue;
    const l = liveObject(live, o.kind, o.metadata.name);
    if (!l) {
      diffs.push({ kind: o.kind, name: o.metadata.name, action: 'create', fields: [] });
      continue;
    }
    if (o.kind === 'OpenStackCluster') {
      // Tags are set at creation only (CAPO refuses a change): keep what the live cluster has,
      // so an adopted SCS cluster (no kaas tag) is not refused for them.
      const spec = o.spec as Obj;
      const liveTags = (l.spec as Obj | undefined)?.tags;
      if (liveTags === undefined) delete spec.tags;
      else spec.tags = liveTags;
      // The API load balancer's provider is fixed once it exists: keep the live value, and check
      // that the provider it really has can enforce allowedCIDRs (lib/plan/kubeapi-live.ts).
      const lbWanted = (spec.apiServerLoadBalancer ??= {}) as Obj;
      const liveProvider = ((l.spec as Obj | undefined)?.apiServerLoadBalancer as Obj | undefined)?.provider;
      const api = kubeApiOnLiveCluster(cluster, { ...apiLb, specProvider: typeof liveProvider === 'string' ? liveProvider : undefined }, lbWanted.allowedCIDRs as string[] | undefined);
      if (!api.ok) {
        refusals.push(...api.refusals);
        diffs.push({ kind: o.kind, name: o.metadata.name, action: 'refused', fields: [] });
        continue;
      }
      if (api.value === undefined) delete lbWanted.provider;
      else lbWanted.provider = api.value;
      reasons.push(...api.reasons, ...api.warnings.map((w) => `warning: ${w}`));
      const c = classifyOpenStackCluster(o.metadata.name, l, o as unknown as Obj);
      if (!c.ok) {
        refusals.push(...c.refusals);
        diffs.push({ kind: o.kind, name: o.metadata.name, action: 'refused', fields: [] });
        continue;
      }
      reasons.push(...c.reasons);
      diffs.push({ kind: o.kind, name: o.metadata.name, action: c.value.length ? 'update' : 'unchanged', fields: c.value });
      continue;
    }
    if (o.kind === 'Secret') {
      const changed = secretChanged(l, o);
      diffs.push({ kind: o.kind, name: o.metadata.name, action: changed ? 'update' : 'unchanged', fields: changed ? [{ path: 'stringData', live: '(redacted)', wanted: '(redacted)' }] : [] });
      continue;
    }
    const fields = changedFields(l.spec, o.spec, 'spec');
    diffs.push({ kind: o.kind, name: o.metadata.name, action: fields.length ? 'update' : 'unchanged', fields });
  }
  if (refusals.length) return refused(refusals, reasons);
  return decided({ objects, diffs, replaced, ...(upgrade ? { upgrade } : {}) }, reasons);
}

/** The per-object diff as text lines (dry-run and the apply log). */
export function diffLines(diffs: ObjectDiff[]): string[] {
  return diffs.map((d) => {
    const head = `${d.action.padEnd(9)} ${d.kind}/${d.name}`;
    const fields = d.action === 'update' || (d.action === 'create' && d.fields.length) ? `: ${d.fields.map((f) => `${f.path} ${show(f.live)} → ${show(f.wanted)}`).join('; ')}` : '';
    return `${head}${fields}${d.note ? ` (${d.note})` : ''}`;
  });
}
