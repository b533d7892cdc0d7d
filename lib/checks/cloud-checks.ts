import type { LoadBalancer, Pool } from '../openstack/octavia.js';
import { algorithmAllowed, monitorTypeAllowed, PROVIDERS, providerFacts } from '../plan/providers.js';
import { finding, ownerNames, type Check, type CheckInput } from './check.js';
import { healthMonitorNotActive } from './monitor-checks.js';
import { ownedBy, parseOccmFipDescription, parseOccmLbName, octaviaTime } from './names.js';

/**
 * Cloud-side checks: pure functions of the project's Octavia/Neutron lists and the plan. Provider
 * facts (algorithms, monitor types, allowed_cidrs) come from lib/plan/providers.ts only.
 */

const lbRes = (lb: LoadBalancer) => ({ type: 'loadbalancer', id: lb.id, name: lb.name });
const owned = (i: CheckInput) => (i.cloud?.loadBalancers ?? []).filter((lb) => ownedBy(lb, ownerNames(i)));
const lbOf = (i: CheckInput, p: { loadbalancers?: { id: string }[] }) => {
  const id = p.loadbalancers?.[0]?.id;
  return owned(i).find((l) => l.id === id);
};
const secs = (ms: number) => (ms >= 120_000 ? `${Math.round(ms / 60_000)} minutes` : `${Math.round(ms / 1000)} seconds`);
const recreate = (lb: LoadBalancer) => {
  const o = parseOccmLbName(lb.name);
  return o ? `kubectl delete service -n ${o.namespace} ${o.service} and apply it again (OCCM re-creates the LB)` : `openstack loadbalancer delete --cascade ${lb.id}`;
};

export const lbError: Check = {
  id: 'lb-error', severity: 'error', needs: ['cloud'],
  what: 'a load balancer of the cluster is in provisioning_status ERROR',
  fix: 'delete it (openstack loadbalancer delete --cascade ID); OCCM/CAPO create it again',
  run: (i) => owned(i).filter((lb) => lb.provisioning_status === 'ERROR').map((lb) =>
    finding(lbError, lbRes(lb), `Octavia load balancer ${lb.name} is in ERROR: it serves no traffic and OCCM cannot update it.`, `openstack loadbalancer delete --cascade ${lb.id}; then ${recreate(lb)}`)),
};

export const lbStuckPending: Check = {
  id: 'lb-stuck-pending', severity: 'error', needs: ['cloud'],
  what: 'a load balancer of the cluster stays PENDING_* longer than --stuck-after',
  fix: 'ask the cloud operator (Octavia worker/amphora problem); openstack loadbalancer show ID',
  run: (i) => owned(i).flatMap((lb) => {
    if (!lb.provisioning_status?.startsWith('PENDING_')) return [];
    const since = octaviaTime(lb.updated_at) ?? octaviaTime(lb.created_at);
    if (since === undefined || i.now - since < i.stuckAfterSec * 1000) return [];
    return [finding(lbStuckPending, lbRes(lb),
      `Octavia load balancer ${lb.name} has been ${lb.provisioning_status} for ${secs(i.now - since)}: Octavia's worker does not finish it, and it cannot be changed or deleted until it does.`,
      `ask the cloud operator to look at the Octavia worker/health manager for load balancer ${lb.id} (openstack loadbalancer show ${lb.id}); an admin can reset it (openstack loadbalancer failover ${lb.id} once ERROR)`)];
  }),
};

export const lbRecreationLoop: Check = {
  id: 'lb-recreation-loop', severity: 'error', needs: ['cloud'],
  what: 'several load balancers carry one Service\'s OCCM name (OCCM re-creates a failing LB, e.g. an OVN LB refused an HTTP monitor), which runs into the LB quota',
  fix: 'fix the cause (OVN: OCCM ≥ v1.26, create-monitor with TCP monitors), then delete the extra LBs',
  run: (i) => {
    const byName = new Map<string, LoadBalancer[]>();
    for (const lb of owned(i)) if (parseOccmLbName(lb.name)) byName.set(lb.name, [...(byName.get(lb.name) ?? []), lb]);
    return [...byName.values()].filter((g) => g.length > 1).map((g) => {
      const ovn = g.some((lb) => lb.provider === 'ovn');
      const why = ovn
        ? 'OCCM keeps creating new OVN load balancers for this Service: the ovn provider refuses the HTTP health monitor that OCCM older than v1.26 asks for with externalTrafficPolicy: Local'
        : 'OCCM has created this Service\'s load balancer again and again, each attempt failing';
      return finding(lbRecreationLoop, { type: 'loadbalancer', id: g.map((l) => l.id).join(','), name: g[0].name },
        `${g.length} Octavia load balancers are named ${g[0].name}: ${why}, and each leftover counts against the quota.`,
        `${ovn ? 'use OCCM ≥ v1.26 (TCP monitors for ovn) and cloud.conf create-monitor=true; then ' : ''}delete all but the one the Service's loadbalancer.openstack.org/load-balancer-id annotation names: ${g.map((l) => `openstack loadbalancer delete --cascade ${l.id}`).join('; ')}`);
    });
  },
};

