import { PlanError } from '../errors.js';
import type { Capabilities, OctaviaCapabilities } from '../openstack/types.js';
import type { Settings } from '../settings/types.js';
import { decided, refused, type Decision } from './decision.js';
import { chooseExternalNetwork } from './external-network.js';
import { checkKubeApiLb, kubeApiLbFacts } from './kubeapi.js';
import { PROVIDERS } from './providers.js';
import type { LoadBalancerPlan } from './types.js';

/**
 * Which Octavia provider the workload cluster's Service load balancers use (`use_ovn_lb_provider`,
 * the port of SCS `handle_ovn_lb.sh`) and what that implies. The kube-API load balancer is not
 * decided here: it is CAPO's, and `restrict_kubeapi` pins it to amphora on its own (kubeapi.ts).
 */

/** The settings this decision reads (`external_network` pins OCCM's floating network; absent: not decided here). */
export type LoadBalancerSettings = Pick<Settings, 'use_ovn_lb_provider'> & Partial<Pick<Settings, 'external_network'>>;

const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
const v = (o: OctaviaCapabilities) => (o.maxVersion ? `v${o.maxVersion}` : 'of unknown version');
const WALLABY = `v${PROVIDERS.ovn.monitorsFrom}`;

function defaultPlan(o: OctaviaCapabilities, reasons: string[]): Decision<LoadBalancerPlan> {
  // No Octavia (or none in the configured region): every LoadBalancer Service would stay <pending>.
  if (!o.present) {
    return refused({
      message: `the cloud has no load-balancer service (Octavia): ${o.reason ?? 'not in the catalog'}`,
      hint: 'check region_name (and interface) of this cloud in clouds.yaml: the catalog must list load-balancer for that region; without Octavia no LoadBalancer Service can work',
    }, reasons);
  }
  if (o.providers.length === 0) {
    return refused({
      message: 'Octavia lists no enabled provider driver, so it cannot create a load balancer',
      hint: 'ask the cloud operator (openstack loadbalancer provider list); a capabilities file must list the providers kaas detect found',
    }, reasons);
  }
  if (o.present && !o.providers.includes('amphora')) {
    // Only ovn offered: OCCM's default provider (amphora) would be refused by Octavia on every Service.
    if (o.providers.length > 0 && o.providers.every((p) => p === 'ovn')) {
      return refused({
        message: `the cloud offers only the ovn provider, but the plan needs amphora (${reasons.join('; ')})`,
        problems: [`providers offered: ${list(o.providers)}`],
        hint: 'set use_ovn_lb_provider to true or auto for this cloud',
      }, reasons);
    }
    reasons.push(`the cloud does not offer the amphora provider; it offers: ${list(o.providers)}`);
  }
  return done({ provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: kubeApiCidrsPossible(o), reasons });
}

function ovnPlan(o: OctaviaCapabilities, reasons: string[]): LoadBalancerPlan {
  reasons.push(
    'OVN load balancers get lb-method=SOURCE_IP_PORT (the only algorithm OVN supports) and create-monitor=true (TCP health monitors, needed for externalTrafficPolicy: Local)',
    'PROXY protocol not used: OVN load balancers keep the client IP themselves',
  );
  return { provider: 'ovn', ovn: true, cloudConf: { ...PROVIDERS.ovn.cloudConf }, proxyProtocolPossible: false, kubeApiAllowedCidrs: kubeApiCidrsPossible(o), reasons };
}

/** Whether the kube-API LB (pinned to amphora) can enforce allowed CIDRs on this cloud. */
function kubeApiCidrsPossible(o: OctaviaCapabilities): boolean {
  return checkKubeApiLb(['0.0.0.0/0'], kubeApiLbFacts(o)).ok;
}

/** Why OVN cannot be used on this cloud, or undefined when it can. */
function ovnBlocker(o: OctaviaCapabilities): string | undefined {
  if (!o.present) return `OVN not possible: the cloud has no Octavia (${o.reason ?? 'no load-balancer service'})`;
  if (!o.providers.includes('ovn')) return `OVN not offered: providers are ${list(o.providers)}`;
  if (!o.wallabyOrLater) return `Octavia ${v(o)} is older than Wallaby (${WALLABY}): OVN health monitors unsupported`;
  return undefined;
}

/**
 * Decides the Service load-balancer provider from the setting and the detected capabilities.
 * Refused only for use_ovn_lb_provider=true on a cloud without the ovn provider or older than
 * Wallaby; `auto` falls back to amphora and says why.
 */
export function planLoadBalancer(settings: LoadBalancerSettings, caps: Capabilities): Decision<LoadBalancerPlan> {
  const d = planProvider(settings, caps);
  if (!d.ok || settings.external_network === undefined) return d;
  const plan = withFloatingNetwork(d.value, settings.external_network, caps.neutron.externalNetworks);
  return decided(plan, plan.reasons);
}

