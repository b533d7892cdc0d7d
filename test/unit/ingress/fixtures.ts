import { orThrow } from '../../../lib/plan/decision.js';
import { planIngress, type IngressPlan, type IngressSettings } from '../../../lib/plan/ingress.js';
import { planLoadBalancerOffline } from '../../../lib/plan/loadbalancer.js';
import { PROVIDERS } from '../../../lib/plan/providers.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

/** The ingress settings of the example environment (amphora + proxy, k8s 1.33). */
export const BASE: IngressSettings = {
  deploy_nginx_ingress: true,
  nginx_use_proxy: true,
  node_cidr: '10.8.0.0/20',
  deploy_harbor: false,
  harbor_domain_name: '',
  occm_loadbalancer: {},
  kubernetes_version: 'v1.33.x',
};

/** Settings with overrides. */
export const settings = (over: Partial<IngressSettings> = {}): IngressSettings => ({ ...BASE, ...over });

/** The amphora plan (use_ovn_lb_provider false). */
export const AMPHORA: LoadBalancerPlan = orThrow(planLoadBalancerOffline({ use_ovn_lb_provider: false }));

/** An OVN plan as planLoadBalancer returns it. */
export const OVN: LoadBalancerPlan = {
  provider: 'ovn', ovn: true, cloudConf: { ...PROVIDERS.ovn.cloudConf }, proxyProtocolPossible: false, kubeApiAllowedCidrs: true,
  reasons: ['OVN used: use_ovn_lb_provider is true'],
};

/** The ingress plan for settings and an LB plan (a refusal fails the test with its message). */
export const ingressPlan = (s: IngressSettings, lb: LoadBalancerPlan): IngressPlan => orThrow(planIngress(s, lb));
