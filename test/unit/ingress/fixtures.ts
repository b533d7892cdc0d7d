import type { IngressSettings } from '../../../lib/plan/ingress.js';
import { OVN_CLOUD_CONF } from '../../../lib/plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';
import { offlineLoadBalancerPlan } from '../../../lib/plan/loadbalancer.js';

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
export const AMPHORA: LoadBalancerPlan = offlineLoadBalancerPlan({ use_ovn_lb_provider: false });

/** An OVN plan as resolveLoadBalancerPlan returns it. */
export const OVN: LoadBalancerPlan = {
  provider: 'ovn', ovn: true, cloudConf: { ...OVN_CLOUD_CONF }, proxyProtocolPossible: false, kubeApiAllowedCidrs: false,
  reasons: ['OVN used: use_ovn_lb_provider is true'],
};
