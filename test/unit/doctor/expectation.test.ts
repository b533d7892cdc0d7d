import { edgeExpectation, EDGES, expectedLbName } from '../../../lib/plan/edge-expectation.js';
import { clusterNames } from '../../../lib/plan/cluster-model.js';
import { orThrow } from '../../../lib/plan/decision.js';
import { planGateway } from '../../../lib/plan/gateway.js';
import { planIngress } from '../../../lib/plan/ingress.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';
import type { ScalarMap } from '../../../lib/settings/types.js';
import { AMPHORA, OVN } from '../plan/edge-table.js';
import { kube } from './inputs.js';

/**
 * What the post-apply verification expects of the edge LB, built from the plan each edge renders
 * from: ingress-nginx's controller Service and the gateway's envoy Service get the same
 * expectation from the same settings, and only the Service, the pods and the fix command differ.
 */
const settings = (useProxy: boolean, occm: ScalarMap = {}) => ({
  deploy_nginx_ingress: true as const, deploy_gateway: true as const, gateway_class: 'kaas', nginx_use_proxy: useProxy, node_cidr: '10.8.0.0/20',
  deploy_harbor: false, harbor_domain_name: '', occm_loadbalancer: occm, kubernetes_version: 'v1.33.4',
});
const names = clusterNames('', 'demo');
const ING = { namespace: 'ingress-nginx', name: 'ingress-nginx-controller' };
const ENVOY = { namespace: 'envoy-gateway-system', name: 'envoy-envoy-gateway-system-kaas-6e5e4f7a' };

describe('edgeExpectation: the LB the plan asks for, one builder for both edges', () => {
  it.each<[string, LoadBalancerPlan, boolean, ScalarMap, { provider: string; proxyProtocol: boolean; monitor: string; externalTrafficPolicy: string }]>([
    ['amphora + PROXY: PROXY pools, monitor by annotation, ETP Local', AMPHORA, true, {}, { provider: 'amphora', proxyProtocol: true, monitor: 'service annotation', externalTrafficPolicy: 'Local' }],
    ['amphora + monitor, no PROXY: TCP pools, monitor by annotation, ETP Local', AMPHORA, false, {}, { provider: 'amphora', proxyProtocol: false, monitor: 'service annotation', externalTrafficPolicy: 'Local' }],
    ['amphora + create-monitor in cloud.conf: TCP pools, monitor from cloud.conf', AMPHORA, false, { 'create-monitor': 'true' }, { provider: 'amphora', proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local' }],
    ['amphora, monitors off: ETP Cluster, no monitor expected', AMPHORA, false, { 'create-monitor': 'false' }, { provider: 'amphora', proxyProtocol: false, monitor: 'none', externalTrafficPolicy: 'Cluster' }],
    ['amphora + PROXY, monitors off: ETP Cluster, PROXY pools still', AMPHORA, true, { 'create-monitor': 'false' }, { provider: 'amphora', proxyProtocol: true, monitor: 'none', externalTrafficPolicy: 'Cluster' }],
    ['OVN (nginx_use_proxy ignored): TCP pools, monitors from cloud.conf, ETP Local', OVN, true, {}, { provider: 'ovn', proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local' }],
  ])('%s', (_, lb, useProxy, occm, want) => {
    const ingress = orThrow(planIngress(settings(useProxy, occm), lb));
    const gateway = orThrow(planGateway(settings(useProxy, occm), lb));
    const xi = edgeExpectation('ingress-nginx', names, ING, { ...ingress, externalTrafficPolicy: ingress.externalTrafficPolicy! });
    const xg = edgeExpectation('envoy-gateway', names, ENVOY, gateway.edge!);
    expect(xi).toEqual({ edge: 'ingress-nginx', cluster: 'demo', occmCluster: 'demo', namespace: ING.namespace, service: ING.name, ...want });
    expect(xg).toEqual({ edge: 'envoy-gateway', cluster: 'demo', occmCluster: 'demo', namespace: ENVOY.namespace, service: ENVOY.name, ...want });
  });

  it.each([
    ['no namespace setting', '', 'kube_service_demo_envoy-gateway-system_envoy-envoy-gateway-system-kaas-6e5e4f7a'],
    ['namespace = the cluster name', 'demo', 'kube_service_demo_envoy-gateway-system_envoy-envoy-gateway-system-kaas-6e5e4f7a'],
    ['namespace default (kaas before namespaces)', 'default', 'kube_service_demo_envoy-gateway-system_envoy-envoy-gateway-system-kaas-6e5e4f7a'],
    ['namespace staging', 'staging', 'kube_service_staging-demo_envoy-gateway-system_envoy-envoy-gateway-system-kaas-6e5e4f7a'],
  ])('the LB name with %s is OCCM\'s', (_, ns, want) => {
    const gateway = orThrow(planGateway(settings(true), AMPHORA));
    expect(expectedLbName(edgeExpectation('envoy-gateway', clusterNames(ns, 'demo'), ENVOY, gateway.edge!))).toBe(want);
  });

  it('each edge counts its own pods as the members that must be ONLINE', () => {
    const k = kube({ ingressPods: [{ name: 'i', nodeName: 'w1', ready: true }], gatewayPods: [{ name: 'e', nodeName: 'w2', ready: true }] });
    expect(EDGES['ingress-nginx'].podsOf(k).map((p) => p.name)).toEqual(['i']);
    expect(EDGES['envoy-gateway'].podsOf(k).map((p) => p.name)).toEqual(['e']);
    expect([EDGES['ingress-nginx'].command, EDGES['envoy-gateway'].command]).toEqual(['apply-ingress', 'apply-gateway']);
  });
});
