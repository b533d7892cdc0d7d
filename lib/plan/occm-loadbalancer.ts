import { KNOWN_LB_OPTIONS } from '../settings/occm-options.js';
import type { ScalarMap } from '../settings/types.js';
import { decided, refused, type Decision } from './decision.js';
import { algorithmAllowed, PROVIDERS } from './providers.js';
import type { LoadBalancerPlan } from './types.js';

/**
 * What OCCM's cloud.conf [LoadBalancer] holds: kaas's defaults < the user's `occm_loadbalancer` <
 * the keys the plans require (the provider's, the edge plans' enable-ingress-hostname). Refused,
 * naming every offending key, when a user value contradicts a required one (e.g. `lb-provider:
 * amphora` while the plan chose OVN), when a key is no OCCM option (OCCM ignores those silently),
 * for `lb-provider: ovn` without the OVN plan and for OVN's algorithm on amphora. The renderer
 * (lib/render/cloud-conf.ts) only writes the pairs decided here.
 */

/**
 * kaas's own [LoadBalancer] defaults: the SCS template's `manage-security-groups` (minus `use-octavia`,
 * removed in OCCM v1.26), and `create-monitor`, so that a plain Service with externalTrafficPolicy:
 * Local works without OCCM annotations (a monitor takes the nodes without a pod out of the pool; OCCM
 * makes it HTTP on healthCheckNodePort for amphora, TCP for ovn) — what the SCS load-balancer standard
 * and `kaas check-lb` ask of vanilla Services. `occm_loadbalancer: {create-monitor: false}` turns it off.
 */
export const LB_DEFAULTS: Readonly<Record<string, string>> = { 'create-monitor': 'true', 'manage-security-groups': 'true' };

const norm = (v: string | number | boolean) => String(v).trim().toLowerCase();

/** The [LoadBalancer] pairs, sorted by key; refused on the conflicts listed in the module comment. */
export function planOccmLoadBalancer(lb: LoadBalancerPlan, occm: ScalarMap, required: Record<string, string> = {}): Decision<[string, string][]> {
  const problems: string[] = [];
  const unknown = Object.keys(occm).filter((k) => !KNOWN_LB_OPTIONS.includes(k));
  for (const k of unknown.sort()) problems.push(`occm_loadbalancer.${k}: not a cloud.conf [LoadBalancer] option of OCCM`);
  const need: Record<string, string> = { ...lb.cloudConf, ...required };
  for (const [k, v] of Object.entries(need)) {
    if (occm[k] !== undefined && norm(occm[k]) !== norm(v)) {
      const why = k === 'floating-network-id' ? 'the external network of the cluster\'s router: external_network' : lb.ovn && k in PROVIDERS.ovn.cloudConf ? 'OVN chosen' : `provider ${lb.provider}`;
      problems.push(`occm_loadbalancer.${k}: ${occm[k]} contradicts ${k}=${v} required by the plan (${why})`);
    }
  }
  if (!lb.ovn && occm['lb-provider'] !== undefined && norm(occm['lb-provider']) === 'ovn') {
    problems.push('occm_loadbalancer.lb-provider: ovn, but the plan does not use OVN; set use_ovn_lb_provider instead');
  }
  // Octavia's amphora driver accepts only its own algorithms (AMPHORA_SUPPORTED_LB_ALGORITHMS):
  // OVN's SOURCE_IP_PORT left in place would fail every pool.
  const method = occm['lb-method'] === undefined ? undefined : String(occm['lb-method']).trim();
  if (lb.provider === 'amphora' && method !== undefined && algorithmAllowed(PROVIDERS.ovn, method) && !algorithmAllowed(PROVIDERS.amphora, method)) {
    const [last, ...rest] = [...PROVIDERS.amphora.algorithms].reverse();
    problems.push(`occm_loadbalancer.lb-method: ${method.toUpperCase()} is the OVN algorithm; the amphora provider accepts ${rest.reverse().join(', ')} or ${last}`);
  }
  if (problems.length) {
    return refused({
      message: 'cloud.conf [LoadBalancer] cannot be built', problems,
      hint: 'remove or fix these keys in occm_loadbalancer (kaas sets provider keys from use_ovn_lb_provider)',
    });
  }
  const merged: Record<string, string> = { ...LB_DEFAULTS };
  for (const [k, v] of Object.entries(occm)) merged[k] = String(v);
  Object.assign(merged, need);
  return decided(Object.entries(merged).sort(([a], [b]) => compareKeys(a, b)));
}

const PLAIN_KEY = /^[a-z0-9-]*$/;

/**
 * `a.localeCompare(b)` without the collator's start-up (~6 ms, once per process) for keys of
 * lower-case letters, digits and '-', where the two orders agree (test/unit/plan/compare-keys.test.ts).
 */
export function compareKeys(a: string, b: string): number {
  if (PLAIN_KEY.test(a) && PLAIN_KEY.test(b)) return a < b ? -1 : a > b ? 1 : 0;
  return a.localeCompare(b);
}
