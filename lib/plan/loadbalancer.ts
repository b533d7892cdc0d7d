import { PlanError } from '../errors.js';
import { ALLOWED_CIDRS_VERSION, WALLABY_VERSION } from '../openstack/detect.js';
import type { Capabilities } from '../openstack/types.js';
import type { Settings } from '../settings/types.js';
import type { LoadBalancerPlan } from './types.js';

/** The settings this decision reads. */
export type LoadBalancerSettings = Pick<Settings, 'use_ovn_lb_provider' | 'restrict_kubeapi'>;

/** cloud.conf [LoadBalancer] keys OVN needs: its only algorithm, and TCP monitors for externalTrafficPolicy: Local. */
export const OVN_CLOUD_CONF: Readonly<Record<string, string>> = {
  'lb-provider': 'ovn',
  'lb-method': 'SOURCE_IP_PORT',
  'create-monitor': 'true',
};

const WALLABY = `v${WALLABY_VERSION}`;
const list = (xs: string[]) => (xs.length ? xs.join(', ') : 'none');
const v = (c: Capabilities['octavia']) => (c.maxVersion ? `v${c.maxVersion}` : 'of unknown version');

function defaultPlan(caps: Capabilities, reasons: string[]): LoadBalancerPlan {
  const o = caps.octavia;
  const plan: LoadBalancerPlan = {
    provider: 'amphora',
    ovn: false,
    cloudConf: {},
    proxyProtocolPossible: true,
    kubeApiAllowedCidrs: o.present && o.allowedCidrs,
    reasons,
  };
  if (o.present && !o.providers.includes('amphora')) {
    // Only ovn offered: OCCM's default provider (amphora) would be refused by Octavia on every Service.
    if (o.providers.length > 0 && o.providers.every((p) => p === 'ovn')) {
      throw new PlanError(`the cloud offers only the ovn provider, but the plan needs amphora (${reasons.join('; ')})`, {
        problems: [`providers offered: ${list(o.providers)}`],
        hint: 'set use_ovn_lb_provider to true or auto for this cloud (and empty restrict_kubeapi, which OVN cannot enforce)',
      });
    }
    reasons.push(`the cloud does not offer the amphora provider; it offers: ${list(o.providers)}`);
  }
  return plan;
}

function ovnPlan(caps: Capabilities, reasons: string[]): LoadBalancerPlan {
  reasons.push(
    'OVN load balancers get lb-method=SOURCE_IP_PORT (the only algorithm OVN supports) and create-monitor=true (TCP health monitors, needed for externalTrafficPolicy: Local)',
    'PROXY protocol not used: OVN load balancers keep the client IP themselves',
  );
  return { provider: 'ovn', ovn: true, cloudConf: { ...OVN_CLOUD_CONF }, proxyProtocolPossible: false, kubeApiAllowedCidrs: false, reasons };
}

/** Why OVN cannot be used on this cloud, or undefined when it can. */
function ovnBlocker(caps: Capabilities): string | undefined {
  const o = caps.octavia;
  if (!o.present) return `OVN not possible: the cloud has no Octavia (${o.reason ?? 'no load-balancer service'})`;
  if (!o.providers.includes('ovn')) return `OVN not offered: providers are ${list(o.providers)}`;
  if (!o.wallabyOrLater) return `Octavia ${v(o)} is older than Wallaby (${WALLABY}): OVN health monitors unsupported`;
  return undefined;
}

/**
 * Decides which Octavia provider the cluster's load balancers use and what that implies, from
 * the settings and the detected capabilities. Pure. Throws a PlanError (exit 2, nothing touched)
 * when the settings ask for something this cloud cannot do:
 * - use_ovn_lb_provider=true without the ovn provider, or with Octavia older than Wallaby;
 * - restrict_kubeapi with an OVN kube-API load balancer (OVN rejects allowed_cidrs with HTTP 501),
 *   with Octavia older than v2.12, or without Octavia.
 * With `auto`, restrict_kubeapi steers the choice away from OVN instead of failing.
 */
