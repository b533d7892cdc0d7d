import type { Settings } from '../settings/types.js';
import { decided, refused, type Decision } from './decision.js';

/**
 * Can the cluster's shape carry what kaas puts on it. kaas taints nothing itself, but kubeadm's
 * control-plane nodes carry `node-role.kubernetes.io/control-plane:NoSchedule`; OCCM, cilium, calico
 * and CoreDNS tolerate it, while these add-ons do not, so with `worker_count: 0` their pods stay
 * Pending and create-cluster's rollout and edge waits time out. kaas refuses that combination up
 * front rather than adding tolerations that would put Service load balancers' backends and storage
 * controllers onto the etcd nodes. Pure.
 */

type AddonSwitch = 'deploy_cindercsi' | 'deploy_metrics' | 'deploy_cert_manager' | 'deploy_nginx_ingress' | 'deploy_gateway';

/** The add-ons that need a worker node: [setting, what]. */
const NEED_WORKERS: [AddonSwitch, string][] = [
  ['deploy_cindercsi', 'the Cinder CSI controller'],
  ['deploy_metrics', 'metrics-server'],
  ['deploy_cert_manager', 'cert-manager'],
  ['deploy_nginx_ingress', 'ingress-nginx'],
  ['deploy_gateway', 'Envoy Gateway'],
];

/** Refused when `worker_count` is 0 and an add-on that needs a worker is on (every one is listed). */
export function checkWorkerCount(s: Pick<Settings, 'worker_count' | AddonSwitch>): Decision<number> {
  if (s.worker_count > 0) return decided(s.worker_count);
  const on = NEED_WORKERS.filter(([k]) => s[k] !== false);
  if (on.length === 0) return decided(0, ['worker_count is 0: only control-plane nodes; every add-on kaas deploys tolerates them']);
  return refused({
    message: `worker_count is 0, but ${on.map(([, w]) => w).join(', ')} cannot run on control-plane nodes (no toleration of node-role.kubernetes.io/control-plane:NoSchedule): their pods would stay Pending`,
    hint: `set worker_count to 1 or more, or turn off ${on.map(([k]) => `${k}: false`).join(', ')}`,
  });
}
