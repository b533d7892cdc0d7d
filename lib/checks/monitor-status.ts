import type { HealthMonitor } from '../openstack/octavia.js';
import { providerFacts } from '../plan/providers.js';

/**
 * Is a pool's Octavia health monitor really working? Pure: from the monitor object as Octavia
 * returns it (GET /v2/lbaas/healthmonitors: `provisioning_status` ACTIVE, PENDING_CREATE,
 * PENDING_UPDATE, PENDING_DELETE, ERROR or DELETED) and the LB's provider. Shared by the post-apply
 * verification (verify.ts) and doctor (monitor-checks.ts), so both say the same words.
 */

/** `ok`: ACTIVE; `pending`: PENDING_* (Octavia still working on it); `broken`: any other state (ERROR, DELETED, none reported). */
export type MonitorState = 'ok' | 'pending' | 'broken';

/** The state of a health monitor by its provisioning_status. */
export function monitorState(hm: Pick<HealthMonitor, 'provisioning_status'>): MonitorState {
  const s = hm.provisioning_status;
  if (s === 'ACTIVE') return 'ok';
  return typeof s === 'string' && s.startsWith('PENDING_') ? 'pending' : 'broken';
}

/** Where the monitor sits, for the messages. */
export interface MonitorPlace {
  lbName: string;
  poolName: string;
  provider?: string;
  /** The load balancer's own provisioning_status: a monitor pending beside an ACTIVE ovn LB is bug 1997094's signature. */
  lbStatus?: string;
}

/**
 * ovn-octavia-provider before 3.1.0 (stable/zed) and 4.0.0 creates the load balancer, listeners, pools and
 * members of a fully populated create (one API call with the whole tree: OCCM's default unless
 * `provider-requires-serial-api-calls` is set, cloud-provider-openstack pkg/openstack/loadbalancer.go) but not
 * the pools' health monitors, which Octavia keeps in PENDING_CREATE for ever while the LB goes ACTIVE
 * (Launchpad bug 1997094; openstack/ovn-octavia-provider commit 204f6e0 "Add support for HM on a
 * fullypopulated load balancers", in 3.1.0). Seen on the testbed with Debian bookworm's 3.0.0.
 */
export function fullyPopulatedMonitorBug(hm: Pick<HealthMonitor, 'provisioning_status'>, at: MonitorPlace): boolean {
  return hm.provisioning_status === 'PENDING_CREATE' && at.lbStatus === 'ACTIVE' && providerFacts(at.provider).name === 'ovn';
}

/**
 * One sentence of what a monitor that is not ACTIVE means, and the fix. The ovn provider needs a
 * health-check source port on the members' network: ovn-octavia-provider < 4.0.0 takes the OVN
 * metadata port (`device_owner` network:distributed, made by Neutron only with
 * `[ovn] ovn_metadata_enabled = true`), else the monitor goes to ERROR with "No port on network …
 * available for health monitoring" (openstack/ovn-octavia-provider 3.0.0 `helper.py`
 * `_ensure_hm_ovn_port`, `hm_create`); 4.0.0 makes its own `ovn-lb-hm-<subnet>` port (commit 54d96ca).
 */
export function monitorProblem(hm: Pick<HealthMonitor, 'id' | 'name' | 'type' | 'provisioning_status'>, at: MonitorPlace): { message: string; fix: string } {
  const status = hm.provisioning_status ?? 'no provisioning_status';
  const label = hm.name ? `${hm.name} (${hm.id})` : hm.id;
  const state = monitorState(hm);
  const what = state === 'pending'
    ? 'Octavia has not finished it, so no health check runs yet'
    : 'no health check runs';
  const message = `Health monitor ${label} (${hm.type}) of pool ${at.poolName} of load balancer ${at.lbName} is ${status}: ${what}, so with externalTrafficPolicy: Local the load balancer keeps sending requests to nodes without a pod, and those requests fail.`;
  const show = `openstack loadbalancer healthmonitor show ${hm.id}`;
  if (fullyPopulatedMonitorBug(hm, at)) {
    return {
      message: `Health monitor ${label} (${hm.type}) of pool ${at.poolName} of load balancer ${at.lbName} is PENDING_CREATE beside its ACTIVE load balancer: ovn-octavia-provider before 3.1.0 ignores the health monitors of a load balancer created in one call (OCCM's default), so no health check runs and with externalTrafficPolicy: Local the load balancer keeps sending requests to nodes without a pod, and those requests fail (Launchpad bug 1997094).`,
      fix: `set occm_loadbalancer: {provider-requires-serial-api-calls: "true"} in the cluster's settings and run kaas apply-ingress (OCCM then creates each monitor in a call of its own), then have OCCM make this load balancer again (Octavia refuses to delete a PENDING monitor: delete and re-create the Service, or ask the cloud operator); or ask the cloud operator to upgrade ovn-octavia-provider to 3.1.0 or later`,
    };
  }
  if (state === 'pending') return { message, fix: `${show}; if it stays ${status}, ask the cloud operator to look at the Octavia worker for this monitor` };
  const fix = providerFacts(at.provider).name === 'ovn'
    ? `${show}. The ovn provider needs a health-monitor source port on the member network: ovn-octavia-provider older than 4.0.0 uses the OVN metadata port, which Neutron creates only with [ovn] ovn_metadata_enabled = true (cloud operator); 4.0.0 and later make their own. Ask the cloud operator for either, or use the amphora provider (use_ovn_lb_provider: false); then delete the monitor (openstack loadbalancer healthmonitor delete ${hm.id}) so that OCCM creates it again`
    : `${show}; ask the cloud operator to look at the Octavia worker's log for this monitor, then delete it (openstack loadbalancer healthmonitor delete ${hm.id}) so that OCCM creates it again`;
  return { message, fix };
}
