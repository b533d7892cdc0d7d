import { pinProvider, type LiveEdge } from '../../../lib/plan/provider-pin.js';

const edge = (provider: string, lbServices: string[] = [], edgeServices: string[] = []): LiveEdge => ({ provider, lbServices, edgeServices });
const INGRESS = 'ingress-nginx/ingress-nginx-controller';
const APP = 'app/web';

describe('pinProvider: a running cluster keeps its Service load-balancer provider (review M2)', () => {
  it.each([
    // setting, planned now, live (undefined: new cluster), --recreate-edge-services → use_ovn to plan with, re-created
    ['auto', 'ovn', undefined, false, 'auto', []],
    [true, 'ovn', undefined, false, true, []],
    ['auto', 'ovn', edge('ovn', [APP]), false, 'auto', []],
    ['auto', 'ovn', edge('amphora', [APP]), false, false, []], // the cloud now offers OVN: auto keeps amphora
    ['auto', 'amphora', edge('ovn', [APP]), false, true, []], // OVN no longer chosen by auto: keeps OVN
    [true, 'ovn', edge('amphora'), false, true, []], // no LoadBalancer Service yet: the switch is safe
    [true, 'ovn', edge('amphora', [INGRESS], [INGRESS]), true, true, [INGRESS]],
    [false, 'amphora', edge('ovn', [INGRESS, 'envoy-gateway-system/envoy-x'], [INGRESS, 'envoy-gateway-system/envoy-x']), true, false, [INGRESS, 'envoy-gateway-system/envoy-x']],
  ] as const)('%s, planned %s, live %j, recreate %s → use_ovn %s, re-create %j', (setting, planned, live, recreate, useOvn, services) => {
    const d = pinProvider(setting, planned, live, recreate);
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.value).toEqual({ useOvn, recreate: services });
  });

  it.each([
    // an explicit switch while LoadBalancer Services exist is refused, naming them and the fix
    [true, 'ovn', edge('amphora', [INGRESS, APP], [INGRESS]), true, [`${INGRESS} (kaas edge)`, APP], /app\/web are not kaas's/],
    [true, 'ovn', edge('amphora', [INGRESS], [INGRESS]), false, [`${INGRESS} (kaas edge)`], /^run again with --recreate-edge-services/],
    [false, 'amphora', edge('ovn', [APP]), false, [APP], /set use_ovn_lb_provider back to true or auto/],
  ] as const)('%s, planned %s, live %j, recreate %s: refused', (setting, planned, live, recreate, problems, hint) => {
    const d = pinProvider(setting, planned, live, recreate);
    if (d.ok) throw new Error('not refused');
    expect(d.refusals[0].message).toMatch(/^use_ovn_lb_provider switches the Service load-balancer provider \((amphora → ovn|ovn → amphora)\) while LoadBalancer Services exist/);
    expect(d.refusals[0].problems).toEqual(problems);
    expect(d.refusals[0].hint).toMatch(hint);
  });

  it('auto on a cloud that does not offer the provider the cluster runs: refused, saying so (not "use_ovn_lb_provider is true")', () => {
    const d = pinProvider('auto', 'amphora', edge('ovn', [INGRESS], [INGRESS]), false, ['amphora']);
    if (d.ok) throw new Error('not refused');
    expect(d.refusals[0].message).toBe("use_ovn_lb_provider is auto and the cluster's Service load balancers run on ovn (its cloud.conf), but this cloud does not offer the ovn provider (offered: amphora)");
    expect(d.refusals[0].hint).toMatch(/region_name.*use_ovn_lb_provider: false/);
    // Offered (or not read): auto keeps ovn, as before.
    for (const offered of [['amphora', 'ovn'], undefined]) {
      const k = pinProvider('auto', 'amphora', edge('ovn', [INGRESS], [INGRESS]), false, offered);
      expect(k.ok && k.value.useOvn).toBe(true);
    }
  });
});