export function resolveLoadBalancerPlan(settings: LoadBalancerSettings, caps: Capabilities): LoadBalancerPlan {
  const mode = settings.use_ovn_lb_provider;
  // ["none"] means an internal kube-API LB without floating IP: nothing to filter, no allowed_cidrs.
  const internalOnly = (settings.restrict_kubeapi ?? []).includes('none');
  const restrict = (settings.restrict_kubeapi ?? []).filter((c) => c.trim() !== '' && c !== 'none');
  const o = caps.octavia;
  const blocker = ovnBlocker(caps);
  let plan: LoadBalancerPlan;

  if (mode === true) {
    if (blocker) {
      const offered = o.present && o.providers.includes('ovn');
      const why = !o.present ? blocker.replace(/^OVN not possible: /, '') : offered ? blocker : 'the cloud does not offer the ovn provider';
      const problems = offered
        ? ['without TCP health monitors, Services with externalTrafficPolicy: Local drop traffic on nodes that run no pod of the Service']
        : [`providers offered: ${list(o.providers)}`];
      throw new PlanError(`use_ovn_lb_provider is true, but ${why}`, {
        problems,
        hint: 'set use_ovn_lb_provider to auto or false for this cloud',
      });
    }
    if (restrict.length) throw restrictError('the kube-API load balancer would use OVN, which rejects allowed_cidrs (HTTP 501)', 'set use_ovn_lb_provider to auto or false, or empty restrict_kubeapi');
    plan = ovnPlan(caps, ['OVN used: use_ovn_lb_provider is true']);
  } else if (mode === false) {
    plan = defaultPlan(caps, ['OVN not used: use_ovn_lb_provider is false']);
  } else if (blocker) {
    plan = defaultPlan(caps, [blocker]);
  } else if (restrict.length) {
    plan = defaultPlan(caps, ['OVN not used: restrict_kubeapi needs listener allowed_cidrs, which OVN rejects (HTTP 501)']);
  } else {
    plan = ovnPlan(caps, [`OVN used: the cloud offers the ovn provider and Octavia ${v(o)} is Wallaby (${WALLABY}) or later`]);
  }

  if (restrict.length) {
    if (!o.present) throw restrictError(`the cloud has no Octavia (${o.reason ?? 'no load-balancer service'})`, 'empty restrict_kubeapi for this cloud');
    if (!o.allowedCidrs) throw restrictError(`Octavia ${v(o)} is older than v${ALLOWED_CIDRS_VERSION}, which introduced allowed_cidrs`, 'empty restrict_kubeapi for this cloud');
    plan.reasons.push(`kube-API load balancer allows only ${restrict.join(', ')} (restrict_kubeapi)`);
  } else if (internalOnly) {
    plan.reasons.push('kube-API load balancer is internal only, without floating IP (restrict_kubeapi: none)');
  }
  return plan;
}

function restrictError(why: string, hint: string): PlanError {
  return new PlanError(`restrict_kubeapi cannot be honoured: ${why}`, { hint });
}

/**
 * The plan without the cloud's facts. Only `use_ovn_lb_provider: false` can be decided this way
 * (no capability changes the answer: the default provider, amphora on nearly every cloud);
 * anything else is a PlanError asking for cloud access or a capabilities file.
 */
export function offlineLoadBalancerPlan(settings: Pick<Settings, 'use_ovn_lb_provider'>): LoadBalancerPlan {
  if (settings.use_ovn_lb_provider !== false) {
    throw new PlanError(`use_ovn_lb_provider: ${settings.use_ovn_lb_provider} needs the cloud's Octavia providers and version`, {
      hint: 'run with cloud access, pass --capabilities FILE (kaas detect -o json > FILE), or set use_ovn_lb_provider: false',
    });
  }
  return {
    provider: 'amphora',
    ovn: false,
    cloudConf: {},
    proxyProtocolPossible: true,
    kubeApiAllowedCidrs: true,
    reasons: ['OVN not used: use_ovn_lb_provider is false (planned without asking the cloud)'],
  };
}
