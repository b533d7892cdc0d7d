import { ExecError } from '../../exec/runner.js';
import { listAllNamespaces } from '../../kube/cluster-api.js';
import type { Kubectl } from '../../kube/kubectl.js';
import { OCCM_SECRET } from '../../kube/occm.js';
import { parseCloudConf } from '../../checks/live-check.js';
import { CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../../plan/edge-names.js';
import type { Logger } from '../../log.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, OWNING_GATEWAY_NAME_LABEL, OWNING_GATEWAY_NAMESPACE_LABEL } from '../../plan/gateway.js';
import type { LiveEdge } from '../../plan/provider-pin.js';
import { realClock, waitFor, type Clock } from '../wait.js';

/**
 * What a running workload cluster says about its Service load balancers, for the provider pin
 * (plan/provider-pin.ts): the provider in OCCM's live cloud.conf and the LoadBalancer Services.
 * The caller finds the kubeconfig as get kubeconfig does (cluster/workload-access.ts: the management
 * cluster's Secret first). A cluster without a cloud-config Secret gives undefined, as does one that
 * cannot be reached (with a warning: the setting then decides alone).
 */

type Svc = { metadata: { name: string; namespace: string; uid?: string; deletionTimestamp?: string; labels?: Record<string, string> }; spec?: { type?: string }; status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } } };

/** Reads the live edge through the workload cluster's kubectl (undefined when there is nothing to read). */
export async function readLiveEdge(kubectl: Kubectl, logger: Logger): Promise<LiveEdge | undefined> {
  try {
    const secret = await kubectl.readSecret(OCCM_SECRET.namespace, OCCM_SECRET.name);
    const conf = secret?.[OCCM_SECRET.key];
    if (conf === undefined) return undefined;
    const lb = Object.entries(parseCloudConf(conf)).find(([name]) => name.toLowerCase() === 'loadbalancer')?.[1] ?? {};
    const provider = (lb['lb-provider'] ?? 'amphora').toLowerCase() === 'ovn' ? 'ovn' : 'amphora';
    const services = (await listAllNamespaces<Svc>(kubectl, 'services')).filter((x) => x.spec?.type === 'LoadBalancer');
    const id = (x: Svc) => `${x.metadata.namespace}/${x.metadata.name}`;
    const edge = (x: Svc) => (x.metadata.namespace === INGRESS_NAMESPACE && x.metadata.name === CONTROLLER_SERVICE)
      || (x.metadata.labels?.[OWNING_GATEWAY_NAME_LABEL] === DEFAULT_GATEWAY && x.metadata.labels?.[OWNING_GATEWAY_NAMESPACE_LABEL] === GATEWAY_NAMESPACE);
    return { provider, lbServices: services.map(id).sort(), edgeServices: services.filter(edge).map(id).sort() };
  } catch (e) {
    if (!(e instanceof ExecError)) throw e;
    logger.warn(`the workload cluster cannot be read (${e.message.split('\n').filter(Boolean).pop()}): its live load-balancer provider is not checked against use_ovn_lb_provider`);
    return undefined;
  }
}

/**
 * Deletes the edge Services (`namespace/name`) so that the edge step makes them again, on the new
 * provider: OCCM deletes their old load balancers and creates new ones, with new addresses.
 *
 * Each is waited for until it is gone (or replaced: Envoy Gateway makes its own again, under a new
 * uid). OCCM's finalizer holds a deleted Service while it deletes the load balancer; an apply in that
 * time patches the terminating object, which then disappears for good and leaves ingress-nginx without
 * a Service (review 2026-11-27 N4). kubectl's own --wait is not used: it is killed after 300 s, where
 * an amphora may take longer; this wait names the Service and what to look at.
 */
export async function recreateEdgeServices(kubectl: Kubectl, services: string[], logger: Logger, clock: Clock = realClock, timeoutSec = 900): Promise<string> {
  for (const s of services) {
    const [namespace, name] = s.split('/');
    const live = await kubectl.getJson<Svc>('service', name, { namespace });
    const old = (live?.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname).filter(Boolean).join(', ') || 'none';
    await kubectl.delete([`service/${name}`], { namespace, wait: false });
    logger.warn(`Service ${s} deleted to be re-created on the new load-balancer provider: its address ${old} goes away and a new one is announced by the edge step below; update DNS records that point at it`);
    if (!live) continue;
    await waitFor({
      title: `Service ${s} gone (OCCM deletes its load balancer)`, timeoutSec, intervalMs: 5000, logger, clock,
      hint: `kubectl get service ${name} -n ${namespace} -o yaml (finalizers), the OCCM logs in kube-system, openstack loadbalancer list`,
      probe: async () => {
        const now = await kubectl.getJson<Svc>('service', name, { namespace });
        return serviceGone(live, now);
      },
    });
  }
  return `re-created on the new provider: ${services.join(', ')}`;
}

/** Whether the deleted Service `before` is gone: absent, or a new object under a new uid. Pure. */
export function serviceGone(before: Svc, now: Svc | undefined): { done: boolean; progress: string } {
  if (!now) return { done: true, progress: 'gone' };
  if (before.metadata.uid && now.metadata.uid && now.metadata.uid !== before.metadata.uid) return { done: true, progress: 'made again (new uid)' };
  return { done: false, progress: now.metadata.deletionTimestamp ? 'terminating (finalizer held)' : 'still there' };
}
