import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { writeFileAtomic } from '../fs/atomic.js';
import { withFsErrors } from '../fs/errors.js';
import { withFileLock } from '../fs/lock.js';
import { OperationError } from '../errors.js';

/**
 * The workload cluster's kubeconfig on disk: its own file (mode 0600) plus its context merged into
 * the user's kubeconfig, as SCS create_cluster.sh did; delete-cluster removes the merged entries.
 */

/** The user's kubeconfig that contexts are merged into: first entry of KUBECONFIG, else ~/.kube/config. */
export function userKubeconfigFile(environ: NodeJS.ProcessEnv, home: string): string {
  const first = (environ.KUBECONFIG ?? '').split(path.delimiter).find(Boolean);
  return first ?? path.join(home, '.kube', 'config');
}

/**
 * Writes a file holding secrets atomically: mode 0600 from the first byte, parent directories
 * 0700 when created, a symlink at the path replaced rather than followed.
 */
export function writeSecretFile(file: string, text: string, opts: { stream?: boolean } = {}): void {
  writeFileAtomic(file, text, { secret: true, stream: opts.stream });
}

/** The user's kubeconfig as a document; a file that is not a kubeconfig is refused, never overwritten. */
function readKubeconfig(target: string): KubeconfigDoc | undefined {
  if (!existsSync(target)) return undefined;
  const text = withFsErrors(target, 'read', () => readFileSync(target, 'utf8'));
  let doc: unknown;
  try {
    doc = YAML.parse(text);
  } catch (e) {
    throw new OperationError(`${target} is not valid YAML (${(e as Error).message.split('\n')[0]}); it was left unchanged`, { hint: 'fix or move the file (kubectl config view shows what kubectl makes of it) and run again' });
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new OperationError(`${target} is not a kubeconfig (not a map); it was left unchanged`, { hint: 'fix or move the file and run again' });
  return doc as KubeconfigDoc;
}

/** The user's kubeconfig is theirs: a symlink is written through, the file keeps its mode (new: 0600). */
function writeKubeconfig(target: string, doc: KubeconfigDoc): void {
  writeFileAtomic(target, YAML.stringify(doc), { mode: 0o600 });
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
export async function mergeContexts(target: string, workload: string): Promise<string[]> {
  const w = YAML.parse(workload) as KubeconfigDoc;
  return withFileLock(target, () => {
    const base: KubeconfigDoc = readKubeconfig(target) ?? { apiVersion: 'v1', kind: 'Config', preferences: {} };
    base.clusters = upsert(base.clusters, w.clusters ?? []);
    base.users = upsert(base.users, w.users ?? []);
    base.contexts = upsert(base.contexts, w.contexts ?? []) as KubeconfigDoc['contexts'];
    writeKubeconfig(target, base);
    return (w.contexts ?? []).map((c) => c.name);
  });
}

/**
 * Removes the contexts that point at `clusterName`'s kubeconfig cluster entry (clusterctl names
 * them `<cluster>-admin@<cluster>`), and that cluster and user. Returns what was removed; a
 * missing file or entry is not an error (a second delete is a no-op).
 */
export async function removeContexts(target: string, clusterName: string, dryRun = false): Promise<string[]> {
  if (!existsSync(target)) return [];
  if (dryRun) return contextsToRemove(target, clusterName, true);
  return withFileLock(target, () => contextsToRemove(target, clusterName, false));
}

function contextsToRemove(target: string, clusterName: string, dryRun: boolean): string[] {
  const base = readKubeconfig(target);
  if (!base) return [];
  const gone = (base.contexts ?? []).filter((c) => c.context?.cluster === clusterName);
  if (gone.length === 0) return [];
  const users = new Set(gone.map((c) => c.context?.user));
  base.contexts = (base.contexts ?? []).filter((c) => !gone.includes(c));
  base.clusters = (base.clusters ?? []).filter((c) => c.name !== clusterName);
  base.users = (base.users ?? []).filter((u) => !users.has(u.name) || base.contexts!.some((c) => c.context?.user === u.name));
  if (gone.some((c) => c.name === base['current-context'])) delete base['current-context'];
  if (!dryRun) writeKubeconfig(target, base);
  return gone.map((c) => c.name);
}