const ovnPools = (i: CheckInput): { pool: Pool; lb: LoadBalancer }[] =>
  i.cloud!.pools.flatMap((pool) => {
    const lb = lbOf(i, pool);
    return lb && providerFacts(lb.provider).name === 'ovn' ? [{ pool, lb }] : [];
  });

export const ovnPoolMonitorType: Check = {
  id: 'ovn-pool-monitor-type', severity: 'error', needs: ['cloud'],
  what: `an OVN pool has a health monitor of a type the ovn provider does not support (only ${PROVIDERS.ovn.monitorTypes.join(', ')})`,
  fix: 'OCCM ≥ v1.26 creates TCP monitors for ovn; delete the monitor and let OCCM re-create it',
  run: (i) => ovnPools(i).flatMap(({ pool, lb }) => {
    const hm = i.cloud!.healthMonitors.find((m) => m.id === pool.healthmonitor_id);
    if (!hm || monitorTypeAllowed(PROVIDERS.ovn, hm.type)) return [];
    return [finding(ovnPoolMonitorType, { type: 'healthmonitor', id: hm.id, name: `${lb.name}/${pool.name ?? pool.id}` },
      `The OVN pool ${pool.name ?? pool.id} of ${lb.name} has a ${hm.type} health monitor, which the ovn provider does not support: OCCM's updates fail and it re-creates the LB in a loop.`,
      `openstack loadbalancer healthmonitor delete ${hm.id}; run OCCM ≥ v1.26 (TCP monitors for ovn) with cloud.conf create-monitor=true (kaas create-cluster renders it)`)];
  }),
};

export const ovnPoolAlgorithm: Check = {
  id: 'ovn-pool-algorithm', severity: 'error', needs: ['cloud'],
  what: `an OVN pool uses an algorithm other than ${PROVIDERS.ovn.algorithms.join('/')}`,
  fix: `cloud.conf lb-method=${PROVIDERS.ovn.algorithms[0]} (occm_loadbalancer), or the Service annotation loadbalancer.openstack.org/lb-method`,
  run: (i) => ovnPools(i).filter(({ pool }) => !algorithmAllowed(PROVIDERS.ovn, pool.lb_algorithm)).map(({ pool, lb }) =>
    finding(ovnPoolAlgorithm, { type: 'pool', id: pool.id, name: `${lb.name}/${pool.name ?? pool.id}` },
      `The OVN pool ${pool.name ?? pool.id} of ${lb.name} uses ${pool.lb_algorithm}; the ovn provider only supports ${PROVIDERS.ovn.algorithms.join(', ')}.`,
      `set lb-method=${PROVIDERS.ovn.algorithms[0]} in OCCM's cloud.conf (kaas create-cluster renders it for OVN) and remove any loadbalancer.openstack.org/lb-method annotation; then openstack loadbalancer pool set --lb-algorithm ${PROVIDERS.ovn.algorithms[0]} ${pool.id}`)),
};

export const ovnListenerAllowedCidrs: Check = {
  id: 'ovn-listener-allowed-cidrs', severity: 'error', needs: ['cloud'],
  what: 'an OVN listener has allowed_cidrs, which the ovn provider does not enforce (it rejects them)',
  fix: 'use amphora for LBs that must restrict sources (restrict_kubeapi, loadBalancerSourceRanges), or manage-security-groups for ovn',
  run: (i) => i.cloud!.listeners.flatMap((l) => {
    const lb = lbOf(i, l);
    if (!lb || providerFacts(lb.provider).allowedCidrs || !(l.allowed_cidrs ?? []).length) return [];
    return [finding(ovnListenerAllowedCidrs, { type: 'listener', id: l.id, name: `${lb.name}/${l.name ?? l.protocol_port}` },
      `The OVN listener on port ${l.protocol_port} of ${lb.name} lists allowed_cidrs ${(l.allowed_cidrs ?? []).join(', ')}, which the ovn provider does not enforce: sources are not restricted.`,
      `use an amphora load balancer where sources must be restricted (use_ovn_lb_provider: false, or restrict_kubeapi steers auto away from OVN); for Services on ovn rely on OCCM manage-security-groups=true`)];
  }),
};

