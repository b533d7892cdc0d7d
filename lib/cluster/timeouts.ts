/**
 * How long create-cluster waits for machines, from `instance_create_timeout`. In the SCS scripts
 * that value was CAPO's CLUSTER_API_OPENSTACK_INSTANCE_CREATE_TIMEOUT, set with `kubectl set env`
 * on the capo-controller-manager Deployment: one environment variable for every cluster that CAPO
 * manages (in CAPO v0.14 it only bounds the wait for root/extra volumes to become available), and
 * setting it restarts CAPO. No per-cluster CAPO field carries it, and kaas does not reconfigure a
 * shared controller; so kaas uses it for its own waits: each server gets instance_create_timeout
 * minutes to become ACTIVE plus a fixed allowance to boot and join.
 */

/** Minutes per machine, beyond instance_create_timeout, for boot, cloud-init and kubeadm init/join. */
export const BOOT_AND_JOIN_MIN = 10;
/** Minutes for the cluster infrastructure before the first server (network, router, API load balancer). */
export const INFRA_MIN = 10;
/**
 * A MachineDeployment's rolling update adds this many machines at a time: CAPI v1.12 defaults
 * `strategy.rollingUpdate` to maxSurge 1, maxUnavailable 0 (internal/webhooks/machinedeployment.go
 * Default), and kaas renders no strategy. KubeadmControlPlane rolls one machine at a time too.
 */
export const MD_MAX_SURGE = 1;

/** The shape of the cluster the machine waits are sized for. */
export interface MachineCounts {
  controllers: number;
  workers: number;
  /** Machines a worker rollout adds at once (default MD_MAX_SURGE). */
  maxSurge?: number;
}

/** The machine waits in seconds, with the sentence that explains them. */
export interface MachineWaits {
  /** First control-plane node up (infrastructure + one machine). */
  controlPlaneSec: number;
  /** Ceiling for all machines ready and rolled out: every machine replaced one batch after the other. */
  machinesSec: number;
  /** A machine wait fails earlier when its progress (replica counts) has not moved for this long. */
  stallSec: number;
  reason: string;
}

/**
 * Sizes the machine waits: a rollout replaces the control-plane machines one at a time, then the
 * workers `maxSurge` at a time (Cluster API holds new workers while the control plane upgrades), so
 * the ceiling is one machine slot per control-plane machine plus one per worker batch. Since that
 * ceiling is long for big clusters, a wait also fails when nothing has moved for one slot (the
 * time one machine needs): a stuck rollout is reported after minutes, a slow but moving one is not cut off.
 */
export function machineWaits(instanceCreateTimeoutMin: number, c: MachineCounts): MachineWaits {
  const slot = instanceCreateTimeoutMin + BOOT_AND_JOIN_MIN;
  const controlPlane = INFRA_MIN + slot;
  const surge = Math.max(c.maxSurge ?? MD_MAX_SURGE, 1);
  const batches = Math.max(c.controllers, 1) + Math.ceil(Math.max(c.workers, 0) / surge);
  const machines = slot * batches;
  return {
    controlPlaneSec: controlPlane * 60,
    machinesSec: machines * 60,
    stallSec: slot * 60,
    reason: `waits from instance_create_timeout ${instanceCreateTimeoutMin} min (+${BOOT_AND_JOIN_MIN} min to boot and join per machine): first control-plane node ${controlPlane} min; all machines at most ${machines} min (${c.controllers} control-plane machine${c.controllers === 1 ? '' : 's'} one at a time, ${c.workers} worker${c.workers === 1 ? '' : 's'} ${surge} at a time), and a machine wait stops after ${slot} min without progress`,
  };
}
