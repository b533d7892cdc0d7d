import { ExecError } from '../exec/runner.js';
import { listAllNamespaces } from '../kube/cluster-api.js';
import type { Kubectl } from '../kube/kubectl.js';
import { OCCM_SECRET } from '../ingress/apply-steps.js';
import { parseCloudConf } from '../ingress/live-check.js';
import { CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../ingress/render.js';
import type { Logger } from '../log.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, OWNING_GATEWAY_NAME_LABEL, OWNING_GATEWAY_NAMESPACE_LABEL } from '../plan/gateway.js';
import type { LiveEdge } from '../plan/provider-pin.js';

/**
 * What a running workload cluster says about its Service load balancers, for the provider pin
 * (plan/provider-pin.ts): the provider in OCCM's live cloud.conf and the LoadBalancer Services.
 * The caller finds the kubeconfig as get kubeconfig does (cluster/workload-access.ts: the management
 * cluster's Secret first). A cluster without a cloud-config Secret gives undefined, as does one that
 * cannot be reached (with a warning: the setting then decides alone).
 */

type Svc = { metadata: { name: string; namespace: string; labels?: Record<string, string> }; spec?: { type?: string }; status?: { loadBalancer?: { ingress?: { ip?: string; hostname?: string }[] } } };

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
 */
export async function recreateEdgeServices(kubectl: Kubectl, services: string[], logger: Logger): Promise<string> {
  for (const s of services) {
    const [namespace, name] = s.split('/');
    const live = await kubectl.getJson<Svc>('service', name, { namespace });
    const old = (live?.status?.loadBalancer?.ingress ?? []).map((i) => i.ip ?? i.hostname).filter(Boolean).join(', ') || 'none';
    await kubectl.delete([`service/${name}`], { namespace, wait: false });
    logger.warn(`Service ${s} deleted to be re-created on the new load-balancer provider: its address ${old} goes away and a new one is announced by the edge step below; update DNS records that point at it`);
  }
  return `re-created on the new provider: ${services.join(', ')}`;
}