export const fipUnattached: Check = {
  id: 'fip-unattached', severity: 'warning', needs: ['cloud'],
  what: 'a floating IP OCCM created for the cluster is attached to no port (left behind, still billed, counts against the quota)',
  fix: 'openstack floating ip delete ID (unless a Service will reuse it via loadBalancerIP)',
  run: (i) => i.cloud!.floatingIps.flatMap((f) => {
    const o = parseOccmFipDescription(f.description as string | undefined);
    // OCCM writes its cluster-name into the description: namespace-prefixed with a namespace setting.
    const names = ownerNames(i);
    if (!o || (names !== undefined && o.cluster !== names.occmCluster) || f.port_id) return [];
    return [finding(fipUnattached, { type: 'floatingip', id: f.id, name: f.floating_ip_address },
      `Floating IP ${f.floating_ip_address}, created by OCCM for Service ${o.service} of cluster ${o.cluster}, is attached to nothing: it is billed and counts against the quota.`,
      `openstack floating ip delete ${f.id} (or reuse it: spec.loadBalancerIP: ${f.floating_ip_address})`)];
  }),
};

/** Octavia quota keys → the project's objects they count. */
const OCTAVIA_USE: Record<string, (i: CheckInput) => number> = {
  load_balancer: (i) => i.cloud!.loadBalancers.length,
  listener: (i) => i.cloud!.listeners.length,
  pool: (i) => i.cloud!.pools.length,
  health_monitor: (i) => i.cloud!.healthMonitors.length,
};
const QUOTA_CMD: Record<string, string> = {
  load_balancer: 'openstack loadbalancer quota set --loadbalancer', listener: 'openstack loadbalancer quota set --listener',
  pool: 'openstack loadbalancer quota set --pool', health_monitor: 'openstack loadbalancer quota set --healthmonitor',
  floatingip: 'openstack quota set --floating-ips', port: 'openstack quota set --ports', security_group: 'openstack quota set --secgroups',
};

export const quotaHeadroom: Check = {
  id: 'quota-headroom', severity: 'error', needs: ['cloud'],
  what: 'a project quota (load balancers, listeners, pools, health monitors, floating IPs, ports, security groups) has less room than the cluster\'s plan needs',
  fix: 'ask the cloud operator to raise the quota (openstack quota set / openstack loadbalancer quota set), or delete unused resources',
  run: (i) => Object.entries(i.needs).flatMap(([key, need]) => {
    if (need <= 0) return [];
    let limit: number | undefined;
    let used: number;
    if (key in OCTAVIA_USE) {
      limit = i.cloud!.octaviaQuota?.[key];
      used = OCTAVIA_USE[key](i);
    } else {
      const d = i.cloud!.neutronQuota?.[key];
      limit = d?.limit;
      used = (d?.used ?? 0) + (d?.reserved ?? 0);
    }
    if (limit === undefined || limit < 0 || limit - used >= need) return [];
    const free = Math.max(0, limit - used);
    return [finding(quotaHeadroom, { type: 'quota', id: `${i.cloud!.projectId}/${key}`, name: key },
      `Quota ${key}: ${used} of ${limit} used, ${free} free, but the plan needs ${need} more${i.needs.load_balancer === 1 ? ' (one more LoadBalancer Service)' : ' (kaas create-cluster plus one more LoadBalancer Service)'}.`,
      `${QUOTA_CMD[key] ?? 'openstack quota set'} ${used + need} ${i.cloud!.projectId} (cloud admin), or delete unused ${key.replace(/_/g, ' ')}s`)];
  }),
};

/** Every cloud-side check, in report order. */
export const CLOUD_CHECKS: readonly Check[] = [lbError, lbStuckPending, lbRecreationLoop, healthMonitorNotActive, ovnPoolMonitorType, ovnPoolAlgorithm, ovnListenerAllowedCidrs, fipUnattached, quotaHeadroom];
