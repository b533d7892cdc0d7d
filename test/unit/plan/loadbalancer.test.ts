import { PlanError } from '../../../lib/errors.js';
import { octaviaFacts } from '../../../lib/openstack/detect.js';
import type { Capabilities } from '../../../lib/openstack/types.js';
import { offlineLoadBalancerPlan, resolveLoadBalancerPlan, type LoadBalancerSettings } from '../../../lib/plan/loadbalancer.js';

function caps(maxVersion: string | undefined, providers: string[]): Capabilities {
  return {
    cloud: 'test',
    detectedAt: '2026-01-01T00:00:00.000Z',
    octavia: octaviaFacts(maxVersion, providers),
    neutron: { present: true },
    nova: { present: true },
  };
}
const noOctavia: Capabilities = {
  ...caps(undefined, []),
  octavia: { present: false, reason: 'the catalog has no "load-balancer" service', providers: [], wallabyOrLater: false, allowedCidrs: false },
};
const s = (use_ovn_lb_provider: LoadBalancerSettings['use_ovn_lb_provider'], restrict_kubeapi: string[] = []): LoadBalancerSettings => ({
  use_ovn_lb_provider,
  restrict_kubeapi,
});

const OVN_CONF = { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' };

describe('resolveLoadBalancerPlan: outcomes', () => {
  it.each([
    // setting, Octavia max, providers, restrict, → provider, reason that must appear
    ['auto', '2.26', ['amphora', 'ovn'], [], 'ovn', 'OVN used: the cloud offers the ovn provider and Octavia v2.26 is Wallaby (v2.24) or later'],
    ['auto', '2.24', ['amphora', 'ovn'], [], 'ovn', 'Octavia v2.24 is Wallaby'],
    ['auto', '2.23', ['amphora', 'ovn'], [], 'amphora', 'Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported'],
    ['auto', '2.30', ['amphora', 'octavia'], [], 'amphora', 'OVN not offered: providers are amphora, octavia'],
    ['auto', '2.26', ['amphora', 'ovn'], ['10.0.0.0/8'], 'amphora', 'OVN not used: restrict_kubeapi needs listener allowed_cidrs, which OVN rejects (HTTP 501)'],
    [true, '2.26', ['amphora', 'ovn'], [], 'ovn', 'OVN used: use_ovn_lb_provider is true'],
    [true, '2.26', ['amphora', 'ovn'], ['none'], 'ovn', 'internal only'],
    [false, '2.26', ['amphora', 'ovn'], [], 'amphora', 'OVN not used: use_ovn_lb_provider is false'],
    [false, '2.26', ['vendor-x'], [], 'amphora', 'the cloud does not offer the amphora provider; it offers: vendor-x'],
    [false, '2.12', ['amphora'], ['192.0.2.0/24'], 'amphora', 'kube-API load balancer allows only 192.0.2.0/24 (restrict_kubeapi)'],
  ] as const)('%s on Octavia v%s with %j, restrict %j → %s', (mode, version, providers, restrict, provider, reason) => {
    const plan = resolveLoadBalancerPlan(s(mode, [...restrict]), caps(version, [...providers]));
    expect(plan.provider).toBe(provider);
    expect(plan.ovn).toBe(provider === 'ovn');
    expect(plan.reasons.join('\n')).toContain(reason);
  });

  it('auto without Octavia uses the default provider and says why', () => {
    const plan = resolveLoadBalancerPlan(s('auto'), noOctavia);
    expect(plan).toMatchObject({ provider: 'amphora', ovn: false, kubeApiAllowedCidrs: false });
    expect(plan.reasons).toEqual(['OVN not possible: the cloud has no Octavia (the catalog has no "load-balancer" service)']);
  });
});

describe('resolveLoadBalancerPlan: what OVN implies', () => {
  it('OVN sets the cloud.conf keys and rules out PROXY protocol and allowed CIDRs', () => {
    const plan = resolveLoadBalancerPlan(s('auto'), caps('2.26', ['amphora', 'ovn']));
    expect(plan.cloudConf).toEqual(OVN_CONF);
    expect(plan.proxyProtocolPossible).toBe(false);
    expect(plan.kubeApiAllowedCidrs).toBe(false);
    expect(plan.reasons).toContain('PROXY protocol not used: OVN load balancers keep the client IP themselves');
  });

  it.each([
    ['2.26', true],
    ['2.11', false],
  ])('amphora on Octavia v%s: no OVN keys, PROXY possible, allowed CIDRs %s', (version, cidrs) => {
    const plan = resolveLoadBalancerPlan(s(false), caps(version, ['amphora']));
    expect(plan).toMatchObject({ provider: 'amphora', cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: cidrs });
  });
});

describe('resolveLoadBalancerPlan: errors (exit 2, nothing touched)', () => {
  it.each([
    [true, '2.26', ['amphora'], [], /use_ovn_lb_provider is true, but the cloud does not offer the ovn provider/, ['providers offered: amphora']],
    [true, '2.23', ['amphora', 'ovn'], [], /older than Wallaby/, [expect.stringContaining('externalTrafficPolicy: Local drop')]],
    [true, undefined, [], [], /no Octavia/, ['providers offered: none']],
    [true, '2.26', ['amphora', 'ovn'], ['10.0.0.0/8'], /restrict_kubeapi cannot be honoured: .*OVN, which rejects allowed_cidrs \(HTTP 501\)/, []],
    [false, '2.11', ['amphora'], ['10.0.0.0/8'], /Octavia v2.11 is older than v2.12/, []],
    ['auto', '2.10', ['amphora', 'ovn'], ['10.0.0.0/8'], /older than v2.12/, []],
    // The plan cannot work at all: Octavia would refuse OCCM's default provider on every Service.
    [false, '2.26', ['ovn'], [], /offers only the ovn provider, but the plan needs amphora \(OVN not used: use_ovn_lb_provider is false\)/, ['providers offered: ovn']],
    ['auto', '2.26', ['ovn'], ['10.0.0.0/8'], /offers only the ovn provider, but the plan needs amphora \(OVN not used: restrict_kubeapi/, ['providers offered: ovn']],
  ] as const)('%s on v%s with %j, restrict %j → PlanError', (mode, version, providers, restrict, message, problems) => {
    const c = version === undefined ? noOctavia : caps(version, [...providers]);
    let err: unknown;
    try {
      resolveLoadBalancerPlan(s(mode, [...restrict]), c);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanError);
    const pe = err as PlanError;
    expect(pe.exitCode).toBe(2);
    expect(pe.message).toMatch(message);
    expect(pe.problems).toEqual(problems);
    expect(pe.hint).toBeTruthy();
  });

  it('restrict_kubeapi without Octavia is an error', () => {
    expect(() => resolveLoadBalancerPlan(s(false, ['10.0.0.0/8']), noOctavia)).toThrow(/no Octavia/);
  });
});

describe('offlineLoadBalancerPlan', () => {
  it('plans the default provider without the cloud when use_ovn_lb_provider is false', () => {
    const plan = offlineLoadBalancerPlan({ use_ovn_lb_provider: false });
    expect(plan).toMatchObject({ provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true });
    expect(plan.reasons.join(' ')).toMatch(/use_ovn_lb_provider is false/);
  });

  it.each([[true], ['auto' as const]])('refuses to guess for use_ovn_lb_provider %p: the answer depends on the cloud', (value) => {
    expect(() => offlineLoadBalancerPlan({ use_ovn_lb_provider: value })).toThrow(PlanError);
    expect(() => offlineLoadBalancerPlan({ use_ovn_lb_provider: value })).toThrow(/needs the cloud's Octavia providers/);
  });
});
