import { decided, refused, type Decision, type Refusal } from '../../plan/decision.js';

/**
 * What a re-run may change on a live cluster, as the CAPO v0.14 / Cluster API webhooks decide it
 * (shared/reference/capo/capo-webhook-facts.md). Pure functions of (live, wanted) values: each
 * field kaas sets is classified as unchanged, updated in place, or refused — a refusal carries
 * the webhook's own words and what to do instead. Nothing here talks to a cluster.
 */

/** One field of one object that differs between the live cluster and the settings. */
export interface FieldChange {
  /** Dotted path under the object, e.g. `spec.apiServerLoadBalancer.allowedCIDRs`. */
  path: string;
  live: unknown;
  wanted: unknown;
}

/** A refused field: the webhook's error text and the setting behind the field. */
export interface RefusedChange extends FieldChange {
  webhook: string;
  setting: string;
}

/** The verdict on one OpenStackCluster: the fields updated in place, or the refusals. */
export type ClusterChanges = Decision<FieldChange[]>;

type Obj = Record<string, unknown>;

const get = (o: unknown, path: string): unknown =>
  path.split('.').reduce<unknown>((v, k) => (v && typeof v === 'object' ? (v as Obj)[k] : undefined), o);

/** Unset, false, "" and [] mean the same to CAPO's defaulting: "not set". */
function norm(v: unknown): unknown {
  if (v === undefined || v === null || v === false || v === '' || (Array.isArray(v) && v.length === 0)) return undefined;
  if (Array.isArray(v)) return v.map(norm);
  if (typeof v === 'object') {
    const out: Obj = {};
    for (const k of Object.keys(v as Obj).sort()) {
      const x = norm((v as Obj)[k]);
      if (x !== undefined) out[k] = x;
    }
    return Object.keys(out).length ? out : undefined;
  }
  return v;
}

