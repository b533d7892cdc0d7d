import type { CheckInput } from '../../../lib/doctor/check.js';
import type { KubeService } from '../../../lib/doctor/snapshot.js';
import type { LoadBalancer } from '../../../lib/openstack/octavia.js';
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

/** A check input for cluster "demo" on amphora with PROXY protocol (kaas's default plan), no data. */
export function input(over: Partial<CheckInput> & { proxy?: boolean } = {}): CheckInput {
  const lbPlan = over.lb ?? AMPHORA;
  return {
    cluster: 'demo', now: NOW, stuckAfterSec: 600, lb: lbPlan, ingress: orThrow(planIngress(ingressSettings(over.proxy ?? true), lbPlan)),
    needs: {}, ...over,
  };
}

export function cloud(over: Partial<NonNullable<CheckInput['cloud']>> = {}): NonNullable<CheckInput['cloud']> {
  return { projectId: 'p1', loadBalancers: [], listeners: [], pools: [], healthMonitors: [], floatingIps: [], ...over };
}

export function kube(over: Partial<NonNullable<CheckInput['kube']>> = {}): NonNullable<CheckInput['kube']> {
  return { services: [], nodes: [], ingressPods: [], occmStartedAt: [], ...over };
}
