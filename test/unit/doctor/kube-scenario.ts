import { RECORDED, type FakeCall } from '../../fakes/fake-tools.js';

/** Envoy Gateway's owner labels of kaas's Gateway, as the selector kubectl gets. */
export const GATEWAY_OWNER = 'gateway.envoyproxy.io/owning-gateway-name=kaas,gateway.envoyproxy.io/owning-gateway-namespace=envoy-gateway-system';

/**
 * The kubectl calls fetchClusterSnapshot makes, in order, answered from recorded shapes (override any
 * by name); `clientTrafficPolicies` only where `services` holds an envoy Service.
 */
export function snapshotCalls(kc: string, over: Partial<Record<'version' | 'services' | 'nodes' | 'ingressPods' | 'gatewayPods' | 'clientTrafficPolicies' | 'configmap' | 'deployment' | 'secret' | 'occmPods' | 'occmDaemonSet', FakeCall['response']>> = {}): FakeCall[] {
  const k = (argv: string[], response: FakeCall['response']): FakeCall => ({ tool: 'kubectl', argv: ['--kubeconfig', kc, ...argv], response });
  const f = (file: string) => ({ stdoutFile: `${RECORDED}/${file}` });
  const ing = ['--namespace', 'ingress-nginx'];
  return [
    k(['version', '-o', 'json'], over.version ?? f('version-server.json')),
    k(['get', 'services', '--all-namespaces', '-o', 'json'], over.services ?? f('get-services-all-lb.json')),
    k(['get', 'nodes', '-o', 'json'], over.nodes ?? f('get-nodes.json')),
    k(['get', 'pods', ...ing, '--selector', 'app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller', '-o', 'json'], over.ingressPods ?? f('get-pods-ingress.json')),
    // The envoy pods of kaas's Gateway, by Envoy Gateway's owner labels (an empty List where there are none).
    k(['get', 'pods', '--namespace', 'envoy-gateway-system', '--selector', GATEWAY_OWNER, '-o', 'json'], over.gatewayPods ?? f('empty-pod-list.json')),
    k(['get', 'configmap', 'ingress-nginx-controller', ...ing, '-o', 'json'], over.configmap ?? f('get-configmap-ingress-proxy.json')),
    k(['get', 'deployment', 'ingress-nginx-controller', ...ing, '-o', 'json'], over.deployment ?? f('get-deployment-ingress.json')),
    k(['get', 'secret', 'cloud-config', '--namespace', 'kube-system', '-o', 'json', '--show-managed-fields'], over.secret ?? f('get-secret-cloud-config.json')),
    k(['get', 'pods', '--namespace', 'kube-system', '--selector', 'k8s-app=openstack-cloud-controller-manager', '-o', 'json'], over.occmPods ?? f('get-pods-occm.json')),
    // OCCM's --cluster-name (kaas's add-on: $(CLUSTER_NAME) = demo).
    k(['get', 'daemonset', 'openstack-cloud-controller-manager', '--namespace', 'kube-system', '-o', 'json'], over.occmDaemonSet ?? f('get-daemonset-occm.json')),
    // Asked only when an envoy Service exists: without Envoy Gateway kubectl refuses the unknown resource type.
    ...(over.clientTrafficPolicies ? [k(['get', 'clienttrafficpolicies.gateway.envoyproxy.io', '--all-namespaces', '-o', 'json'], over.clientTrafficPolicies)] : []),
  ];
}
