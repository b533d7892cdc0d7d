import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';

/**
 * The workload cluster's kubeconfig on disk: its own file (mode 0600) plus its context merged into
 * the user's kubeconfig, as SCS create_cluster.sh did; delete-cluster removes the merged entries.
 */

/** The user's kubeconfig that contexts are merged into: first entry of KUBECONFIG, else ~/.kube/config. */
export function userKubeconfigFile(environ: NodeJS.ProcessEnv, home: string): string {
  const first = (environ.KUBECONFIG ?? '').split(path.delimiter).find(Boolean);
  return first ?? path.join(home, '.kube', 'config');
}

/** Writes a file holding secrets: parent directories 0700 when created, the file 0600. */
export function writeSecretFile(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, text, { mode: 0o600 });
  chmodSync(file, 0o600);
}

type Named = { name: string; [k: string]: unknown };
interface KubeconfigDoc {
  clusters?: Named[];
  users?: Named[];
  contexts?: (Named & { context?: { cluster?: string; user?: string } })[];
  [k: string]: unknown;
}

const upsert = (list: Named[] | undefined, items: Named[]) => [...(list ?? []).filter((x) => !items.some((i) => i.name === x.name)), ...items];

/**
 * Merges every context of `workload` (with its cluster and user) into the kubeconfig at `target`,
 * replacing entries of the same name; the current context is left alone. Returns the context names.
 */
export function mergeContexts(target: string, workload: string): string[] {
  const w = YAML.parse(workload) as KubeconfigDoc;
  const base: KubeconfigDoc = existsSync(target)
    ? ((YAML.parse(readFileSync(target, 'utf8')) as KubeconfigDoc | null) ?? {})
    : { apiVersion: 'v1', kind: 'Config', preferences: {} };
  base.clusters = upsert(base.clusters, w.clusters ?? []);
  base.users = upsert(base.users, w.users ?? []);
  base.contexts = upsert(base.contexts, w.contexts ?? []) as KubeconfigDoc['contexts'];
  writeSecretFile(target, YAML.stringify(base));
  return (w.contexts ?? []).map((c) => c.name);
}

/**
 * Removes the contexts that point at `clusterName`'s kubeconfig cluster entry (clusterctl names
 * them `<cluster>-admin@<cluster>`), and that cluster and user. Returns what was removed; a
 * missing file or entry is not an error (a second delete is a no-op).
 */
export function removeContexts(target: string, clusterName: string, dryRun = false): string[] {
  if (!existsSync(target)) return [];
  const base = (YAML.parse(readFileSync(target, 'utf8')) as KubeconfigDoc | null) ?? {};
  const gone = (base.contexts ?? []).filter((c) => c.context?.cluster === clusterName);
  if (gone.length === 0) return [];
  const users = new Set(gone.map((c) => c.context?.user));
  base.contexts = (base.contexts ?? []).filter((c) => !gone.includes(c));
  base.clusters = (base.clusters ?? []).filter((c) => c.name !== clusterName);
  base.users = (base.users ?? []).filter((u) => !users.has(u.name) || base.contexts!.some((c) => c.context?.user === u.name));
  if (gone.some((c) => c.name === base['current-context'])) delete base['current-context'];
  if (!dryRun) writeSecretFile(target, YAML.stringify(base));
  return gone.map((c) => c.name);
}