/**
 * cloud.conf `floating-network-id`: the external network CAPO's router uses (external_network, else
 * the cloud's only one, as plan/external-network.ts decides for the OpenStackCluster). Without it
 * OCCM takes the first router:external network with an IPv4 subnet Neutron lists, in no set order
 * (cloud-provider-openstack v1.33.0 pkg/util/openstack/network.go GetFloatingNetworkID, used by
 * pkg/openstack/loadbalancer.go when nothing is configured): on a cloud with several, a Service's
 * floating IP could come from a network the cluster's router has no gateway on, and never route.
 */
export function withFloatingNetwork(plan: LoadBalancerPlan, setting: string, networks: { id: string; name: string }[] | undefined): LoadBalancerPlan {
  if (!networks) {
    return { ...plan, reasons: [...plan.reasons, 'floating-network-id not set: the external networks were not read (OCCM takes the first external network Neutron lists)'] };
  }
  const net = chooseExternalNetwork(setting, networks);
  if (!net.ok) return { ...plan, reasons: [...plan.reasons, `floating-network-id not set: ${net.refusals[0].message}`], externalNetworkProblem: net.refusals[0] };
  return {
    ...plan,
    cloudConf: { ...plan.cloudConf, 'floating-network-id': net.value.id },
    reasons: [...plan.reasons, `cloud.conf floating-network-id=${net.value.id} (${net.value.name}): Service floating IPs come from the external network of the cluster's router`],
  };
}

function planProvider(settings: LoadBalancerSettings, caps: Capabilities): Decision<LoadBalancerPlan> {
  const mode = settings.use_ovn_lb_provider;
  const o = caps.octavia;
  const blocker = ovnBlocker(o);
  if (mode === false) return defaultPlan(o, ['OVN not used: use_ovn_lb_provider is false']);
  if (blocker && mode === true) {
    const offered = o.present && o.providers.includes('ovn');
    const why = !o.present ? blocker.replace(/^OVN not possible: /, '') : offered ? blocker : 'the cloud does not offer the ovn provider';
    return refused({
      message: `use_ovn_lb_provider is true, but ${why}`,
      problems: offered
        ? ['without TCP health monitors, Services with externalTrafficPolicy: Local drop traffic on nodes that run no pod of the Service']
        : [`providers offered: ${list(o.providers)}`],
      hint: 'set use_ovn_lb_provider to auto or false for this cloud',
    });
  }
  if (blocker) return defaultPlan(o, [blocker]);
  return done(ovnPlan(o, [mode === true
    ? 'OVN used: use_ovn_lb_provider is true'
    : `OVN used: the cloud offers the ovn provider and Octavia ${v(o)} is Wallaby (${WALLABY}) or later`]));
}

const done = (plan: LoadBalancerPlan): Decision<LoadBalancerPlan> => decided(plan, plan.reasons);

/**
 * The plan without the cloud's facts. Only `use_ovn_lb_provider: false` can be decided this way
 * (no capability changes the answer: the default provider, amphora on nearly every cloud);
 * anything else is refused, asking for cloud access or a capabilities file.
 */
export function planLoadBalancerOffline(settings: LoadBalancerSettings): Decision<LoadBalancerPlan> {
  if (settings.use_ovn_lb_provider !== false) {
    return refused({
      message: `use_ovn_lb_provider: ${settings.use_ovn_lb_provider} needs the cloud's Octavia providers and version`,
      hint: 'run with cloud access, pass --capabilities FILE (kaas detect -o json > FILE), or set use_ovn_lb_provider: false',
    });
  }
  return done({
    provider: 'amphora',
    ovn: false,
    cloudConf: {},
    proxyProtocolPossible: true,
    kubeApiAllowedCidrs: true,
    reasons: ['OVN not used: use_ovn_lb_provider is false (planned without asking the cloud)'],
  });
}

/**
 * What an edge command (apply-ingress, apply-gateway) does when external_network names no external
 * network of the cloud: as create-cluster, a real run refuses (exit 2, nothing applied): the
 * cluster's router and OCCM's floating IPs would not agree, and the setting is wrong; a dry run
 * warns and renders without floating-network-id. Pure.
 */
export function floatingNetworkVerdict(plan: LoadBalancerPlan, dryRun: boolean): { warning?: string; refusal?: PlanError } {
  const p = plan.externalNetworkProblem;
  if (!p) return {};
  if (dryRun) return { warning: `${p.message}; a real run refuses it (hint: ${p.hint})` };
  return { refusal: new PlanError(p.message, { problems: p.problems, hint: p.hint }) };
}
