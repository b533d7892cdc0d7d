import { octaviaFacts } from '../../../lib/openstack/detect.js';
import type { Capabilities } from '../../../lib/openstack/types.js';
import { PlanError } from '../../../lib/errors.js';
import { floatingNetworkVerdict, planLoadBalancer, planLoadBalancerOffline, type LoadBalancerSettings } from '../../../lib/plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

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
const s = (use_ovn_lb_provider: LoadBalancerSettings['use_ovn_lb_provider']): LoadBalancerSettings => ({ use_ovn_lb_provider });
const plan = (mode: LoadBalancerSettings['use_ovn_lb_provider'], c: Capabilities): LoadBalancerPlan => {
  const d = planLoadBalancer(s(mode), c);
  if (!d.ok) throw new Error(d.refusals[0].message);
  expect(d.reasons).toEqual(d.value.reasons);
  return d.value;
};

const OVN_CONF = { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' };

describe('planLoadBalancer: the use_ovn_lb_provider table', () => {
  it.each([
    // setting, Octavia max, providers → provider, first reason
    ['auto', '2.26', ['amphora', 'ovn'], 'ovn', 'OVN used: the cloud offers the ovn provider and Octavia v2.26 is Wallaby (v2.24) or later'],
    ['auto', '2.24', ['amphora', 'ovn'], 'ovn', 'OVN used: the cloud offers the ovn provider and Octavia v2.24 is Wallaby (v2.24) or later'],
    ['auto', '2.23', ['amphora', 'ovn'], 'amphora', 'Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported'],
    ['auto', '2.30', ['amphora', 'octavia'], 'amphora', 'OVN not offered: providers are amphora, octavia'],
    ['auto', '2.26', ['ovn'], 'ovn', 'OVN used: the cloud offers the ovn provider and Octavia v2.26 is Wallaby (v2.24) or later'],
    [true, '2.26', ['amphora', 'ovn'], 'ovn', 'OVN used: use_ovn_lb_provider is true'],
    [false, '2.26', ['amphora', 'ovn'], 'amphora', 'OVN not used: use_ovn_lb_provider is false'],
    [false, '2.23', ['amphora', 'ovn'], 'amphora', 'OVN not used: use_ovn_lb_provider is false'],
  ] as const)('%s on Octavia v%s with %j → %s', (mode, version, providers, provider, reason) => {
    const p = plan(mode, caps(version, [...providers]));
    expect(p.provider).toBe(provider);
    expect(p.ovn).toBe(provider === 'ovn');
    expect(p.reasons[0]).toBe(reason);
  });

  it.each([
    [false, ['vendor-x'], ['OVN not used: use_ovn_lb_provider is false', 'the cloud does not offer the amphora provider; it offers: vendor-x']],
    ['auto', ['vendor-x'], ['OVN not offered: providers are vendor-x', 'the cloud does not offer the amphora provider; it offers: vendor-x']],
    [false, ['amphora'], ['OVN not used: use_ovn_lb_provider is false']],
  ] as const)('%s with providers %j says whether amphora is offered', (mode, providers, reasons) => {
    expect(plan(mode, caps('2.26', [...providers])).reasons).toEqual(reasons);
  });

  // Issue 23, item 6: these were amphora plans with "PROXY protocol possible: yes" and exit 0.
  it.each([false, 'auto'] as const)('%s without Octavia is refused: no LoadBalancer Service could work', (mode) => {
    const d = planLoadBalancer(s(mode), noOctavia);
    expect(d.ok).toBe(false);
    expect(!d.ok && d.refusals[0].message).toBe('the cloud has no load-balancer service (Octavia): the catalog has no "load-balancer" service');
    expect(!d.ok && d.refusals[0].hint).toContain('check region_name');
  });

  it.each([false, 'auto'] as const)('%s on an Octavia that lists no provider is refused', (mode) => {
    const d = planLoadBalancer(s(mode), caps('2.30', []));
    expect(!d.ok && d.refusals[0].message).toBe('Octavia lists no enabled provider driver, so it cannot create a load balancer');
  });
});

describe('planLoadBalancer: what each provider implies', () => {
  it('OVN sets the cloud.conf keys from the provider table and rules out PROXY protocol', () => {
    const p = plan('auto', caps('2.26', ['amphora', 'ovn']));
    expect(p).toEqual({
      provider: 'ovn', ovn: true, cloudConf: OVN_CONF, proxyProtocolPossible: false, kubeApiAllowedCidrs: true,
      reasons: [
        'OVN used: the cloud offers the ovn provider and Octavia v2.26 is Wallaby (v2.24) or later',
        'OVN load balancers get lb-method=SOURCE_IP_PORT (the only algorithm OVN supports) and create-monitor=true (TCP health monitors, needed for externalTrafficPolicy: Local)',
        'PROXY protocol not used: OVN load balancers keep the client IP themselves',
      ],
    });
  });

  it.each([
    // issue 9 (2): the kube-API LB is pinned to amphora on its own, whatever the Service LBs use
    ['ovn Service LBs, amphora offered, v2.26', 'auto', '2.26', ['amphora', 'ovn'], true],
    ['ovn Service LBs, only ovn offered', true, '2.26', ['ovn'], false],
    ['amphora, v2.26', false, '2.26', ['amphora'], true],
    ['amphora, v2.12', false, '2.12', ['amphora'], true],
    ['amphora, v2.11 (before listener allowed_cidrs)', false, '2.11', ['amphora'], false],
  ] as const)('kube-API allowed CIDRs possible: %s → %s', (_n, mode, version, providers, cidrs) => {
    expect(plan(mode, caps(version, [...providers])).kubeApiAllowedCidrs).toBe(cidrs);
  });

  it('amphora: no OVN keys, PROXY possible', () => {
    expect(plan(false, caps('2.26', ['amphora']))).toMatchObject({ provider: 'amphora', cloudConf: {}, proxyProtocolPossible: true });
  });
});

describe('planLoadBalancer: refusals (exit 2 at the use case, nothing touched)', () => {
  it.each([
    ['2.26', ['amphora'], 'use_ovn_lb_provider is true, but the cloud does not offer the ovn provider', ['providers offered: amphora']],
    ['2.26', [], 'use_ovn_lb_provider is true, but the cloud does not offer the ovn provider', ['providers offered: none']],
    ['2.23', ['amphora', 'ovn'], 'use_ovn_lb_provider is true, but Octavia v2.23 is older than Wallaby (v2.24): OVN health monitors unsupported',
      ['without TCP health monitors, Services with externalTrafficPolicy: Local drop traffic on nodes that run no pod of the Service']],
    [undefined, [], 'use_ovn_lb_provider is true, but the cloud has no Octavia (the catalog has no "load-balancer" service)', ['providers offered: none']],
  ] as const)('true on v%s with %j', (version, providers, message, problems) => {
    const d = planLoadBalancer(s(true), version === undefined ? noOctavia : caps(version, [...providers]));
    expect(d).toEqual({ ok: false, reasons: [], refusals: [{ message, problems, hint: 'set use_ovn_lb_provider to auto or false for this cloud' }] });
  });
});

describe('planLoadBalancerOffline', () => {
  it('plans the default provider without the cloud when use_ovn_lb_provider is false', () => {
    const d = planLoadBalancerOffline({ use_ovn_lb_provider: false });
    expect(d).toMatchObject({ ok: true, value: { provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: true } });
    expect(d.reasons).toEqual(['OVN not used: use_ovn_lb_provider is false (planned without asking the cloud)']);
  });

  it.each([[true], ['auto' as const]])('refuses to guess for use_ovn_lb_provider %p: the answer depends on the cloud', (value) => {
    const d = planLoadBalancerOffline({ use_ovn_lb_provider: value });
    expect(d).toMatchObject({ ok: false, refusals: [{ message: `use_ovn_lb_provider: ${value} needs the cloud's Octavia providers and version`, hint: expect.stringMatching(/--capabilities FILE/) }] });
  });
});

describe('planLoadBalancer: a cloud that offers only ovn', () => {
  it('refuses use_ovn_lb_provider false (Octavia would refuse amphora on every Service) and names the fix', () => {
    const d = planLoadBalancer({ use_ovn_lb_provider: false }, caps('2.26', ['ovn']));
    expect(d.ok).toBe(false);
    if (!d.ok) {
      expect(d.refusals[0].message).toMatch(/offers only the ovn provider, but the plan needs amphora \(OVN not used: use_ovn_lb_provider is false\)/);
      expect(d.refusals[0].problems).toEqual(['providers offered: ovn']);
      expect(d.refusals[0].hint).toMatch(/true or auto/);
    }
  });
});

describe('planLoadBalancer: OCCM\'s floating network is the one of the cluster\'s router (review M4)', () => {
  const EXT = [{ id: 'n-ext01', name: 'ext01' }, { id: 'n-ext02', name: 'ext02' }];
  it.each([
    // external_network, external networks → cloud.conf floating-network-id, last reason
    ['ext02', EXT, 'n-ext02', /^cloud\.conf floating-network-id=n-ext02 \(ext02\)/],
    ['n-ext01', EXT, 'n-ext01', /^cloud\.conf floating-network-id=n-ext01 \(ext01\)/],
    ['', [EXT[0]], 'n-ext01', /^cloud\.conf floating-network-id=n-ext01 \(ext01\)/],
    // Several and none named: create-cluster refuses (plan/external-network.ts); OCCM's key stays unset.
    ['', EXT, undefined, /^floating-network-id not set: external_network is empty and the cloud has 2 external networks/],
    ['ext03', EXT, undefined, /^floating-network-id not set: external network ext03 does not exist/],
    ['ext01', undefined, undefined, /^floating-network-id not set: the external networks were not read/],
  ] as const)('external_network %j among %j → %s', (setting, networks, id, reason) => {
    for (const mode of [false, true] as const) {
      const c = { ...caps('2.26', ['amphora', 'ovn']), neutron: { present: true, externalNetworks: networks ? [...networks] : undefined } };
      const d = planLoadBalancer({ use_ovn_lb_provider: mode, external_network: setting }, c);
      if (!d.ok) throw new Error(d.refusals[0].message);
      expect(d.value.cloudConf['floating-network-id']).toBe(id);
      expect(d.value.reasons.at(-1)).toMatch(reason);
      expect(d.reasons).toEqual(d.value.reasons);
    }
  });
});

/** Issue 31 §3, newcomer m21: apply-ingress / apply-gateway treat a wrong external_network as create-cluster does. */
describe('floatingNetworkVerdict: an external_network the cloud does not have', () => {
  const EXT = [{ id: 'n-ext-net', name: 'ext-net' }, { id: 'n-ext02', name: 'ext02' }];
  const lbFor = (setting: string, networks: { id: string; name: string }[] | undefined) => {
    const d = planLoadBalancer({ use_ovn_lb_provider: false, external_network: setting }, { ...caps('2.26', ['amphora']), neutron: { present: true, externalNetworks: networks } });
    if (!d.ok) throw new Error(d.refusals[0].message);
    return d.value;
  };
  it.each<[string, string, { id: string; name: string }[] | undefined, boolean, 'nothing' | 'warning' | 'refusal', string | undefined]>([
    ['does not exist, real run: refused as create-cluster refuses it', 'ext01', EXT, false, 'refusal', 'external network ext01 does not exist (external networks: ext-net, ext02)'],
    ['does not exist, dry run: a warning', 'ext01', EXT, true, 'warning', 'external network ext01 does not exist (external networks: ext-net, ext02); a real run refuses it (hint: set external_network to the name or ID of an external network)'],
    ['empty with several, real run: refused', '', EXT, false, 'refusal', 'external_network is empty and the cloud has 2 external networks (ext-net, ext02); name one'],
    ['exists: nothing to say', 'ext-net', EXT, false, 'nothing', undefined],
    ['empty with one: the only one, nothing to say', '', [EXT[0]], false, 'nothing', undefined],
    ['networks not read (no cloud answer): nothing decided, nothing refused', 'ext01', undefined, false, 'nothing', undefined],
  ])('%s', (_what, setting, networks, dryRun, outcome, text) => {
    const v = floatingNetworkVerdict(lbFor(setting, networks), dryRun);
    expect(v.refusal ? 'refusal' : v.warning ? 'warning' : 'nothing').toBe(outcome);
    if (text) expect(v.refusal?.message ?? v.warning).toBe(text);
    if (v.refusal) {
      expect(v.refusal).toBeInstanceOf(PlanError);
      expect(v.refusal.hint).toBe('set external_network to the name or ID of an external network');
    }
  });
});
