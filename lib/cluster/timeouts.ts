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

/** The machine waits in seconds, with the sentence that explains them. */
export function machineWaits(instanceCreateTimeoutMin: number, controllerCount: number): { controlPlaneSec: number; machinesSec: number; reason: string } {
  const slot = instanceCreateTimeoutMin + BOOT_AND_JOIN_MIN;
  const controlPlane = INFRA_MIN + slot;
  // KubeadmControlPlane adds control-plane machines one at a time; workers join meanwhile, in parallel.
  const machines = slot * Math.max(controllerCount, 1);
  return {
    controlPlaneSec: controlPlane * 60,
    machinesSec: machines * 60,
    reason: `waits from instance_create_timeout ${instanceCreateTimeoutMin} min (+${BOOT_AND_JOIN_MIN} min to boot and join per machine): first control-plane node ${controlPlane} min, all ${controllerCount} control-plane and the worker nodes ${machines} min`,
  };
}
