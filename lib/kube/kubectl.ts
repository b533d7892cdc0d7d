import { readKubeJson } from './kube-answer.js';
import { OperationError } from '../errors.js';
import { ExecError, type ProcessRunner, type RunResult } from '../exec/runner.js';
import { registerSecret } from '../redact.js';

/** Which cluster kubectl talks to: a kubeconfig file and/or a context in it (both optional). */
export interface KubeTarget {
  kubeconfig?: string;
  context?: string;
}

/** Options of one raw kubectl call. */
export interface KubectlCallOptions {
  /** Written to kubectl's stdin (manifests for `-f -`). */
  input?: string;
  timeoutMs?: number;
  /** When false, a non-zero exit is returned instead of thrown. Default true. */
  reject?: boolean;
}

/** Namespace and label selector of a get/delete/wait. */
export interface Scope {
  namespace?: string;
  selector?: string;
}

/**
 * The kubectl adapter: every kubectl call kaas makes goes through here (and through the one
 * ProcessRunner), always with the target's `--kubeconfig`/`--context` first, so tests can check
 * the exact argv. The public API only grows; callers: ingress, cluster-api (create/delete-cluster).
 */
export interface Kubectl {
  readonly target: KubeTarget;
  /** Any kubectl call: `kubectl [--kubeconfig F] [--context C] <args…>`. */
  run(args: string[], opts?: KubectlCallOptions): Promise<RunResult>;
  /**
   * Server-side apply of a multi-document manifest from stdin with field manager `kaas`.
   * `forceConflicts` takes over fields another manager owns (right for objects kaas owns, such
   * as the ingress-nginx manifests: a previous `kubectl apply` by the SCS scripts owns them).
   * Returns kubectl's stdout (one line per object).
   */
  apply(manifest: string, opts?: { forceConflicts?: boolean; dryRun?: 'server' | 'client'; timeoutMs?: number; fieldManager?: string }): Promise<string>;
  /**
   * `get <kind> [name] -o json`; undefined when a named object does not exist. `managedFields`:
   * add `--show-managed-fields` (kubectl ≥ 1.21 leaves metadata.managedFields out of -o json otherwise).
   */
  getJson<T = unknown>(kind: string, name?: string, scope?: Scope, opts?: { managedFields?: boolean }): Promise<T | undefined>;
  /**
   * `get <kind> <names…> --ignore-not-found -o json`: the objects of these names that exist, in one
   * kubectl run (a missing one is left out, never an error).
   */
  getMany<T = unknown>(kind: string, names: string[], scope?: Scope): Promise<T[]>;
  /**
   * `get <kind/name…> --ignore-not-found -o json`: the objects of several kinds and names that exist,
   * in one kubectl run (e.g. a control plane and a MachineDeployment, or Secrets and their Namespace;
   * `scope.namespace` is ignored for cluster-scoped kinds, as kubectl does). Each carries its `kind`.
   */
  getObjects<T = unknown>(refs: string[], scope?: Scope): Promise<T[]>;
  /** `rollout status <resource> --timeout=<s>s`; throws OperationError with kubectl's words on timeout. */
  rolloutStatus(resource: string, scope: Scope, timeoutSec: number): Promise<void>;
  /** `wait <resource…> --for=<condition> --timeout=<s>s` (one resource, or several of a kind: `crd/a crd/b`). */
  wait(resource: string | string[], condition: string, scope: Scope, timeoutSec: number): Promise<void>;
  /** `delete <resources…> --ignore-not-found [--wait=false]`; a missing object is not an error (timeoutMs: default 300 s). */
  delete(resources: string[], scope?: Scope & { wait?: boolean; timeoutMs?: number }): Promise<void>;
  /** `delete -f - --ignore-not-found` of a multi-document manifest (what apply created). */
  deleteManifest(manifest: string, opts?: { wait?: boolean; timeoutMs?: number }): Promise<void>;
  /** A Secret's data, base64-decoded, values registered for redaction; undefined when absent. */
  readSecret(namespace: string, name: string): Promise<Record<string, string> | undefined>;
  /** The client's version (`version --client -o json` → clientVersion.gitVersion), e.g. "v1.32.3". */
  clientVersion(): Promise<string>;
}

/** The field manager kaas uses for server-side apply. */
export const FIELD_MANAGER = 'kaas';

// Only the API server's NotFound means "no such object": kubectl's own errors also say "not found"
// (`context was not found for specified context: x`), and those must fail, not read as absent.
const NOT_FOUND = /^Error from server \(NotFound\)/m;

/** Whether kubectl's JSON output is a List (unreadable output goes to readKubeJson, which says why). */
function isList(stdout: string): boolean {
  try {
    return (JSON.parse(stdout) as { kind?: unknown }).kind === 'List';
  } catch {
    return false;
  }
}

function scopeArgs(scope: Scope = {}): string[] {
  const a: string[] = [];
  if (scope.namespace) a.push('--namespace', scope.namespace);
  if (scope.selector) a.push('--selector', scope.selector);
  return a;
}