/** Equal after normalisation (key order, unset vs empty). */
export function same(a: unknown, b: unknown): boolean {
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** Text CAPO's OpenStackCluster webhook answers for a change outside its allow-list. */
export const CANNOT_BE_MODIFIED = 'spec: Forbidden: cannot be modified';

/**
 * The OpenStackCluster fields kaas renders, with how CAPO treats an update and which setting
 * drives them. `mutable` fields update in place (the fact sheet's allow-list); the rest are refused.
 */
export const OPENSTACK_CLUSTER_FIELDS: { path: string; mutable: boolean; setting: string }[] = [
  { path: 'spec.identityRef', mutable: true, setting: 'cloud' },
  { path: 'spec.apiServerLoadBalancer.enabled', mutable: false, setting: 'the kube-API load balancer (always on in kaas)' },
  { path: 'spec.apiServerLoadBalancer.provider', mutable: false, setting: 'restrict_kubeapi / the kube-API load-balancer provider' },
  { path: 'spec.apiServerLoadBalancer.allowedCIDRs', mutable: true, setting: 'restrict_kubeapi / mgmt_host_cidrs' },
  { path: 'spec.disableAPIServerFloatingIP', mutable: false, setting: 'restrict_kubeapi' },
  { path: 'spec.externalNetwork', mutable: false, setting: 'external_network' },
  { path: 'spec.managedSubnets', mutable: false, setting: 'node_cidr / dns_nameservers' },
  { path: 'spec.managedSecurityGroups', mutable: true, setting: 'use_ovn_lb_provider (NodePort rules)' },
  { path: 'spec.controlPlaneAvailabilityZones', mutable: true, setting: 'availability_zone' },
  { path: 'spec.tags', mutable: false, setting: 'the cluster name (kaas tags the resources kaas-cluster-<cluster>)' },
  { path: 'spec.networkMTU', mutable: false, setting: 'the network MTU' },
  { path: 'spec.disableExternalNetwork', mutable: false, setting: 'external_network' },
];

/** The refusals for `spec.managedSubnets`: only dnsNameservers of the same subnets may change. */
function subnetChanges(live: unknown, wanted: unknown): { refused?: string; changed: boolean } {
  const l = (Array.isArray(live) ? live : []) as Obj[];
  const w = (Array.isArray(wanted) ? wanted : []) as Obj[];
  if (same(l, w)) return { changed: false };
  if (l.length !== w.length) return { refused: 'managedSubnets: Forbidden: cannot add or remove subnets', changed: true };
  const cidr = w.find((s, i) => s.cidr !== l[i].cidr);
  if (cidr) return { refused: `managedSubnets: Forbidden: cannot change subnet CIDR from existing value to ${String(cidr.cidr)}`, changed: true };
  return { changed: true };
}

/** The hint for a refused OpenStackCluster change: set it back, or build a new cluster. */
function refusal(kind: string, name: string, c: RefusedChange): Refusal {
  return {
    message: `${kind} ${name}: ${c.path} cannot change on a running cluster (live: ${show(c.live)}, wanted: ${show(c.wanted)}); CAPO refuses it: "${c.webhook}"`,
    hint: `set ${c.setting} back to match the live cluster, or create a new cluster (another name) with the new value, move the workloads and delete this one`,
  };
}

/** A value for messages. */
export function show(v: unknown): string {
  const n = norm(v);
  return n === undefined ? '(unset)' : typeof n === 'string' ? n : JSON.stringify(n);
}

/**
 * Classifies the wanted OpenStackCluster against the live one, field by field, as CAPO's
 * `ValidateUpdate` does: the updates to apply, or every refused field (nothing may be applied).
 * `allowedCIDRs` may change only while the API load balancer exists before and after.
 */
export function classifyOpenStackCluster(name: string, live: Obj, wanted: Obj): ClusterChanges {
  const updates: FieldChange[] = [];
  const refusals: Refusal[] = [];
  const lbLive = get(live, 'spec.apiServerLoadBalancer.enabled') === true;
  const lbWanted = get(wanted, 'spec.apiServerLoadBalancer.enabled') === true;
  for (const f of OPENSTACK_CLUSTER_FIELDS) {
    const l = get(live, f.path);
    const w = get(wanted, f.path);
    if (f.path === 'spec.managedSubnets') {
      const s = subnetChanges(l, w);
      if (s.refused) refusals.push(refusal('OpenStackCluster', name, { path: f.path, live: l, wanted: w, webhook: s.refused, setting: f.setting }));
      else if (s.changed) updates.push({ path: f.path, live: l, wanted: w });
      continue;
    }
    // Only what kaas sets counts: a default the server filled in (identityRef.type: Secret) is no change.
    if (!changedFields(l, w).length) continue;
    const inPlace = f.path === 'spec.apiServerLoadBalancer.allowedCIDRs' ? lbLive && lbWanted : f.mutable;
    if (inPlace) updates.push({ path: f.path, live: l, wanted: w });
    else refusals.push(refusal('OpenStackCluster', name, { path: f.path, live: l, wanted: w, webhook: CANNOT_BE_MODIFIED, setting: f.setting }));
  }
  if (refusals.length) return refused(refusals);
  return decided(updates, updates.map((u) => `OpenStackCluster ${name}: ${u.path} ${show(u.live)} → ${show(u.wanted)} (updated in place)`));
}

/**
 * Fields of `wanted` (recursively) whose live value differs; lists compare as a whole. Both sides
 * are in the version kaas renders (Cluster API v1beta2, CAPO v1beta1): the live objects are read in
 * it (lib/cluster/live/live.ts), so a v1beta1 object an older kaas applied compares in its converted form.
 */
export function changedFields(live: unknown, wanted: unknown, prefix = ''): FieldChange[] {
  if (wanted && typeof wanted === 'object' && !Array.isArray(wanted)) {
    return Object.keys(wanted as Obj).flatMap((k) =>
      changedFields(live && typeof live === 'object' ? (live as Obj)[k] : undefined, (wanted as Obj)[k], prefix ? `${prefix}.${k}` : k));
  }
  return same(live, wanted) ? [] : [{ path: prefix, live, wanted }];
}

/**
 * An OpenStackMachineTemplate's `spec.template.spec` is immutable: when any field kaas sets
 * differs from the live template, the machines need a new template (and a rollout). Fields
 * kaas does not set (an SCS template's security groups) do not count.
 */
export function machineTemplateChanges(liveSpec: unknown, wantedSpec: unknown): FieldChange[] {
  return changedFields(liveSpec, wantedSpec, 'spec.template.spec');
}

const minor = (v: string): [number, number] | undefined => {
  const m = /^v?(\d+)\.(\d+)\./.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : undefined;
};

/**
 * A Kubernetes version change of the control plane or the workers: one minor at a time, never
 * down (kubeadm upgrades one minor per step and never downgrades). Same minor, newer patch is
 * fine. A skip is refused with the intermediate minors to run first.
 */
export function classifyVersion(what: string, live: string, wanted: string): Decision<'unchanged' | 'upgrade'> {
  if (live === wanted) return decided('unchanged');
  const l = minor(live);
  const w = minor(wanted);
  if (!l || !w) return refused({ message: `${what}: cannot compare Kubernetes versions ${live} and ${wanted}`, hint: 'set kubernetes_version to vX.Y.Z' });
  const step = (w[0] - l[0]) * 100 + (w[1] - l[1]);
  const patch = (v: string) => Number(/\.(\d+)$/.exec(v)?.[1] ?? 0);
  if (step < 0 || (step === 0 && patch(wanted) < patch(live))) {
    return refused({ message: `${what}: Kubernetes ${live} cannot be downgraded to ${wanted}`, hint: `set kubernetes_version to ${live} or newer` });
  }
  if (step > 1) {
    const between = intermediateMinors(l, w);
    return refused({
      message: `${what}: Kubernetes ${live} → ${wanted} skips ${between.length === 1 ? 'a minor version' : `${between.length} minor versions`} (${between.join(', ')}); kubeadm and Cluster API upgrade one minor at a time`,
      hint: `run create-cluster once per minor: ${[...between, wanted].map((v) => `kubernetes_version=${v}`).join(', then ')}`,
    });
  }
  return decided('upgrade', [`${what}: Kubernetes ${live} → ${wanted} (one apply: Cluster API rolls the control plane first, then each worker once)`]);
}

/** The minors strictly between two versions of the same major, as `vX.Y.x`. */
function intermediateMinors(l: [number, number], w: [number, number]): string[] {
  const out: string[] = [];
  for (let m = l[1] + 1; l[0] === w[0] && m < w[1]; m++) out.push(`v${l[0]}.${m}.x`);
  return out.length ? out : [`v${l[0]}.${l[1] + 1}.x`];
}
