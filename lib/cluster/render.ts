import { createHash } from 'node:crypto';
import { parseDocuments, type KubeObject } from '../render/documents.js';
import { bundledFiles, bundledTemplate } from '../render/bundled.js';
import { validateAgainstCrds } from './crd-validate.js';
import { templateVariables, type ClusterDecisions } from '../plan/cluster-model.js';

/**
 * Renders the Cluster API objects of one cluster: every template under templates/cluster/ in file
 * order, which is the apply order: credentials, infrastructure, templates, control plane, the Cluster,
 * then the workers' MachineDeployment. Nothing acts on the objects before the Cluster (CAPO waits for
 * the owner reference Cluster API sets once it reconciles the Cluster), so an apply broken off before
 * the Cluster creates nothing in the cloud. The MachineDeployment comes after it: Cluster API (≥ v1.14,
 * ReconcilerRateLimiting) reconciles an object at most once a second, and a MachineDeployment makes it
 * reconcile its Cluster by name, so one applied before the Cluster exists used that second and held the
 * new Cluster's first reconcile back by 1 s (measured on the testbed: the OpenStackCluster's owner set
 * 3.0 s after the Cluster was created, 2.0 s with this order).
 */

/** Kinds whose spec must not change in place: a changed spec gets a new name (and a rollout). */
const IMMUTABLE = new Set(['OpenStackMachineTemplate', 'KubeadmConfigTemplate']);

/** JSON with sorted keys, so that the hash does not depend on key order. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

/** First 8 hex digits of sha256 over the spec and the generation annotation. */
export function contentHash(o: KubeObject): string {
  const gen = o.metadata.annotations?.['kaas.scs.community/generation'] ?? '';
  return createHash('sha256').update(canonical(o.spec)).update(`\n${gen}`).digest('hex').slice(0, 8);
}

/** Replaces every `{kind, name: from}` reference inside `o` by `to`. */
export function rewriteRefs(v: unknown, kind: string, from: string, to: string): unknown {
  if (Array.isArray(v)) return v.map((x) => rewriteRefs(x, kind, from, to));
  if (v && typeof v === 'object') {
    const o = v as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const [k, x] of Object.entries(o)) out[k] = rewriteRefs(x, kind, from, to);
    if (o.kind === kind && o.name === from && !('metadata' in o)) out.name = to;
    return out;
  }
  return v;
}

/**
 * Appends the content hash to the names of immutable templates and rewrites the references to
 * them: a change of flavor, image or bootstrap config yields a new template that KCP / the
 * MachineDeployment roll to, instead of a rejected in-place update.
 */
export function nameByContent(objects: KubeObject[]): KubeObject[] {
  let out = objects;
  objects.forEach((o, i) => {
    if (!IMMUTABLE.has(o.kind)) return;
    const from = o.metadata.name;
    const to = `${from}-${contentHash(o)}`;
    out = out.map((x, j) => (j === i ? { ...x, metadata: { ...x.metadata, name: to } } : (rewriteRefs(x, o.kind, from, to) as KubeObject)));
  });
  return out;
}

/** The template files, in apply order. */
export function clusterTemplateFiles(): string[] {
  return bundledFiles('cluster').filter((f) => f.endsWith('.yaml.hbs'));
}

/** Every variable the cluster templates read (for --list-variables), sorted. */
export function clusterTemplateVariables(): { file: string; variables: string[] }[] {
  return clusterTemplateFiles().map((f) => ({ file: `cluster/${f}`, variables: bundledTemplate(`cluster/${f}`).variables }));
}

/** The rendered, validated objects for the decisions (no Secret when the identity is unknown). */
export function renderClusterObjects(d: ClusterDecisions): KubeObject[] {
  const vars = templateVariables(d);
  const objects: KubeObject[] = [];
  for (const f of clusterTemplateFiles()) {
    if (f.includes('cloud-secret') && !d.identity) continue;
    const t = bundledTemplate(`cluster/${f}`);
    objects.push(...parseDocuments(t.render(vars), `cluster/${f}`));
  }
  const named = nameByContent(objects);
  validateAgainstCrds(named);
  return named;
}
