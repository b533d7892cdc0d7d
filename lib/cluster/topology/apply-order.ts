import type { Kubectl } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import type { KubeObject } from '../../render/documents.js';
import type { ObjectDiff } from '../live/reconcile.js';
import { converge, type ConvergeResult } from '../mgmt.js';

/**
 * The order in which a topology cluster's change is applied. A Kubernetes upgrade of a ClusterClass
 * cluster changes two objects the topology controller reads apart: the class (repointed to a new
 * machine-template generation with the new version's image) and `Cluster.spec.topology.version`.
 * kubectl applies them one after the other, so the controller can reconcile between them and roll the
 * control plane onto the new image at the old version, or, if the Cluster's apply fails, stay there
 * (review 2026-11-27 n4). Cluster API's topology controller returns early for a paused Cluster
 * (CAPI v1.12.10 internal/controllers/topology/cluster/cluster_controller.go: `cluster.Spec.Paused`),
 * so the change is made while the Cluster is paused and the Cluster's new version resumes it: the
 * controller sees class and version together.
 */

/** One apply of the sequence. */
export interface ApplyStep {
  /** What the step does, for the log (empty for a plain one-step apply). */
  what: string;
  objects: KubeObject[];
}

/** The steps, and the Cluster object that resumes it unchanged when a later step fails. */
export interface ApplyOrder {
  steps: ApplyStep[];
  /** Applied after a failure once the pause is in: the Cluster at its live version, not paused. */
  resume?: KubeObject;
}

type Obj = Record<string, unknown>;

/**
 * The apply steps for the changed objects of a topology plan (pure): one step, unless the Cluster's
 * version changes together with the ClusterClass; then pause (the Cluster at its live version with
 * `spec.paused: true`), the templates and the class, and the Cluster at its new version (without
 * `paused`: server-side apply removes the field kaas set, so the Cluster resumes).
 */
export function topologyApplyOrder(objects: KubeObject[], diffs: ObjectDiff[]): ApplyOrder {
  const cluster = objects.find((o) => o.kind === 'Cluster');
  const liveVersion = diffs.find((d) => d.kind === 'Cluster')?.fields.find((f) => f.path === 'spec.topology.version')?.live;
  const rest = objects.filter((o) => o !== cluster);
  if (!cluster || typeof liveVersion !== 'string' || !rest.some((o) => o.kind === 'ClusterClass')) return { steps: [{ what: '', objects }] };
  const topology = (cluster.spec as Obj).topology as Obj;
  const atLive = (paused: boolean): KubeObject => ({
    ...cluster,
    spec: { ...(cluster.spec as Obj), topology: { ...topology, version: liveVersion }, ...(paused ? { paused: true } : {}) },
  });
  const name = cluster.metadata.name;
  return {
    steps: [
      { what: `Cluster ${name} paused: the topology controller waits while the class changes`, objects: [atLive(true)] },
      { what: `the class's new templates and ClusterClass ${rest.filter((o) => o.kind === 'ClusterClass').map((o) => o.metadata.name).join(', ')}`, objects: rest },
      { what: `Cluster ${name} at ${String(topology.version)} (from ${liveVersion}) and resumed: class and version reach the topology controller together`, objects: [cluster] },
    ],
    resume: atLive(false),
  };
}

/**
 * Converges the steps one after the other. When a step after the pause fails, the Cluster is put back
 * at its live version and resumed before the error goes on (a failed run never leaves it paused); if
 * even that fails, the log names the command that resumes it.
 */
export async function applyInOrder(k: Kubectl, order: ApplyOrder, logger: Logger, what: string, namespace: string): Promise<ConvergeResult> {
  const r: ConvergeResult = { changed: false, applied: [] };
  let paused = false;
  try {
    for (const [i, step] of order.steps.entries()) {
      if (step.what) logger.info(`${what}: ${step.what}`);
      const one = await converge(k, step.objects, logger, what);
      paused ||= i === 0 && order.resume !== undefined;
      r.changed ||= one.changed;
      r.applied.push(...one.applied);
    }
  } catch (e) {
    if (paused && order.resume) {
      const name = order.resume.metadata.name;
      await converge(k, [order.resume], logger, `${what} (resumed at its live version after the failure)`).catch(() =>
        logger.warn(`Cluster ${namespace}/${name} is still paused after the failure: resume it with kubectl patch cluster ${name} -n ${namespace} --type merge -p '{"spec":{"paused":false}}'`));
    }
    throw e;
  }
  return r;
}
