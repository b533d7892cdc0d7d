import { CONTROLLER_CONFIGMAP, CONTROLLER_DEPLOYMENT, INGRESS_NAMESPACE } from '../plan/edge-names.js';
import { OCCM_DAEMONSET, OCCM_SECRET } from '../kube/occm.js';
import { listAllNamespaces } from '../kube/cluster-api.js';
import { ExecError } from '../exec/runner.js';
import type { Kubectl } from '../kube/kubectl.js';
import { registerSecret } from '../redact.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, OWNING_GATEWAY_NAME_LABEL, OWNING_GATEWAY_NAMESPACE_LABEL, owningGatewaySelector } from '../plan/gateway.js';
import { occmClusterNameOf, type OccmContainer } from './names.js';
import type { ClientTrafficPolicy, ClusterSnapshot, KubeNode, KubePod, KubeService } from '../openstack/snapshot.js';

/**
 * Fetches the cluster snapshot through the kubectl adapter, one call at a time: server version,
 * every Service, nodes, the ingress-nginx controller's pods, the envoy pods of kaas's Gateway,
 * Envoy Gateway's ClientTrafficPolicies (where envoy Services exist), ingress-nginx's ConfigMap and Deployment, OCCM's
 * cloud-config Secret, pods and DaemonSet (its --cluster-name). The first call fails fast when the cluster is unreachable; the
 * caller then lists the cluster checks as skipped with that reason.
 */

/** Label of the ingress-nginx controller pods (upstream manifests). */
export const INGRESS_POD_SELECTOR = 'app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller';
/** Envoy Gateway's ClientTrafficPolicy resource (group-qualified: another controller may have a kind of that name). */
export const CLIENT_TRAFFIC_POLICIES = 'clienttrafficpolicies.gateway.envoyproxy.io';

/** An envoy Service Envoy Gateway created for a Gateway (its owner labels). */
export const isEnvoyService = (s: KubeService) =>
  Boolean(s.metadata.labels?.[OWNING_GATEWAY_NAME_LABEL] && s.metadata.labels?.[OWNING_GATEWAY_NAMESPACE_LABEL]);

/** Label of the OCCM pods (kaas's bundled add-on, as upstream's manifests). */
export const OCCM_POD_SELECTOR = 'k8s-app=openstack-cloud-controller-manager';

interface Item<S = unknown, St = unknown> {
  metadata: { name: string; namespace?: string; managedFields?: { time?: string }[] };
  spec?: S;
  status?: St;
  data?: Record<string, string>;
}

/** Node name + InternalIP. */
export function nodesOf(list: { items?: Item<unknown, { addresses?: { type: string; address: string }[] }>[] } | undefined): KubeNode[] {
  return (list?.items ?? []).map((n) => ({ name: n.metadata.name, internalIp: n.status?.addresses?.find((a) => a.type === 'InternalIP')?.address }));
}

/** Pod name, node and readiness. */
export function podsOf(list: { items?: Item<{ nodeName?: string }, { conditions?: { type: string; status: string }[]; startTime?: string }>[] } | undefined): KubePod[] {
  return (list?.items ?? []).map((p) => ({
    name: p.metadata.name, nodeName: p.spec?.nodeName, ready: (p.status?.conditions ?? []).some((c) => c.type === 'Ready' && c.status === 'True'),
  }));
}

/** Reads the cluster. Throws (ExecError) when kubectl cannot reach it. */
export async function fetchClusterSnapshot(k: Kubectl): Promise<ClusterSnapshot> {
  const version = await k.run(['version', '-o', 'json'], { reject: false, timeoutMs: 30_000 });
  if (version.exitCode !== 0) {
    throw new ExecError('kubectl', ['version', '-o', 'json'], version.exitCode, version.stderr);
  }
  const serverVersion = (JSON.parse(version.stdout) as { serverVersion?: { gitVersion?: string } }).serverVersion?.gitVersion;
  const services = await listAllNamespaces<KubeService>(k, 'services');
  const nodes = nodesOf(await k.getJson('nodes'));
  const ingress = { namespace: INGRESS_NAMESPACE };
  const ingressPods = podsOf(await k.getJson('pods', undefined, { ...ingress, selector: INGRESS_POD_SELECTOR }));
  const gatewayPods = podsOf(await k.getJson('pods', undefined, { namespace: GATEWAY_NAMESPACE, selector: owningGatewaySelector(GATEWAY_NAMESPACE, DEFAULT_GATEWAY) }));
  const cm = await k.getJson<Item>('configmap', CONTROLLER_CONFIGMAP, ingress);
  const deploy = await k.getJson<Item<{ template?: { spec?: { containers?: { name: string; image: string }[] } } }>>('deployment', CONTROLLER_DEPLOYMENT, ingress);
  // When the Secret last changed (occm-not-restarted) is in its managedFields, which kubectl leaves out of
  // -o json unless asked (seen against a real apiserver on the testbed).
  const secret = await k.getJson<Item>('secret', OCCM_SECRET.name, { namespace: OCCM_SECRET.namespace }, { managedFields: true });
  const occm = await k.getJson<{ items?: Item<unknown, { startTime?: string }>[] }>('pods', undefined, { namespace: 'kube-system', selector: OCCM_POD_SELECTOR });
  // OCCM's --cluster-name names the cluster's load balancers: the live value beats the settings' rule.
  const occmDaemonSet = await k.getJson<Item<{ template?: { spec?: { containers?: OccmContainer[] } } }>>('daemonset', OCCM_DAEMONSET, { namespace: 'kube-system' });

  // The ClientTrafficPolicy type exists only where Envoy Gateway is installed; its envoy Services say so.
  const clientTrafficPolicies = services.some(isEnvoyService) ? await listAllNamespaces<ClientTrafficPolicy>(k, CLIENT_TRAFFIC_POLICIES) : undefined;
  let cloudConf: ClusterSnapshot['cloudConf'];
  const raw = secret?.data?.[OCCM_SECRET.key];
  if (raw !== undefined) {
    for (const v of Object.values(secret!.data ?? {})) registerSecret(Buffer.from(v, 'base64').toString('utf8'));
    const times = (secret!.metadata.managedFields ?? []).map((f) => f.time).filter((t): t is string => Boolean(t)).sort();
    cloudConf = { text: Buffer.from(raw, 'base64').toString('utf8'), changedAt: times.at(-1) };
  }
  return {
    serverVersion, services, nodes, ingressPods, gatewayPods, clientTrafficPolicies, cloudConf,
    ingressConfig: cm?.data,
    ingressImage: deploy?.spec?.template?.spec?.containers?.find((c) => c.name === 'controller')?.image ?? deploy?.spec?.template?.spec?.containers?.[0]?.image,
    occmStartedAt: (occm?.items ?? []).map((p) => p.status?.startTime).filter((t): t is string => Boolean(t)),
    occmClusterName: occmClusterNameOf(occmDaemonSet?.spec?.template?.spec?.containers),
  };
}
