import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { ExecError, type ProcessRunner } from '../exec/runner.js';
import { CAPI_CLUSTER, workloadKubeconfig } from '../kube/cluster-api.js';
import type { Kubectl, KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { checkEndpoint, kubeconfigServer, type ClusterEndpoint } from './endpoint-check.js';
import { writeSecretFile } from './kubeconfig.js';
import { migrateLegacy } from './legacy-state.js';
import type { LocalKey } from './local-state.js';
import { findClusterNamespace } from './cluster-namespace.js';

/**
 * Which kubeconfig reaches a workload cluster, as `kaas get kubeconfig` finds it: the management
 * cluster's `<cluster>-kubeconfig` Secret first (Cluster API rotates its client certificate, so a file
 * written earlier goes stale: an expired certificate must not make a reachable cluster look
 * unreachable), then the recorded file. Whatever kaas is about to write to or delete in is checked
 * against the Cluster's endpoint (endpoint-check.ts) when the management cluster answers; a
 * kubeconfig that reaches another cluster is refused (exit 2) before anything is touched.
 */

/** Inputs of the resolution. */
export interface WorkloadAccessOptions {
  key: LocalKey;
  /** The recorded file (workload_kubeconfig, else the key's). */
  recorded: string;
  /** A workload kubeconfig the user named (--kubeconfig of the edge commands), with its --context. */
  userKubeconfig?: string;
  context?: string;
  /** The management cluster; undefined = none configured (edge commands without one). */
  mgmt?: Kubectl;
  /** The Cluster's namespace when known; else the `namespace` setting, else where the Cluster is found. */
  namespace?: string;
  /** The Cluster's spec.controlPlaneEndpoint when the caller read the Cluster already (with `namespace`). */
  endpoint?: { host?: string; port?: number };
  namespaceSetting: string;
  /** Refuse (exit 2) a kubeconfig of another cluster (writes, deletes); else ignore it with a warning (reads). */
  refuse: boolean;
  /** Do not write the recorded file: the Secret's kubeconfig goes to a temporary file (delete-cluster --dry-run). */
  dryRun?: boolean;
  /** Command line to suggest in hints (`--env E`, …). */
  envFlag: string;
}

/** Where kaas will talk to the workload cluster. */
export interface WorkloadAccess {
  /** undefined: no kubeconfig (none recorded, none given, none from the management cluster). */
  target?: KubeTarget;
  source: 'flag' | 'management cluster' | 'file' | 'none';
  /** The kubeconfig was compared with the Cluster. */
  checked: boolean;
  /** A temporary folder to remove afterwards (dry-run). */
  temp?: string;
}

type LiveCluster = { spec?: { controlPlaneEndpoint?: { host?: string; port?: number } } };

/** The Cluster's endpoint from the management cluster; undefined when there is no such Cluster. */
async function clusterEndpoint(mgmt: Kubectl, cluster: string, namespace: string): Promise<ClusterEndpoint | undefined> {
  const live = await mgmt.getJson<LiveCluster>(CAPI_CLUSTER, cluster, { namespace });
  if (!live) return undefined;
  const ep = live.spec?.controlPlaneEndpoint ?? {};
  return { id: `${namespace}/${cluster}`, host: ep.host || undefined, port: ep.port || undefined };
}

/**
 * The endpoint with the CA of the `<cluster>-ca` Secret (tls.crt), read only for kubeconfigs that did
 * not come from the management cluster's own Secret. An unreadable Secret (RBAC) leaves the CA
 * uncompared; only tls.crt is decoded (the Secret also holds the CA's key, which kaas does not need).
 */
async function withCa(mgmt: Kubectl, c: ClusterEndpoint, cluster: string, namespace: string): Promise<ClusterEndpoint> {
  const secret = await mgmt.getJson<{ data?: Record<string, string> }>('secret', `${cluster}-ca`, { namespace }).catch((e: unknown) => {
    if (e instanceof ExecError) return undefined;
    throw e;
  });
  const crt = secret?.data?.['tls.crt'];
  return { ...c, ca: crt ? Buffer.from(crt, 'base64').toString('utf8') : undefined };
}

const lastLine = (e: Error) => e.message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';

/**
 * Compares the kubeconfig `file` (or its `text`, not written yet) with the Cluster; refuses or warns
 * on a mismatch. Returns false when the file must not be used.
 */
function verify(file: string, context: string | undefined, c: ClusterEndpoint, o: WorkloadAccessOptions, logger: Logger, text?: string): boolean {
  const v = checkEndpoint(kubeconfigServer(text ?? readFileSync(file, 'utf8'), context), c);
  if (v.ok) {
    // The Secret's kubeconfig (text) is compared by endpoint only, on purpose: no note for it.
    if (text === undefined) for (const n of v.notes) logger.info(`${file} reaches Cluster ${c.id}; ${n}`);
    return true;
  }
  const message = `${text === undefined ? `the workload kubeconfig ${file}` : file} is not Cluster ${c.id}'s: ${v.reason}`;
  const hint = file === o.userKubeconfig
    ? `pass the kubeconfig of cluster ${o.key.cluster} (kaas get kubeconfig ${o.key.cluster} ${o.envFlag} prints it)`
    : `move ${file} away (it belongs to another cluster); kaas get kubeconfig ${o.key.cluster} ${o.envFlag} writes this cluster's`;
  if (o.refuse) throw new UsageError(message, { hint });
  logger.warn(`${message}; it is not used (${hint})`);
  return false;
}

/** Resolves (and, where it can, checks) the workload kubeconfig. */
export async function workloadAccess(o: WorkloadAccessOptions, deps: { runner: ProcessRunner; logger: Logger }): Promise<WorkloadAccess> {
  const { logger } = deps;
  const cluster = o.key.cluster;
  let ns = o.namespace;
  let endpoint: ClusterEndpoint | undefined;
  let down: string | undefined = o.mgmt ? undefined : 'no management cluster is configured (mgmt_kubeconfig)';
  if (o.mgmt) {
    try {
      ns ??= o.namespaceSetting || (await findClusterNamespace(o.mgmt, cluster)) || cluster;
      endpoint = o.endpoint ? { id: `${ns}/${cluster}`, host: o.endpoint.host || undefined, port: o.endpoint.port || undefined } : await clusterEndpoint(o.mgmt, cluster, ns);
      if (!endpoint) down = `the management cluster has no Cluster ${ns}/${cluster}`;
    } catch (e) {
      if (!(e instanceof ExecError)) throw e;
      down = `the management cluster cannot be reached (${lastLine(e)})`;
    }
  }
  const target = (kubeconfig: string): KubeTarget => (o.context ? { kubeconfig, context: o.context } : { kubeconfig });

  if (o.userKubeconfig !== undefined) {
    if (!endpoint) {
      logger.warn(`${o.userKubeconfig} is used as given, not checked against the Cluster: ${down}`);
      return { target: target(o.userKubeconfig), source: 'flag', checked: false };
    }
    verify(o.userKubeconfig, o.context, await withCa(o.mgmt!, endpoint, cluster, ns!), o, logger);
    return { target: target(o.userKubeconfig), source: 'flag', checked: true };
  }

  await migrateLegacy(o.key, async () => endpoint && withCa(o.mgmt!, endpoint, cluster, ns!), logger);
  if (endpoint && ns) {
    try {
      const text = await workloadKubeconfig(deps.runner, o.mgmt!.target, cluster, ns);
      // The Secret is the management cluster's own: its server must still be the Cluster's (checked
      // before anything is written, so a refusal leaves the recorded file as it was).
      verify(`the Secret ${ns}/${cluster}-kubeconfig`, undefined, endpoint, o, logger, text);
      const temp = o.dryRun ? mkdtempSync(path.join(os.tmpdir(), 'kaas-')) : undefined;
      const file = temp ? path.join(temp, 'kubeconfig') : o.recorded;
      if (temp || !existsSync(file) || readFileSync(file, 'utf8') !== text) {
        writeSecretFile(file, text);
        if (!temp) logger.info(`${o.recorded}: written from the management cluster's Secret ${ns}/${cluster}-kubeconfig`);
      }
      return { target: { kubeconfig: file }, source: 'management cluster', checked: true, temp };
    } catch (e) {
      if (!(e instanceof ExecError)) throw e;
      logger.warn(`the management cluster did not give the kubeconfig (${lastLine(e)})${existsSync(o.recorded) ? `: using ${o.recorded}, which may be stale` : ''}`);
    }
  }
  if (!existsSync(o.recorded)) return { source: 'none', checked: false };
  if (!endpoint) {
    logger.warn(`${o.recorded} is used without checking it against the Cluster: ${down}`);
    return { target: { kubeconfig: o.recorded }, source: 'file', checked: false };
  }
  const ok = verify(o.recorded, undefined, await withCa(o.mgmt!, endpoint, cluster, ns!), o, logger);
  return ok ? { target: { kubeconfig: o.recorded }, source: 'file', checked: true } : { source: 'none', checked: false };
}
