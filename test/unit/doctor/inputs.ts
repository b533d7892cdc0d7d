import { clusterNames } from '../../../lib/plan/cluster-model.js';
import type { CheckInput } from '../../../lib/checks/check.js';
import type { KubeService } from '../../../lib/openstack/snapshot.js';
import type { HealthMonitor, LoadBalancer } from '../../../lib/openstack/octavia.js';
import { planIngress } from '../../../lib/plan/ingress.js';
import { orThrow } from '../../../lib/plan/decision.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

/** Builders of check inputs for the table tests (plain data, as the fetchers return it). */

export const NOW = Date.parse('2026-05-01T12:00:00Z');

export const AMPHORA: LoadBalancerPlan = { provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: true, reasons: [] };
export const OVN: LoadBalancerPlan = { provider: 'ovn', ovn: true, cloudConf: { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' }, proxyProtocolPossible: false, kubeApiAllowedCidrs: false, reasons: [] };

const ingressSettings = (proxy: boolean) => ({
  deploy_nginx_ingress: true as const, nginx_use_proxy: proxy, node_cidr: '10.8.0.0/20', deploy_harbor: false, harbor_domain_name: '', occm_loadbalancer: {}, kubernetes_version: 'v1.33.4',
});

export function lb(name: string, over: Partial<LoadBalancer> = {}): LoadBalancer {
  return { id: `id-${name}`, name, provider: 'amphora', provisioning_status: 'ACTIVE', operating_status: 'ONLINE', vip_port_id: `port-${name}`, created_at: '2026-05-01T11:00:00', updated_at: '2026-05-01T11:01:00', ...over };
}

export function svc(ns: string, name: string, over: { annotations?: Record<string, string>; etp?: string; type?: string; ingress?: { ip?: string; hostname?: string; ipMode?: string }[] } = {}): KubeService {
  return {
    metadata: { name, namespace: ns, annotations: over.annotations ?? {} },
    spec: { type: over.type ?? 'LoadBalancer', externalTrafficPolicy: over.etp ?? 'Cluster', ports: [{ port: 80, nodePort: 30080, protocol: 'TCP' }] },
    status: { loadBalancer: { ingress: over.ingress ?? [] } },
  };
}

/** The ingress plan of the table tests' settings (PROXY protocol unless `proxy` is false). */
export const ingressPlan = (lbPlan: LoadBalancerPlan = AMPHORA, proxy = true) => orThrow(planIngress(ingressSettings(proxy), lbPlan));

/** A check input for cluster "demo" (no namespace setting) on amphora with PROXY protocol (kaas's default plan), no data. */
export function input(over: Partial<CheckInput> & { proxy?: boolean } = {}): CheckInput {
  const lbPlan = over.lb ?? AMPHORA;
  return {
    cluster: 'demo', names: clusterNames('', 'demo'), now: NOW, stuckAfterSec: 600, lb: lbPlan, edge: ingressPlan(lbPlan, over.proxy ?? true),
    needs: {}, ...over,
  };
}

export function cloud(over: Partial<NonNullable<CheckInput['cloud']>> = {}): NonNullable<CheckInput['cloud']> {
  return { projectId: 'p1', loadBalancers: [], listeners: [], pools: [], healthMonitors: [], floatingIps: [], ...over };
}

export function kube(over: Partial<NonNullable<CheckInput['kube']>> = {}): NonNullable<CheckInput['kube']> {
  return { services: [], nodes: [], ingressPods: [], gatewayPods: [], occmStartedAt: [], ...over };
}

/**
 * A health monitor as Octavia's GET /v2/lbaas/healthmonitors returns it (api-ref "Show Health Monitor
 * details"; every field, as the peer's Octavia 11 answers — test/integration/doctor/monitor-shape-peer.test.ts
 * holds the two to the same keys): ACTIVE/ONLINE unless `over` says otherwise.
 */
export function hm(id: string, type: string, pools: string[], over: Partial<HealthMonitor> = {}): HealthMonitor {
  const http = type === 'HTTP' || type === 'HTTPS';
  return {
    id, name: '', type, pools: pools.map((p) => ({ id: p })), project_id: 'p1', admin_state_up: true, provisioning_status: 'ACTIVE', operating_status: 'ONLINE',
    delay: 5, timeout: 3, max_retries: 1, max_retries_down: 3, http_method: http ? 'GET' : null, url_path: http ? '/healthz' : null, expected_codes: http ? '200' : null,
    http_version: null, domain_name: null, tags: [], created_at: '2026-05-01T11:00:00', updated_at: '2026-05-01T11:01:00', ...over,
  };
}
