import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../errors.js';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from '../../render/documents.js';
import { readTextCapped } from '../../fs/read-capped.js';

/** Largest manifest file read (a cluster's whole `kubectl get ingress -A -o yaml` is far smaller). */
const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/**
 * Where migrate-ingress reads Ingresses (and the Services their named ports refer to) from without a
 * cluster: a manifest file or a directory (recursively, *.yaml/*.yml/*.json, as in a GitOps
 * repository). Every mapping document comes back, `kind: List` items unpacked (unpack and servicesIn
 * pick the kinds); a file that is not valid YAML is an error naming it.
 */
export function readManifestFiles(target: string): KubeObject[] {
  let st;
  try {
    st = statSync(target);
  } catch {
    throw new UsageError(`--file ${target} does not exist`, { hint: 'name a manifest file or a directory of manifests' });
  }
  const files = st.isDirectory() ? walk(target) : [target];
  return files.flatMap((f) => items(parseManifests(readTextCapped(f, { maxBytes: MAX_MANIFEST_BYTES, expect: 'a file of Ingress manifests is at most a few MiB' }), f)));
}

function walk(dir: string): string[] {
  const out: string[] = [];
  for (const e of readdirSync(dir, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
    if (e.name.startsWith('.')) continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...walk(p));
    else if (/\.(ya?ml|json)$/i.test(e.name)) out.push(p);
  }
  return out;
}

/** Every mapping document of a manifest (other kinds of YAML in a repository, such as kustomization.yaml, come along and are filtered later). */
export function parseManifests(text: string, source: string): KubeObject[] {
  const problems: string[] = [];
  const out: KubeObject[] = [];
  parseAllDocuments(text).forEach((doc, n) => {
    if (doc.errors.length) problems.push(`${source} document ${n + 1}: ${doc.errors[0].message.split('\n')[0]}`);
    else {
      const o = doc.toJS() as unknown;
      if (o && typeof o === 'object' && !Array.isArray(o)) out.push(o as KubeObject);
    }
  });
  if (problems.length) throw new UsageError(`${source} is not valid YAML`, { problems, hint: 'fix the file, or point --file at the manifests only' });
  return out;
}

/** Parsed documents with the items of each List (`kind: List`, `IngressList`, `ServiceList`) in place of the List. */
function items(objects: KubeObject[]): KubeObject[] {
  return objects.flatMap((o) => (o.kind === 'List' || o.kind === 'IngressList' || o.kind === 'ServiceList' ? ((o.items as KubeObject[]) ?? []) : [o]));
}

/** The Ingress objects among parsed documents (List items unpacked). */
export function unpack(objects: KubeObject[]): KubeObject[] {
  return items(objects).filter((o) => o.kind === 'Ingress' && typeof o.metadata?.name === 'string');
}

/** The Service objects among parsed documents (List items unpacked): what named backend ports resolve against. */
export function servicesIn(objects: KubeObject[]): KubeObject[] {
  return items(objects).filter((o) => o.kind === 'Service' && typeof o.metadata?.name === 'string');
}
