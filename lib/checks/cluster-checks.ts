import { liveCloudConfProblems, parseCloudConf } from './live-check.js';
import { CONTROLLER_DEPLOYMENT, CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../plan/edge-names.js';
import { OCCM_DAEMONSET as OCCM_DAEMONSET_NAME } from '../kube/occm.js';
import { MONITOR_ANNOTATION, PROXY_ANNOTATION } from '../plan/edge.js';
import { findBundled, kubernetesMinor, rangeText, supportsKubernetes } from '../plan/ingress-versions.js';
import { providerFacts } from '../plan/providers.js';
import { gcfgTrue } from '../render/gcfg.js';
import { finding, ownerNames, type Check, type CheckInput } from './check.js';
import { ownedBy, parseOccmLbName } from './names.js';
import { parseOccmSecurityGroup } from '../openstack/neutron.js';
import type { ClientTrafficPolicy, KubeService } from '../openstack/snapshot.js';
import { isEnvoyService } from './fetch-cluster.js';
import { DEFAULT_GATEWAY, GATEWAY_NAMESPACE, OWNING_GATEWAY_NAME_LABEL, OWNING_GATEWAY_NAMESPACE_LABEL } from '../plan/gateway.js';

/**
 * Cluster-side checks (and the one that needs both sides): pure functions of what kubectl showed,
 * the live OCCM cloud.conf, and the plan.
 */

const HOSTNAME_ANNOTATION = 'loadbalancer.openstack.org/hostname';
const OCCM_DAEMONSET = `daemonset/${OCCM_DAEMONSET_NAME}`;
const svcRes = (s: KubeService) => ({ type: 'service', id: `${s.metadata.namespace}/${s.metadata.name}`, name: s.metadata.name });
const lbServices = (i: CheckInput) => i.kube!.services.filter((s) => s.spec.type === 'LoadBalancer');
const annotation = (s: KubeService, k: string) => s.metadata.annotations?.[k];

/** OCCM's live [LoadBalancer] section (keys lower-case); empty when there is no cloud.conf. */
function liveLb(i: CheckInput): Record<string, string> {
  const sections = parseCloudConf(i.kube!.cloudConf?.text ?? '');
  return Object.entries(sections).find(([n]) => n.toLowerCase() === 'loadbalancer')?.[1] ?? {};
}
/** The provider OCCM really uses: the live cloud.conf, else the plan's. */
const liveProvider = (i: CheckInput) => (i.kube!.cloudConf ? liveLb(i)['lb-provider'] ?? 'amphora' : i.lb.provider);
/** OCCM's proxy-protocol annotation values that switch the pool to PROXY/PROXYV2. */
const proxyOn = (v: string | undefined) => v !== undefined && /^(true|v1|v2)$/i.test(v.trim());

export const lbOrphaned: Check = {
  id: 'lb-orphaned', severity: 'warning', needs: ['cloud', 'cluster'],
  what: 'an OCCM load balancer of the cluster whose Service no longer exists (or is no longer type LoadBalancer)',
  fix: 'openstack loadbalancer delete --cascade ID and delete its floating IP',
  run: (i) => {
    if (!i.cluster) return [];
    const live = new Set(lbServices(i).map((s) => `${s.metadata.namespace}/${s.metadata.name}`));
    return i.cloud!.loadBalancers.filter((lb) => ownedBy(lb, ownerNames(i))).flatMap((lb) => {
      const o = parseOccmLbName(lb.name);
      if (!o || live.has(`${o.namespace}/${o.service}`)) return [];
      return [finding(lbOrphaned, { type: 'loadbalancer', id: lb.id, name: lb.name },
        `Load balancer ${lb.name} belongs to Service ${o.namespace}/${o.service}, which no longer exists as a LoadBalancer Service: OCCM will not delete it.`,
        `openstack floating ip list --port ${lb.vip_port_id ?? '<vip port>'} (delete those), then openstack loadbalancer delete --cascade ${lb.id}`)];
    });
  },
};

export const sgOrphaned: Check = {
  id: 'sg-orphaned', severity: 'warning', needs: ['cloud', 'cluster'],
  what: 'an OCCM security group of the cluster (manage-security-groups) whose Service no longer exists: OCCM stops retrying its deletion once the load balancer is gone, and each one counts against the security-group quota',
  fix: 'openstack security group delete ID (kaas delete-cluster also removes them with the cluster)',
  run: (i) => {
    if (!i.cluster || !i.cloud!.securityGroups) return [];
    const occm = ownerNames(i)?.occmCluster;
    const services = lbServices(i);
    const uids = new Set(services.map((s) => s.metadata.uid));
    return i.cloud!.securityGroups.flatMap((sg) => {
      const o = parseOccmSecurityGroup(sg);
      if (!o?.uid || !o.namespace || o.cluster !== occm) return [];
      // A Service read without its UID is matched by name (never a false alarm); with it, a Service re-created
      // under the same name has a new UID and the old group is the orphan.
      if (uids.has(o.uid) || services.some((s) => !s.metadata.uid && s.metadata.namespace === o.namespace && s.metadata.name === o.service)) return [];
      return [finding(sgOrphaned, { type: 'security-group', id: sg.id, name: sg.name },
        `Security group ${sg.name} was OCCM's for Service ${o.namespace}/${o.service} (UID ${o.uid}), which no longer exists as a LoadBalancer Service: OCCM will not delete it any more (after a failed delete it stops once the load balancer is gone: cloud-provider-openstack pkg/openstack/loadbalancer.go@v1.34.1 ensureLoadBalancerDeleted), and it counts against the security-group quota — new LoadBalancer Services fail with OverQuota when that is used up.`,
        `openstack security group delete ${sg.id}`)];
    });
  },
};

/** Does OCCM give this Service a health monitor (its annotation, else the live cloud.conf's create-monitor)? */
export function monitorAsked(i: CheckInput, s: KubeService): boolean {
  const a = annotation(s, MONITOR_ANNOTATION);
  return a !== undefined ? gcfgTrue(a) : gcfgTrue(liveLb(i)['create-monitor']);
}

export const etpLocalNoMonitor: Check = {
  id: 'etp-local-no-monitor', severity: 'error', needs: ['cluster'],
  what: 'a LoadBalancer Service with externalTrafficPolicy: Local gets no health monitor (neither cloud.conf create-monitor nor the annotation), so the LB also sends to nodes without a pod, where traffic is dropped',
  fix: 'amphora: annotate loadbalancer.openstack.org/enable-health-monitor=true; ovn: create-monitor=true in cloud.conf',
  run: (i) => {
    const provider = liveProvider(i);
    return lbServices(i).filter((s) => s.spec.externalTrafficPolicy === 'Local').flatMap((s) => {
      const a = annotation(s, MONITOR_ANNOTATION);
      if (monitorAsked(i, s)) return [];
      const ns = s.metadata.namespace;
      const ovn = providerFacts(provider).name === 'ovn';
      return [finding(etpLocalNoMonitor, svcRes(s),
        `Service ${ns}/${s.metadata.name} has externalTrafficPolicy: Local but its ${provider} load balancer has no health monitor, so requests that land on nodes without a pod of it are dropped.`,
        ovn
          ? 'set occm_loadbalancer create-monitor: "true" (kaas create-cluster renders cloud.conf; OVN then gets TCP monitors)' + (a !== undefined ? ` and remove the annotation: kubectl annotate service -n ${ns} ${s.metadata.name} ${MONITOR_ANNOTATION}-` : '')
          : `kubectl annotate service -n ${ns} ${s.metadata.name} --overwrite ${MONITOR_ANNOTATION}=true (or occm_loadbalancer create-monitor: "true" for every Service)`)];
    });
  },
};

const ingressService = (i: CheckInput) => i.kube!.services.find((s) => s.metadata.namespace === INGRESS_NAMESPACE && s.metadata.name === CONTROLLER_SERVICE);

/** An edge proxy's LoadBalancer Service and whether the proxy behind it expects PROXY headers. */
interface EdgeService {
  svc: KubeService;
  /** Who reads the PROXY header, for the messages. */
  proxy: string;
  expectsProxy: boolean;
  /** What renders both sides again. */
  fix: string;
}

/**
 * Whether Envoy expects PROXY headers on a Gateway: a ClientTrafficPolicy attached to it with
 * `proxyProtocol` (or the deprecated `enableProxyProtocol: true`). `undefined` when one makes the
 * header optional (`proxyProtocol.optional: true`): then both sides work and nothing disagrees.
 */
function envoyExpectsProxy(policies: ClientTrafficPolicy[], ns: string, gateway: string): boolean | undefined {
  const attached = policies.filter((p) => p.metadata.namespace === ns
    && [p.spec?.targetRef, ...(p.spec?.targetRefs ?? [])].some((t) => t?.kind === 'Gateway' && t.name === gateway));
  if (attached.some((p) => p.spec?.proxyProtocol?.optional)) return undefined;
  return attached.some((p) => p.spec?.proxyProtocol !== undefined || p.spec?.enableProxyProtocol === true);
}

/** The edge Services in the cluster: ingress-nginx's controller Service and every envoy Service of Envoy Gateway. */
function edgeServices(i: CheckInput): EdgeService[] {
  const out: EdgeService[] = [];
  const cluster = i.cluster ?? 'CLUSTER';
  const ing = ingressService(i);
  if (ing && ing.spec.type === 'LoadBalancer') {
    out.push({ svc: ing, proxy: 'ingress-nginx', expectsProxy: gcfgTrue(i.kube!.ingressConfig?.['use-proxy-protocol']),
      fix: `kaas apply-ingress ${cluster} (renders the annotation and the ConfigMap from nginx_use_proxy)` });
  }
  for (const svc of lbServices(i).filter(isEnvoyService)) {
    const ns = svc.metadata.labels![OWNING_GATEWAY_NAMESPACE_LABEL];
    const gw = svc.metadata.labels![OWNING_GATEWAY_NAME_LABEL];
    const expectsProxy = envoyExpectsProxy(i.kube!.clientTrafficPolicies ?? [], ns, gw);
    if (expectsProxy === undefined) continue;
    out.push({ svc, proxy: `Envoy (Gateway ${ns}/${gw})`, expectsProxy,
      fix: ns === GATEWAY_NAMESPACE && gw === DEFAULT_GATEWAY
        ? `kaas apply-gateway ${cluster} (renders the EnvoyProxy annotation and the ClientTrafficPolicy from nginx_use_proxy)`
        : `make the proxy-protocol annotation of the Gateway's EnvoyProxy (envoyService.annotations) and a ClientTrafficPolicy with proxyProtocol on Gateway ${ns}/${gw} agree` });
  }
  return out;
}

export const proxyProtocolMismatch: Check = {
  id: 'proxy-protocol-mismatch', severity: 'error', needs: ['cluster'],
  what: 'an edge Service\'s proxy-protocol annotation and its proxy (ingress-nginx\'s use-proxy-protocol, Envoy Gateway\'s ClientTrafficPolicy proxyProtocol) disagree (every request fails), or PROXY is asked of a provider without it',
  fix: 'kaas apply-ingress / apply-gateway CLUSTER (renders both sides from nginx_use_proxy)',
  run: (i) => edgeServices(i).flatMap(({ svc: s, proxy, expectsProxy, fix }) => {
    const lb = proxyOn(annotation(s, PROXY_ANNOTATION));
    const provider = liveProvider(i);
    const id = `${s.metadata.namespace}/${s.metadata.name}`;
    if (lb && !providerFacts(provider).proxyProtocol) {
      return [finding(proxyProtocolMismatch, svcRes(s), `Service ${id} asks for PROXY protocol, which the ${provider} provider does not have.`, fix)];
    }
    if (lb === expectsProxy) return [];
    return [finding(proxyProtocolMismatch, svcRes(s),
      lb ? `The load balancer of Service ${id} sends PROXY headers (Service annotation) but ${proxy} does not expect them: every request fails.`
        : `${proxy} expects PROXY headers but the load balancer of Service ${id} sends none (no proxy-protocol annotation): every request fails.`,
      fix)];
  }),
};

export const proxyHostnameMissing: Check = {
  id: 'proxy-hostname-missing', severity: 'warning', needs: ['cluster'],
  what: 'a Service uses PROXY protocol but publishes its plain IP (no hostname workaround, no ipMode: Proxy): pods inside the cluster bypass the LB and their requests fail',
  fix: 'cloud.conf enable-ingress-hostname=true (kaas does this with nginx_use_proxy), or the hostname annotation',
  run: (i) => {
    const hostnameConf = gcfgTrue(liveLb(i)['enable-ingress-hostname']);
    return lbServices(i).filter((s) => proxyOn(annotation(s, PROXY_ANNOTATION))).flatMap((s) => {
      const ing = s.status?.loadBalancer?.ingress?.[0];
      if (annotation(s, HOSTNAME_ANNOTATION) || hostnameConf || ing?.ipMode === 'Proxy' || (ing?.hostname && !ing.ip)) return [];
      return [finding(proxyHostnameMissing, svcRes(s),
        `Service ${s.metadata.namespace}/${s.metadata.name} uses PROXY protocol but publishes its IP: kube-proxy sends in-cluster clients straight to the pods, without the PROXY header, and those requests fail (hairpin).`,
        `set occm_loadbalancer enable-ingress-hostname: "true" (kaas create-cluster renders cloud.conf), or kubectl annotate service -n ${s.metadata.namespace} ${s.metadata.name} ${HOSTNAME_ANNOTATION}=<dns name of the LB>`)];
    });
  },
};

const secretRes = { type: 'secret', id: 'kube-system/cloud-config', name: 'cloud-config' };

export const occmConfigMissing: Check = {
  id: 'occm-config-missing', severity: 'error', needs: ['cluster'],
  what: 'OCCM\'s cloud config (kube-system/cloud-config, key cloud.conf) is missing: no Service gets a load balancer',
  fix: 'kaas create-cluster CLUSTER (installs OCCM with its cloud.conf)',
  run: (i) => (i.kube!.cloudConf ? [] : [finding(occmConfigMissing, secretRes,
    'The Secret kube-system/cloud-config with key cloud.conf does not exist: OCCM cannot run, and no LoadBalancer Service gets a load balancer.',
    `kaas create-cluster ${i.cluster ?? 'CLUSTER'} (re-runs converge and install OCCM with its cloud.conf)`)]),
};

export const occmConfigContradictsPlan: Check = {
  id: 'occm-config-contradicts-plan', severity: 'error', needs: ['cluster'],
  what: 'OCCM\'s live cloud.conf contradicts the plan (provider, lb-method, create-monitor, enable-ingress-hostname)',
  fix: 'kaas create-cluster CLUSTER re-renders cloud.conf; then restart OCCM',
  run: (i) => (i.kube!.cloudConf ? liveCloudConfProblems(i.kube!.cloudConf.text, i.lb, i.edge) : []).map((p) =>
    finding(occmConfigContradictsPlan, secretRes, `${p[0].toUpperCase()}${p.slice(1)}.`,
      `kaas create-cluster ${i.cluster ?? 'CLUSTER'} (re-renders the cloud-config Secret from the settings), then kubectl -n kube-system rollout restart ${OCCM_DAEMONSET}`)),
};

const SECRET = /secret|password/;
/** Keys whose values differ between two parsed cloud.confs, as "section.key: live → expected" (secrets masked). */
function confDiff(live: string, expected: string): string[] {
  const a = parseCloudConf(live);
  const b = parseCloudConf(expected);
  const lower = (x: typeof a) => Object.fromEntries(Object.entries(x).map(([k, v]) => [k.toLowerCase(), v]));
  const la = lower(a);
  const lb = lower(b);
  const out: string[] = [];
  for (const sec of [...new Set([...Object.keys(la), ...Object.keys(lb)])].sort()) {
    const x = la[sec] ?? {};
    const y = lb[sec] ?? {};
    for (const k of [...new Set([...Object.keys(x), ...Object.keys(y)])].sort()) {
      if (x[k] === y[k]) continue;
      const show = (v: string | undefined) => (v === undefined ? '(unset)' : SECRET.test(k) ? '(a different secret)' : v);
      out.push(`${sec}.${k}: ${show(x[k])} → ${show(y[k])}`);
    }
  }
  return out;
}

export const occmConfigDrift: Check = {
  id: 'occm-config-drift', severity: 'warning', needs: ['cluster'],
  what: 'OCCM\'s live cloud.conf differs from what kaas renders from the settings now',
  fix: 'kaas create-cluster CLUSTER (re-renders cloud.conf), or change the settings to match',
  run: (i) => {
    if (!i.kube!.cloudConf || i.expectedCloudConf === undefined) return [];
    const diff = confDiff(i.kube!.cloudConf.text, i.expectedCloudConf);
    return diff.length ? [finding(occmConfigDrift, secretRes,
      `OCCM's live cloud.conf differs from what kaas renders now: ${diff.join('; ')}.`,
      `kaas create-cluster ${i.cluster ?? 'CLUSTER'} to write the rendered one (then kubectl -n kube-system rollout restart ${OCCM_DAEMONSET}), or change the settings to match the live file`)] : [];
  },
};

const occmRes = { type: 'daemonset', id: `kube-system/${OCCM_DAEMONSET_NAME}`, name: OCCM_DAEMONSET_NAME };

export const occmClusterNameDiffers: Check = {
  id: 'occm-cluster-name', severity: 'warning', needs: ['cluster'],
  what: 'OCCM runs with another --cluster-name than kaas derives from the settings (e.g. a cluster placed in another namespace without the namespace setting), so kaas\'s own commands look for its load balancers under the wrong name',
  fix: 'set `namespace:` in the environment file to the cluster\'s namespace on the management cluster',
  run: (i) => {
    const live = i.kube!.occmClusterName;
    if (!i.cluster || !i.names || live === undefined || live === i.names.occmCluster) return [];
    const lbName = (c: string) => `kube_service_${c}_<namespace>_<service>`;
    const namespace = live.endsWith(`-${i.cluster}`) ? live.slice(0, -(i.cluster.length + 1)) : undefined;
    const fix = namespace ? `set \`namespace: ${namespace}\` in the environment file (kaas then derives ${live}), if the cluster's objects are in namespace ${namespace} on the management cluster`
      : live === i.cluster ? `remove the \`namespace\` setting (or set it to ${i.cluster} or default): OCCM was given the plain cluster name`
        : `OCCM's name is not one kaas derives from a namespace: kaas's commands will not find these load balancers; the doctor follows OCCM`;
    return [finding(occmClusterNameDiffers, occmRes,
      `OCCM runs with --cluster-name ${live}, but kaas's settings give ${i.names.occmCluster}: its load balancers are named ${lbName(live)} (the doctor follows OCCM), while apply-ingress/apply-gateway verification and check-lb look for ${lbName(i.names.occmCluster)}.`,
      fix)];
  },
};

export const occmNotRestarted: Check = {
  id: 'occm-not-restarted', severity: 'warning', needs: ['cluster'],
  what: 'OCCM has not restarted since its cloud-config Secret changed (OCCM reads cloud.conf only at start)',
  fix: `kubectl -n kube-system rollout restart ${OCCM_DAEMONSET}`,
  run: (i) => {
    const changed = Date.parse(i.kube!.cloudConf?.changedAt ?? '');
    if (Number.isNaN(changed)) return [];
    const stale = i.kube!.occmStartedAt.filter((t) => Date.parse(t) < changed);
    return stale.length ? [finding(occmNotRestarted, secretRes,
      `${stale.length} OCCM pod(s) started before the cloud-config Secret last changed (${i.kube!.cloudConf!.changedAt}): they still run with the old cloud.conf.`,
      `kubectl -n kube-system rollout restart ${OCCM_DAEMONSET}`)] : [];
  },
};

const deployRes = { type: 'deployment', id: `${INGRESS_NAMESPACE}/${CONTROLLER_DEPLOYMENT}`, name: CONTROLLER_DEPLOYMENT };
const imageVersion = (image: string) => /:(v?\d+\.\d+\.\d+)(@|$)/.exec(image)?.[1];

export const ingressNginxRetired: Check = {
  id: 'ingress-nginx-retired', severity: 'warning', needs: ['cluster'],
  what: 'ingress-nginx is deployed: it is retired upstream (no security fixes after March 2026)',
  fix: 'move to a Gateway API implementation',
  run: (i) => (i.kube!.ingressImage ? [finding(ingressNginxRetired, deployRes,
    `ingress-nginx (${i.kube!.ingressImage.split('/').pop()}) is retired upstream: it gets no bug or security fixes after March 2026.`,
    'plan the move to a Gateway API implementation (Envoy Gateway); keep ingress-nginx patched until then')] : []),
};

export const ingressNginxK8sUnsupported: Check = {
  id: 'ingress-nginx-k8s-unsupported', severity: 'warning', needs: ['cluster'],
  what: 'the deployed ingress-nginx release is not tested with the cluster\'s Kubernetes version',
  fix: 'kaas apply-ingress CLUSTER (picks the bundled release for the Kubernetes version)',
  run: (i) => {
    const image = i.kube!.ingressImage;
    const v = image && imageVersion(image);
    const minor = i.kube!.serverVersion ? kubernetesMinor(i.kube!.serverVersion.replace(/[-+].*$/, '')) : undefined;
    const b = v ? findBundled(v) : undefined;
    if (!b || !minor || supportsKubernetes(b, minor)) return [];
    return [finding(ingressNginxK8sUnsupported, deployRes,
      `ingress-nginx ${b.version} is tested with Kubernetes ${rangeText(b)}, not with the cluster's ${i.kube!.serverVersion}.`,
      `kaas apply-ingress ${i.cluster ?? 'CLUSTER'} (deploys the bundled release for this Kubernetes version; deploy_nginx_ingress: true)`)];
  },
};

/** Every check that reads the cluster, in report order. */
export const CLUSTER_CHECKS: readonly Check[] = [
  lbOrphaned, sgOrphaned, etpLocalNoMonitor, proxyProtocolMismatch, proxyHostnameMissing, occmConfigMissing, occmConfigContradictsPlan,
  occmConfigDrift, occmNotRestarted, occmClusterNameDiffers, ingressNginxRetired, ingressNginxK8sUnsupported,
];