/** Builds the kubectl adapter over a ProcessRunner. `binary` defaults to "kubectl" (on PATH). */
export function createKubectl(runner: ProcessRunner, target: KubeTarget = {}, binary = 'kubectl'): Kubectl {
  const prefix: string[] = [];
  if (target.kubeconfig) prefix.push('--kubeconfig', target.kubeconfig);
  if (target.context) prefix.push('--context', target.context);

  const run = (args: string[], opts: KubectlCallOptions = {}) =>
    runner.run(binary, [...prefix, ...args], { input: opts.input, timeoutMs: opts.timeoutMs, reject: opts.reject });

  const hint = 'check the kubeconfig (--kubeconfig / --context) and that the cluster is reachable: kubectl cluster-info';

  async function checked(args: string[], opts: KubectlCallOptions = {}): Promise<RunResult> {
    const r = await run(args, { ...opts, reject: false });
    if (r.exitCode !== 0) throw new ExecError(binary, [...prefix, ...args], r.exitCode, r.stderr, hint);
    return r;
  }

  /** A `get … --ignore-not-found -o json`: kubectl prints nothing when none exists, the object itself for one name, else a List. */
  async function existing<T>(args: string[]): Promise<T[]> {
    const r = await checked(args, { timeoutMs: 60_000 });
    if (r.stdout.trim() === '') return [];
    const command = `${binary} ${args.join(' ')}`;
    return isList(r.stdout) ? readKubeJson<{ items: T[] }>(r.stdout, command, false).items : [readKubeJson<T>(r.stdout, command, true)];
  }

  return {
    target,
    run,
    async apply(manifest, opts = {}) {
      const args = ['apply', '--server-side', `--field-manager=${opts.fieldManager ?? FIELD_MANAGER}`];
      if (opts.forceConflicts) args.push('--force-conflicts');
      if (opts.dryRun) args.push(`--dry-run=${opts.dryRun}`);
      args.push('-f', '-');
      return (await checked(args, { input: manifest, timeoutMs: opts.timeoutMs ?? 120_000 })).stdout;
    },
    async getJson<T>(kind: string, name?: string, scope?: Scope, opts: { managedFields?: boolean } = {}) {
      const args = ['get', kind, ...(name ? [name] : []), ...scopeArgs(scope), '-o', 'json', ...(opts.managedFields ? ['--show-managed-fields'] : [])];
      const r = await run(args, { reject: false, timeoutMs: 60_000 });
      if (r.exitCode !== 0) {
        if (name && NOT_FOUND.test(r.stderr)) return undefined;
        throw new ExecError(binary, [...prefix, ...args], r.exitCode, r.stderr, hint);
      }
      return readKubeJson<T>(r.stdout, `${binary} ${args.join(' ')}`, name !== undefined && !kind.includes(','));
    },
    async getMany<T>(kind: string, names: string[], scope?: Scope) {
      if (!names.length) return [];
      return existing<T>(['get', kind, ...names, ...scopeArgs(scope), '--ignore-not-found', '-o', 'json']);
    },
    async getObjects<T>(refs: string[], scope?: Scope) {
      if (!refs.length) return [];
      return existing<T>(['get', ...refs, ...scopeArgs(scope), '--ignore-not-found', '-o', 'json']);
    },
    async rolloutStatus(resource, scope, timeoutSec) {
      const args = ['rollout', 'status', resource, ...scopeArgs(scope), `--timeout=${timeoutSec}s`];
      const r = await run(args, { reject: false, timeoutMs: (timeoutSec + 30) * 1000 });
      if (r.exitCode !== 0) {
        throw new OperationError(`${resource} did not become ready within ${timeoutSec}s: ${r.stderr.trim()}`, {
          hint: `look at the pods: kubectl ${[...prefix, 'get', 'pods', ...scopeArgs(scope)].join(' ')}`,
        });
      }
    },
    async wait(resource, condition, scope, timeoutSec) {
      const resources = typeof resource === 'string' ? [resource] : resource;
      const args = ['wait', ...resources, `--for=${condition}`, ...scopeArgs(scope), `--timeout=${timeoutSec}s`];
      const r = await run(args, { reject: false, timeoutMs: (timeoutSec + 30) * 1000 });
      if (r.exitCode !== 0) {
        throw new OperationError(`${resources.join(' ')} did not reach ${condition} within ${timeoutSec}s: ${r.stderr.trim()}`);
      }
    },
    async delete(resources, scope = {}) {
      const args = ['delete', ...resources, ...scopeArgs(scope), '--ignore-not-found'];
      if (scope.wait === false) args.push('--wait=false');
      await checked(args, { timeoutMs: scope.timeoutMs ?? 300_000 });
    },
    async deleteManifest(manifest, opts = {}) {
      const args = ['delete', '-f', '-', '--ignore-not-found'];
      if (opts.wait === false) args.push('--wait=false');
      await checked(args, { input: manifest, timeoutMs: opts.timeoutMs ?? 300_000 });
    },
    async readSecret(namespace, name) {
      const s = await this.getJson<{ data?: Record<string, string> }>('secret', name, { namespace });
      if (!s) return undefined;
      const out: Record<string, string> = {};
      for (const [k, v] of Object.entries(s.data ?? {})) {
        out[k] = Buffer.from(v, 'base64').toString('utf8');
        registerSecret(out[k]);
      }
      return out;
    },
    async clientVersion() {
      const r = await checked(['version', '--client', '-o', 'json'], { timeoutMs: 30_000 });
      const v = (JSON.parse(r.stdout) as { clientVersion?: { gitVersion?: string } }).clientVersion?.gitVersion;
      if (!v) throw new OperationError('kubectl version --client printed no clientVersion.gitVersion');
      return v;
    },
  };
}

/** How a use case reaches kubectl: the injected factory (tests, the testbed's harness), else kubectl run by `runner`. */
export function kubectlFactory(deps: { runner: ProcessRunner; kubectlFor?: (t: KubeTarget) => Kubectl }): (t: KubeTarget) => Kubectl {
  return deps.kubectlFor ?? ((t) => createKubectl(deps.runner, t));
}
