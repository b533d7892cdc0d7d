import { orThrow } from '../../../lib/plan/decision.js';
import { LB_DEFAULTS, planOccmLoadBalancer } from '../../../lib/plan/occm-loadbalancer.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';
import type { ScalarMap } from '../../../lib/settings/types.js';
import { AMPHORA, OVN } from '../ingress/fixtures.js';

const HINT = 'remove or fix these keys in occm_loadbalancer (kaas sets provider keys from use_ovn_lb_provider)';

describe('planOccmLoadBalancer: cloud.conf [LoadBalancer] = defaults < occm_loadbalancer < required keys', () => {
  it.each<[string, LoadBalancerPlan, ScalarMap, Record<string, string>, [string, string][]]>([
    // create-monitor: a vanilla externalTrafficPolicy: Local Service needs a monitor (review m8).
    ['amphora, nothing set: kaas defaults only', AMPHORA, {}, {}, [['create-monitor', 'true'], ['manage-security-groups', 'true']]],
    ['occm overrides a kaas default', AMPHORA, { 'manage-security-groups': false, 'create-monitor': false }, {}, [['create-monitor', 'false'], ['manage-security-groups', 'false']]],
    ['occm adds options, sorted by key', AMPHORA, { 'node-selector': 'a=b', 'ingress-hostname-suffix': 'example.org' }, {}, [['create-monitor', 'true'], ['ingress-hostname-suffix', 'example.org'], ['manage-security-groups', 'true'], ['node-selector', 'a=b']]],
    ['OVN: the provider keys', OVN, {}, {}, [['create-monitor', 'true'], ['lb-method', 'SOURCE_IP_PORT'], ['lb-provider', 'ovn'], ['manage-security-groups', 'true']]],
    ['equal values are no conflict (case and spaces aside), the plan\'s spelling wins', OVN, { 'create-monitor': true, 'lb-method': ' source_ip_port ' }, {}, [['create-monitor', 'true'], ['lb-method', 'SOURCE_IP_PORT'], ['lb-provider', 'ovn'], ['manage-security-groups', 'true']]],
    ['required keys of the edge plans', AMPHORA, {}, { 'enable-ingress-hostname': 'true' }, [['create-monitor', 'true'], ['enable-ingress-hostname', 'true'], ['manage-security-groups', 'true']]],
    ['amphora keeps an amphora algorithm', AMPHORA, { 'lb-method': 'LEAST_CONNECTIONS' }, {}, [['create-monitor', 'true'], ['lb-method', 'LEAST_CONNECTIONS'], ['manage-security-groups', 'true']]],
    ['lb-provider amphora on amphora', AMPHORA, { 'lb-provider': 'amphora' }, {}, [['create-monitor', 'true'], ['lb-provider', 'amphora'], ['manage-security-groups', 'true']]],
  ])('%s', (_n, lb, occm, required, pairs) => {
    const d = planOccmLoadBalancer(lb, occm, required);
    expect(d).toEqual({ ok: true, value: pairs, reasons: [], warnings: [] });
  });

  it('the default of required is no keys', () => {
    expect(orThrow(planOccmLoadBalancer(AMPHORA, {}))).toEqual(Object.entries(LB_DEFAULTS));
  });

  it.each<[string, LoadBalancerPlan, ScalarMap, Record<string, string>, string[]]>([
    ['lb-provider amphora with OVN chosen', OVN, { 'lb-provider': 'amphora' }, {}, ['occm_loadbalancer.lb-provider: amphora contradicts lb-provider=ovn required by the plan (OVN chosen)']],
    ['create-monitor false with OVN', OVN, { 'create-monitor': false }, {}, ['occm_loadbalancer.create-monitor: false contradicts create-monitor=true required by the plan (OVN chosen)']],
    ['hostname off with PROXY on amphora', AMPHORA, { 'enable-ingress-hostname': false }, { 'enable-ingress-hostname': 'true' }, ['occm_loadbalancer.enable-ingress-hostname: false contradicts enable-ingress-hostname=true required by the plan (provider amphora)']],
    ['a key required by an edge plan on OVN names the provider, not OVN', OVN, { 'enable-ingress-hostname': false }, { 'enable-ingress-hostname': 'true' }, ['occm_loadbalancer.enable-ingress-hostname: false contradicts enable-ingress-hostname=true required by the plan (provider ovn)']],
    ['lb-provider ovn without the OVN plan', AMPHORA, { 'lb-provider': ' OVN' }, {}, ['occm_loadbalancer.lb-provider: ovn, but the plan does not use OVN; set use_ovn_lb_provider instead']],
    ['typos, sorted', AMPHORA, { 'create-monitors': true, 'bogus': 1 }, {}, [
      'occm_loadbalancer.bogus: not a cloud.conf [LoadBalancer] option of OCCM',
      'occm_loadbalancer.create-monitors: not a cloud.conf [LoadBalancer] option of OCCM',
    ]],
    ['OVN\'s lb-method left behind on amphora', AMPHORA, { 'lb-method': 'source_ip_port' }, {}, ['occm_loadbalancer.lb-method: SOURCE_IP_PORT is the OVN algorithm; the amphora provider accepts ROUND_ROBIN, LEAST_CONNECTIONS or SOURCE_IP']],
    ['everything at once, each reported', AMPHORA, { typo: 'x', 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'enable-ingress-hostname': 'false' }, { 'enable-ingress-hostname': 'true' }, [
      'occm_loadbalancer.typo: not a cloud.conf [LoadBalancer] option of OCCM',
      'occm_loadbalancer.enable-ingress-hostname: false contradicts enable-ingress-hostname=true required by the plan (provider amphora)',
      'occm_loadbalancer.lb-provider: ovn, but the plan does not use OVN; set use_ovn_lb_provider instead',
      'occm_loadbalancer.lb-method: SOURCE_IP_PORT is the OVN algorithm; the amphora provider accepts ROUND_ROBIN, LEAST_CONNECTIONS or SOURCE_IP',
    ]],
  ])('refused: %s', (_n, lb, occm, required, problems) => {
    const d = planOccmLoadBalancer(lb, occm, required);
    expect(d).toEqual({ ok: false, reasons: [], refusals: [{ message: 'cloud.conf [LoadBalancer] cannot be built', hint: HINT, problems }] });
  });

  it('SOURCE_IP_PORT is no refusal on OVN, where it is the provider\'s algorithm', () => {
    expect(planOccmLoadBalancer(OVN, { 'lb-method': 'SOURCE_IP_PORT' }).ok).toBe(true);
  });
});
