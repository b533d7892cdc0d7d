import { readCaFile } from '../openstack/connection.js';
import path from 'node:path';
import type { ProcessRunner } from '../exec/runner.js';
import type { ApplyIngressOptions } from '../ingress/apply-ingress.js';
import type { Logger } from '../log.js';
import type { ApplyDeps } from './create/apply.js';
import { createCluster, type CreateClusterOptions } from './create/create.js';
import { deleteCluster } from './delete/delete.js';
import { clusterLbPlan } from './lb-plan.js';
import type { ClusterRunOptions } from './setup.js';
import { whichOnPath } from './setup.js';
import { createSummary, deleteSummary } from './summary.js';
import { clusterVariables, variablesText } from './topology/variables.js';
import { realClock } from './wait.js';

/**
 * Wiring of the cluster use cases for the CLI: the production adapters, and the result in the
 * shape the entry point prints (`data` for -o json|yaml, `text` for humans from summary.ts, `raw`
 * for manifests). Use cases take `(options, deps)`.
 */

/** What the command files pass in (their context, minus yargs). */
export interface CliEnv {
  logger: Logger;
  runner: ProcessRunner;
}

/** A command result, structurally the CLI's CommandResult. */
export interface RunResult {
  data?: unknown;
  text?: string;
  raw?: string;
}

/**
 * The options of create-cluster's ingress and gateway steps: the same settings, and the cloud
 * (`--cloud`, as a settings flag) and capabilities file the cluster was planned with — else the edge
 * would be planned against another cloud, or none, than the cluster it goes into. Both steps verify
 * their LB against the plan, as `kaas apply-ingress` / `apply-gateway` do by default.
 */
export function ingressStepOptions(o: ClusterRunOptions & { capabilitiesFile?: string }, cluster: string, kubeconfig: string, sets: string[] = []): ApplyIngressOptions {
  return {
    cluster, kubeconfig, settingsDir: o.settingsDir, env: o.env, environ: o.environ, cwd: o.cwd, home: o.home, newCluster: o.newCluster,
    // `sets`: what create-cluster decided beyond the settings (the provider pinned under auto).
    sets: [...o.sets, ...(o.cloud ? [`cloud=${o.cloud}`] : []), ...sets],
    capabilitiesFile: o.capabilitiesFile ? path.resolve(o.cwd, o.capabilitiesFile) : undefined,
    verify: true,
  };
}

/** The production adapters; the ingress step runs apply-ingress's use case with the same settings. */
export function productionDeps(env: CliEnv, o: ClusterRunOptions & { capabilitiesFile?: string }): ApplyDeps {
  return {
    logger: env.logger,
    runner: env.runner,
    clock: realClock,
    which: whichOnPath(o.environ),
    resolveLbPlan: clusterLbPlan,
    // cacert and --capabilities: capped like every file the user names (lib/fs/read-capped.ts).
    readFile: readCaFile,
    async applyIngress({ cluster, kubeconfig, sets }) {
      const { runApplyIngress } = await import('../ingress/apply-ingress.js');
      const r = await runApplyIngress(ingressStepOptions(o, cluster, kubeconfig, sets), { logger: env.logger, runner: env.runner });
      return r.text || 'ingress not deployed (see the plan above)';
    },
    async applyGateway({ cluster, kubeconfig, sets }) {
      const { runApplyGateway } = await import('../gateway/apply-gateway.js');
      const r = await runApplyGateway(ingressStepOptions(o, cluster, kubeconfig, sets), { logger: env.logger, runner: env.runner });
      return r.text || 'gateway not deployed (see the plan above)';
    },
  };
}

/** `kaas create-cluster`, including --list-variables and --dry-run, with the production adapters. */
export async function runCreateCluster(o: CreateClusterOptions & { listVariables?: boolean }, env: CliEnv): Promise<RunResult> {
  if (o.listVariables) {
    const vars = clusterVariables(o);
    return { data: vars, text: variablesText(vars, o.cwd) };
  }
  const r = await createCluster(o, productionDeps(env, o));
  if (r.manifests !== undefined) return { raw: r.manifests, data: r };
  return { data: r, text: createSummary(r) };
}

/** `kaas delete-cluster`, with the production adapters. */
export async function runDeleteCluster(o: ClusterRunOptions, env: CliEnv): Promise<RunResult> {
  const r = await deleteCluster(o, productionDeps(env, o));
  return { data: r, text: deleteSummary(r) };
}
