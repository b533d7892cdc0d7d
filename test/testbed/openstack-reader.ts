/** What the edge scenarios read of Octavia and Neutron (types and the LB tree). */
import { openstack } from './openstack.js';

export interface Lb { id: string; name: string; provider: string; provisioning_status: string; operating_status: string; vip_address: string; vip_port_id: string; vip_network_id: string; listeners: { id: string }[]; pools: { id: string }[] }
export interface Listener { id: string; name: string; protocol: string; protocol_port: number; allowed_cidrs: string[] | null; default_pool_id: string | null; loadbalancers: { id: string }[] }
export interface Pool { id: string; name: string; protocol: string; lb_algorithm: string; provisioning_status: string; healthmonitor_id: string | null; listeners: { id: string }[]; loadbalancers: { id: string }[] }
export interface Member { id: string; name: string; address: string; protocol_port: number; monitor_port: number | null; subnet_id: string; operating_status: string }
export interface Monitor { id: string; type: string; delay: number; timeout: number; max_retries_down?: number; url_path?: string; expected_codes?: string; pools: { id: string }[]; provisioning_status: string; operating_status: string }
export interface Fip { id: string; floating_ip_address: string; floating_network_id: string; port_id: string | null; fixed_ip_address: string | null; description: string }

/** One LB with everything under it, as read from the APIs. */
export interface LbTree {
  lb: Lb;
  listeners: Listener[];
  pools: (Pool & { members: Member[]; monitor?: Monitor })[];
  fips: Fip[];
}

/**
 * Octavia trees for the edge scenarios: each load balancer with its listeners, pools, members, monitor and
 * floating IPs, read through the scenarios' own OpenStack reader (openstack.ts: plain fetch, its own
 * Keystone token, no code shared with kaas's lib/openstack).
 */
export class LbReader {
  /** The reader of the testbed the scenarios run in (KAAS_TESTBED_ENV); `testbedDir` is kept for the callers' record. */
  static fromTestbed(_testbedDir?: string): LbReader {
    return new LbReader();
  }

  async get<T>(service: 'load-balancer' | 'network', p: string): Promise<T> {
    return (await openstack()).get(service, p) as Promise<T>;
  }

  async loadBalancers(name?: string): Promise<Lb[]> {
    return (await this.get<{ loadbalancers: Lb[] }>('load-balancer', `/lbaas/loadbalancers${name ? `?name=${encodeURIComponent(name)}` : ''}`)).loadbalancers;
  }

  async tree(lb: Lb): Promise<LbTree> {
    const listeners = (await this.get<{ listeners: Listener[] }>('load-balancer', `/lbaas/listeners?loadbalancer_id=${lb.id}`)).listeners;
    const pools = (await this.get<{ pools: Pool[] }>('load-balancer', `/lbaas/pools?loadbalancer_id=${lb.id}`)).pools;
    const full: LbTree['pools'] = [];
    for (const p of pools) {
      const members = (await this.get<{ members: Member[] }>('load-balancer', `/lbaas/pools/${p.id}/members`)).members;
      const monitor = p.healthmonitor_id ? (await this.get<{ healthmonitor: Monitor }>('load-balancer', `/lbaas/healthmonitors/${p.healthmonitor_id}`)).healthmonitor : undefined;
      full.push({ ...p, members, monitor });
    }
    const fips = (await this.get<{ floatingips: Fip[] }>('network', `/floatingips?port_id=${lb.vip_port_id}`)).floatingips;
    return { lb, listeners, pools: full, fips };
  }

  /** Counts of what exists in the project, for the deletion checks. */
  async counts(prefix: string): Promise<{ loadbalancers: number; listeners: number; pools: number; members: number; healthmonitors: number; floatingips: number }> {
    const lbs = (await this.loadBalancers()).filter((l) => l.name.startsWith(prefix));
    const ids = new Set(lbs.map((l) => l.id));
    const listeners = (await this.get<{ listeners: Listener[] }>('load-balancer', '/lbaas/listeners')).listeners.filter((l) => l.loadbalancers.some((x) => ids.has(x.id)) || l.name.startsWith(prefix));
    const pools = (await this.get<{ pools: Pool[] }>('load-balancer', '/lbaas/pools')).pools.filter((p) => p.loadbalancers.some((x) => ids.has(x.id)) || p.name.startsWith(prefix));
    let members = 0;
    for (const p of pools) members += (await this.get<{ members: Member[] }>('load-balancer', `/lbaas/pools/${p.id}/members`)).members.length;
    const monitors = (await this.get<{ healthmonitors: (Monitor & { name: string })[] }>('load-balancer', '/lbaas/healthmonitors')).healthmonitors.filter((m) => m.name.startsWith(prefix) || m.pools.some((x) => pools.some((p) => p.id === x.id)));
    const clusterName = prefix.replace(/^kube_service_/, '').replace(/_$/, '');
    const fips = (await this.get<{ floatingips: Fip[] }>('network', '/floatingips')).floatingips.filter((f) => f.description.includes(`from cluster ${clusterName}`));
    return { loadbalancers: lbs.length, listeners: listeners.length, pools: pools.length, members, healthmonitors: monitors.length, floatingips: fips.length };
  }

  async networks(): Promise<{ id: string; name: string; 'router:external': boolean }[]> {
    return (await this.get<{ networks: { id: string; name: string; 'router:external': boolean }[] }>('network', '/networks')).networks;
  }

  async providers(): Promise<string[]> {
    return (await this.get<{ providers: { name: string }[] }>('load-balancer', '/lbaas/providers')).providers.map((p) => p.name);
  }
}
