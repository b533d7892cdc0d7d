import type { LoadBalancer, Pool } from '../openstack/octavia.js';
import { occmLoadBalancerName } from '../openstack/octavia.js';
import { finding, ownerNames, type Check, type CheckInput } from './check.js';
import { monitorAsked } from './cluster-checks.js';
import { monitorProblem, monitorState } from './monitor-status.js';
import { octaviaTime, ownedBy } from './names.js';

/**
 * Health monitors as Octavia reports them: one that is not ACTIVE, and one that is missing where the
 * cluster asks for one. Issue 29: on the testbed every ovn monitor was in ERROR (provider 3.0.0 without
 * the OVN metadata port) while the load balancer stayed ACTIVE, and neither doctor nor the verification
 * said a word — an ETP Local Service without a working monitor reported as fine.
 */

const poolsOf = (i: CheckInput, lb: LoadBalancer): Pool[] => i.cloud!.pools.filter((p) => p.loadbalancers?.some((l) => l.id === lb.id));
const poolName = (p: Pool) => p.name || p.id;

export const healthMonitorNotActive: Check = {
  id: 'health-monitor-not-active', severity: 'error', needs: ['cloud'],
  what: 'a health monitor of a load balancer of the cluster is in provisioning_status ERROR (or another state but ACTIVE, or PENDING_* longer than --stuck-after): no health check runs, and with externalTrafficPolicy: Local requests to nodes without a pod fail',
  fix: 'openstack loadbalancer healthmonitor show ID; ovn: the provider needs a health-monitor source port on the member network (ovn-octavia-provider < 4.0.0: the OVN metadata port, Neutron ovn_metadata_enabled = true), or use amphora',
  run: (i) => i.cloud!.loadBalancers.filter((lb) => ownedBy(lb, ownerNames(i))).flatMap((lb) => poolsOf(i, lb).flatMap((pool) => {
    const hm = i.cloud!.healthMonitors.find((m) => m.id === pool.healthmonitor_id);
    if (!hm) return [];
    const state = monitorState(hm);
    if (state === 'ok') return [];
    if (state === 'pending') {
      const since = octaviaTime(hm.updated_at) ?? octaviaTime(hm.created_at);
      if (since === undefined || i.now - since < i.stuckAfterSec * 1000) return [];
    }
    const p = monitorProblem(hm, { lbName: lb.name, poolName: poolName(pool), provider: lb.provider, lbStatus: lb.provisioning_status });
    return [finding(healthMonitorNotActive, { type: 'healthmonitor', id: hm.id, name: `${lb.name}/${poolName(pool)}` }, p.message, p.fix)];
  })),
};

export const healthMonitorMissing: Check = {
  id: 'health-monitor-missing', severity: 'error', needs: ['cloud', 'cluster'],
  what: 'a LoadBalancer Service with externalTrafficPolicy: Local asks for a health monitor (annotation or cloud.conf create-monitor), but a pool of its Octavia load balancer has none: requests to nodes without a pod fail',
  fix: 'read OCCM\'s log for the Service (kubectl -n kube-system logs daemonset/openstack-cloud-controller-manager); OCCM creates the monitor when it next updates the load balancer',
  run: (i) => {
    const names = ownerNames(i);
    if (!names) return [];
    return i.kube!.services.filter((s) => s.spec.type === 'LoadBalancer' && s.spec.externalTrafficPolicy === 'Local' && monitorAsked(i, s)).flatMap((s) => {
      const name = occmLoadBalancerName(names.occmCluster, s.metadata.namespace, s.metadata.name);
      const lbs = i.cloud!.loadBalancers.filter((lb) => lb.name === name);
      // None, or several (lb-recreation-loop says so): nothing to compare with.
      if (lbs.length !== 1) return [];
      return poolsOf(i, lbs[0]).filter((p) => !p.healthmonitor_id).map((p) => finding(healthMonitorMissing, { type: 'pool', id: p.id, name: `${name}/${poolName(p)}` },
        `Pool ${poolName(p)} of load balancer ${name} has no health monitor, though Service ${s.metadata.namespace}/${s.metadata.name} has externalTrafficPolicy: Local and asks for one: the load balancer sends requests to nodes without a pod, and those requests fail.`,
        `kubectl -n kube-system logs daemonset/openstack-cloud-controller-manager | grep ${s.metadata.name} (why OCCM did not create it: e.g. the provider refused the monitor type); OCCM creates it when it next updates the load balancer (a change to the Service, or an OCCM restart)`));
    });
  },
};
