import type { KubeObject } from '../render/documents.js';

/**
 * The workload of the SCS KaaS load-balancer conformance test ("Behavior of KaaS load balancers",
 * SovereignCloudStack/standards): an echo server and two vanilla LoadBalancer Services, one with
 * externalTrafficPolicy: Cluster and one with Local — no OCCM annotations, because the standard asks
 * that plain Services work out of the box. The echo pods run on a subset of the nodes only, so
 * that there are nodes without a pod, which an ETP Local LB must not send to. Pure.
 */

/** agnhost's netexec answers `/` and `/clientip` (the peer address it sees: "ip:port"). */
export const ECHO_IMAGE = 'registry.k8s.io/e2e-test-images/agnhost:2.53';
export const ECHO_PORT = 8080;
export const SERVICES = { cluster: 'echo-cluster', local: 'echo-local' } as const;

/** A node as check-lb picks from. */
export interface NodeFact {
  name: string;
  internalIp?: string;
  /** Control-plane or excluded from LBs (kubeadm's node.kubernetes.io/exclude-from-external-load-balancers). */
  excluded: boolean;
}

/** Half of the LB-eligible nodes (at least one, and never all when there are two or more), by name. */
export function pickNodes(nodes: NodeFact[]): string[] {
  const eligible = nodes.filter((n) => !n.excluded).map((n) => n.name).sort();
  if (eligible.length <= 1) return eligible;
  return eligible.slice(0, Math.max(1, Math.floor(eligible.length / 2)));
}

/** The namespace, Deployment and the two Services; `port` is the Services' port. */
export function checkLbManifests(namespace: string, nodes: string[], port: number): KubeObject[] {
  const labels = { 'app.kubernetes.io/name': 'kaas-check-lb' };
  const service = (name: string, etp: 'Cluster' | 'Local'): KubeObject => ({
    apiVersion: 'v1', kind: 'Service', metadata: { name, namespace, labels },
    spec: { type: 'LoadBalancer', externalTrafficPolicy: etp, selector: labels, ports: [{ name: 'http', port, targetPort: ECHO_PORT, protocol: 'TCP' }] },
  });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels } },
    {
      apiVersion: 'apps/v1', kind: 'Deployment', metadata: { name: 'echo', namespace, labels },
      spec: {
        replicas: nodes.length, selector: { matchLabels: labels },
        template: {
          metadata: { labels },
          spec: {
            affinity: {
              nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchExpressions: [{ key: 'kubernetes.io/hostname', operator: 'In', values: nodes }] }] } },
              podAntiAffinity: { requiredDuringSchedulingIgnoredDuringExecution: [{ topologyKey: 'kubernetes.io/hostname', labelSelector: { matchLabels: labels } }] },
            },
            containers: [{
              name: 'echo', image: ECHO_IMAGE, args: ['netexec', `--http-port=${ECHO_PORT}`], ports: [{ containerPort: ECHO_PORT }],
              readinessProbe: { httpGet: { path: '/', port: ECHO_PORT } },
              securityContext: { allowPrivilegeEscalation: false, runAsNonRoot: true, runAsUser: 65534, capabilities: { drop: ['ALL'] } },
            }],
          },
        },
      },
    },
    service(SERVICES.cluster, 'Cluster'),
    service(SERVICES.local, 'Local'),
  ];
}
