import { rolledOut, type ControlPlaneStatus, type MachineDeploymentStatus, type ReplicaStatus } from '../../kube/cluster-api.js';
import type { Probe } from '../wait.js';

/**
 * What the machine waits report, from the v1beta2 status counts: done or not, and a progress text
 * that changes whenever a count moves (the waits time out on "no progress", so the text must
 * carry every count that moves during a rollout: machines, up to date, ready).
 */

/** `ready/wanted ready, upToDate/wanted up to date, N machines` of one KCP or MachineDeployment. */
export function replicaProgress(r: ReplicaStatus): string {
  const extra = r.currentReplicas > r.replicas ? `, ${r.currentReplicas} machines (old ones still there)` : '';
  return `${r.readyReplicas}/${r.replicas} ready, ${r.upToDateReplicas}/${r.replicas} up to date${extra}`;
}

/**
 * The "machines ready" probe: control plane and workers rolled out. After a change of
 * kubernetes_version (`target`), also both at the target: KubeadmControlPlane status.version (its
 * oldest machine) and the MachineDeployment's spec.template.spec.version — replica counts alone read
 * "rolled out" at the old version until the workers' upgrade starts (review 2026-11-27 n5).
 */
export function machinesProgress(cp: ControlPlaneStatus | ReplicaStatus, md: MachineDeploymentStatus, target?: string): Probe {
  const done = rolledOut(cp) && rolledOut(md);
  if (!target) return { done, progress: `control plane ${replicaProgress(cp)}; workers ${replicaProgress(md)}` };
  const cpVersion = (cp as ControlPlaneStatus).version;
  const at = cpVersion === target && md.version === target;
  return {
    done: done && at,
    progress: `control plane ${replicaProgress(cp)}, runs ${cpVersion ?? 'no version yet'}; workers ${replicaProgress(md)}, rolled to ${md.version ?? 'no version'} (want ${target})`,
  };
}

/**
 * The control plane runs `version` on every machine: KubeadmControlPlane status.version (the oldest
 * version among its machines) equals it and the rollout is done.
 */
export function controlPlaneAt(cp: ControlPlaneStatus, version: string): Probe {
  const at = cp.version === version;
  return { done: at && rolledOut(cp), progress: `control plane ${replicaProgress(cp)}, runs ${cp.version ?? 'no version yet'} (want ${version})` };
}
