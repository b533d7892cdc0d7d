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
 * The workload kubeconfig with every cluster, user and context name prefixed (`<env>/<namespace>/`,
 * local-state.ts contextPrefix), references included: clusterctl names them after the cluster only,
 * so two environments' clusters of one name would replace each other in the user's kubeconfig. Pure.
 */
export function prefixedKubeconfig(w: KubeconfigDoc, prefix: string): KubeconfigDoc {
  const p = (n: string | undefined) => (n === undefined ? n : `${prefix}${n}`);
  return {
    ...w,
    clusters: (w.clusters ?? []).map((c) => ({ ...c, name: p(c.name)! })),
    users: (w.users ?? []).map((u) => ({ ...u, name: p(u.name)! })),
    contexts: (w.contexts ?? []).map((c) => ({ ...c, name: p(c.name)!, context: { ...c.context, cluster: p(c.context?.cluster), user: p(c.context?.user) } })),
  };
}

/**
 * Merges every context of `workload` (with its cluster and user), their names prefixed with
 * `prefix`, into the kubeconfig at `target`, replacing entries of the same name; the current context
 * is left alone. Returns the context names.
 */
export async function mergeContexts(target: string, workload: string, prefix: string): Promise<string[]> {
  const w = prefixedKubeconfig(YAML.parse(workload) as KubeconfigDoc, prefix);
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
 * Removes the contexts that point at the kubeconfig cluster entry `clusterName` (create-cluster
 * merges `<env>/<namespace>/<cluster>`), and that cluster and user. `also(server)`: an entry of kaas
 * before the prefix (plain `<cluster>`) goes too when it says yes for its server (it is provably this
 * cluster's; another environment's cluster of the same name keeps its entry). Returns what was
 * removed; a missing file or entry is not an error (a second delete is a no-op).
 */
export async function removeContexts(target: string, clusterName: string, dryRun = false, legacy?: { name: string; also: (server: string) => boolean }): Promise<string[]> {
  if (!existsSync(target)) return [];
  if (dryRun) return contextsToRemove(target, clusterName, true, legacy);
  return withFileLock(target, () => contextsToRemove(target, clusterName, false, legacy));
}

function contextsToRemove(target: string, clusterName: string, dryRun: boolean, legacy?: { name: string; also: (server: string) => boolean }): string[] {
  const base = readKubeconfig(target);
  if (!base) return [];
  const server = (name: string) => (base.clusters ?? []).find((c) => c.name === name)?.cluster as { server?: string } | undefined;
  const legacyToo = legacy !== undefined && legacy.also(server(legacy.name)?.server ?? '');
  const names = new Set([clusterName, ...(legacyToo ? [legacy.name] : [])]);
  const gone = (base.contexts ?? []).filter((c) => names.has(c.context?.cluster ?? ''));
  if (gone.length === 0) return [];
  const users = new Set(gone.map((c) => c.context?.user));
  base.contexts = (base.contexts ?? []).filter((c) => !gone.includes(c));
  base.clusters = (base.clusters ?? []).filter((c) => !names.has(c.name));
  base.users = (base.users ?? []).filter((u) => !users.has(u.name) || base.contexts!.some((c) => c.context?.user === u.name));
  if (gone.some((c) => c.name === base['current-context'])) delete base['current-context'];
  if (!dryRun) writeKubeconfig(target, base);
  return gone.map((c) => c.name);
}
