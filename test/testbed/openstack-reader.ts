/**
 * An independent reader of the peer's Octavia and Neutron for the testbed scenarios: plain fetch, a
 * Keystone token from the peer's application credential (peer.env), the endpoints from the token's
 * catalog. Shares no code with kaas's lib/openstack, so a kaas bug in reading Octavia cannot hide in it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from './env.js';

export interface Lb { id: string; name: string; provider: string; provisioning_status: string; operating_status: string; vip_address: string; vip_port_id: string; vip_network_id: string; listeners: { id: string }[]; pools: { id: string }[] }
export interface Listener { id: string; name: string; protocol: string; protocol_port: number; allowed_cidrs: string[] | null; default_pool_id: string | null; loadbalancers: { id: string }[] }
export interface Pool { id: string; name: string; protocol: string; lb_algorithm: string; healthmonitor_id: string | null; listeners: { id: string }[]; loadbalancers: { id: string }[] }
export interface Member { id: string; name: string; address: string; protocol_port: number; monitor_port: number | null; subnet_id: string; operating_status: string }
export interface Monitor { id: string; type: string; delay: number; timeout: number; url_path?: string; expected_codes?: string; pools: { id: string }[] }
export interface Fip { id: string; floating_ip_address: string; floating_network_id: string; port_id: string | null; fixed_ip_address: string | null; description: string }

/** One LB with everything under it, as read from the APIs. */
export interface LbTree {
  lb: Lb;
  listeners: Listener[];
  pools: (Pool & { members: Member[]; monitor?: Monitor })[];
  fips: Fip[];
}

export class OpenStackReader {
  private token = '';
  private urls: Record<string, string> = {};
  constructor(private readonly env: Record<string, string>) {}

  static fromTestbed(testbedDir: string): OpenStackReader {
    return new OpenStackReader(parseEnvFile(fs.readFileSync(path.join(testbedDir, 'peer', 'peer.env'), 'utf8')));
  }

  private async auth(): Promise<void> {
    if (this.token) return;
    const r = await fetch(`${this.env.OS_PEER_AUTH_URL}/auth/tokens`, {
      method: 'POST', headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ auth: { identity: { methods: ['application_credential'], application_credential: { id: this.env.OS_PEER_APPCRED_ID, secret: this.env.OS_PEER_APPCRED_SECRET } } } }),
    });
    if (r.status !== 201) throw new Error(`keystone: HTTP ${r.status} ${await r.text()}`);
    this.token = r.headers.get('x-subject-token') ?? '';
    const body = (await r.json()) as { token: { catalog: { type: string; endpoints: { interface: string; url: string }[] }[] } };
    for (const s of body.token.catalog) {
      const e = s.endpoints.find((x) => x.interface === 'public');
      if (e) this.urls[s.type] = e.url.replace(/\/$/, '');
    }
  }

  async get<T>(service: 'load-balancer' | 'network', p: string): Promise<T> {
    await this.auth();
    const base = this.urls[service];
    if (!base) throw new Error(`no ${service} endpoint in the catalog`);
    const url = service === 'network' && !/\/v2\.0$/.test(base) ? `${base}/v2.0${p}` : `${base}${p}`;
    const r = await fetch(url, { headers: { 'x-auth-token': this.token, accept: 'application/json' } });
    if (!r.ok) throw new Error(`GET ${url}: HTTP ${r.status} ${await r.text()}`);
    return (await r.json()) as T;
  }

  async loadBalancers(name?: string): Promise<Lb[]> {
    return (await this.get<{ loadbalancers: Lb[] }>('load-balancer', `/v2/lbaas/loadbalancers${name ? `?name=${encodeURIComponent(name)}` : ''}`)).loadbalancers;
  }

  async tree(lb: Lb): Promise<LbTree> {
    const listeners = (await this.get<{ listeners: Listener[] }>('load-balancer', `/v2/lbaas/listeners?loadbalancer_id=${lb.id}`)).listeners;
    const pools = (await this.get<{ pools: Pool[] }>('load-balancer', `/v2/lbaas/pools?loadbalancer_id=${lb.id}`)).pools;
    const full: LbTree['pools'] = [];
    for (const p of pools) {
      const members = (await this.get<{ members: Member[] }>('load-balancer', `/v2/lbaas/pools/${p.id}/members`)).members;
      const monitor = p.healthmonitor_id ? (await this.get<{ healthmonitor: Monitor }>('load-balancer', `/v2/lbaas/healthmonitors/${p.healthmonitor_id}`)).healthmonitor : undefined;
      full.push({ ...p, members, monitor });
    }
    const fips = (await this.get<{ floatingips: Fip[] }>('network', `/floatingips?port_id=${lb.vip_port_id}`)).floatingips;
    return { lb, listeners, pools: full, fips };
  }

  /** Counts of what exists in the project, for the deletion checks. */
  async counts(prefix: string): Promise<{ loadbalancers: number; listeners: number; pools: number; members: number; healthmonitors: number; floatingips: number }> {
    const lbs = (await this.loadBalancers()).filter((l) => l.name.startsWith(prefix));
    const ids = new Set(lbs.map((l) => l.id));
    const listeners = (await this.get<{ listeners: Listener[] }>('load-balancer', '/v2/lbaas/listeners')).listeners.filter((l) => l.loadbalancers.some((x) => ids.has(x.id)) || l.name.startsWith(prefix));
    const pools = (await this.get<{ pools: Pool[] }>('load-balancer', '/v2/lbaas/pools')).pools.filter((p) => p.loadbalancers.some((x) => ids.has(x.id)) || p.name.startsWith(prefix));
    let members = 0;
    for (const p of pools) members += (await this.get<{ members: Member[] }>('load-balancer', `/v2/lbaas/pools/${p.id}/members`)).members.length;
    const monitors = (await this.get<{ healthmonitors: (Monitor & { name: string })[] }>('load-balancer', '/v2/lbaas/healthmonitors')).healthmonitors.filter((m) => m.name.startsWith(prefix) || m.pools.some((x) => pools.some((p) => p.id === x.id)));
    const clusterName = prefix.replace(/^kube_service_/, '').replace(/_$/, '');
    const fips = (await this.get<{ floatingips: Fip[] }>('network', '/floatingips')).floatingips.filter((f) => f.description.includes(`from cluster ${clusterName}`));
    return { loadbalancers: lbs.length, listeners: listeners.length, pools: pools.length, members, healthmonitors: monitors.length, floatingips: fips.length };
  }

  async networks(): Promise<{ id: string; name: string; 'router:external': boolean }[]> {
    return (await this.get<{ networks: { id: string; name: string; 'router:external': boolean }[] }>('network', '/networks')).networks;
  }

  async providers(): Promise<string[]> {
    return (await this.get<{ providers: { name: string }[] }>('load-balancer', '/v2/lbaas/providers')).providers.map((p) => p.name);
  }
}
