import { octaviaFacts } from '../../../lib/openstack/detect.js';
import {
  checkKubeApiLb, kubeApiLbFacts, kubeApiMode, planKubeApiAccess, type KubeApiInput, type KubeApiLbFacts, type MgmtHostAddresses,
} from '../../../lib/plan/kubeapi.js';

const mgmtFip: MgmtHostAddresses = { found: true, cidrs: ['192.0.2.10'], source: 'floating IP of server capi-mgmtcluster' };
const mgmtNet: MgmtHostAddresses = { found: true, cidrs: ['192.0.2.0/28'], source: 'mgmt_host_cidrs' };
const mgmtUnknown: MgmtHostAddresses = { found: true, cidrs: [], source: 'not known: the rendered allowedCIDRs lack it' };
const noMgmt: MgmtHostAddresses = { found: false, reason: 'no Nova server named capi-mgmtcluster in this project' };
const modern: KubeApiLbFacts = { octaviaVersion: '2.26', providers: ['amphora', 'ovn'] };
const noOctavia: KubeApiLbFacts = { present: false, reason: 'the catalog has no "load-balancer" service' };

describe('kubeApiMode', () => {
  it.each<[string[], string]>([
    [[], 'open'],
    [['none'], 'internal'],
    [['203.0.113.0/24'], 'restricted'],
    [['198.51.100.7', '203.0.113.0/24'], 'restricted'],
  ])('%j → %s', (restrict, mode) => expect(kubeApiMode(restrict)).toBe(mode));
});

describe('planKubeApiAccess (restrict_kubeapi → OpenStackCluster.spec.apiServerLoadBalancer), the SCS table', () => {
  it.each<[string, KubeApiInput, { mode: string; allowedCIDRs?: string[]; provider?: string }]>([
    ['[] leaves the kube-API open: no allowedCIDRs, provider left to Octavia', { restrict: [], mgmtHost: noMgmt, lb: modern }, { mode: 'open' }],
    ['[] needs neither Octavia nor the management host', { restrict: [], mgmtHost: noMgmt, lb: noOctavia }, { mode: 'open' }],
    ['["none"] = exclusive internal access: only the management host, floating IP kept, pinned to amphora', { restrict: ['none'], mgmtHost: mgmtFip, lb: modern }, { mode: 'internal', allowedCIDRs: ['192.0.2.10/32'], provider: 'amphora' }],
    ['["none"] with a management network', { restrict: ['none'], mgmtHost: mgmtNet, lb: modern }, { mode: 'internal', allowedCIDRs: ['192.0.2.0/28'], provider: 'amphora' }],
    ['CIDRs plus the management host FIP as /32, sorted', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: modern }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], provider: 'amphora' }],
    ['bare IPs become /32', { restrict: ['198.51.100.7', '203.0.113.0/24'], mgmtHost: mgmtFip, lb: modern }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'], provider: 'amphora' }],
    ['duplicates collapse', { restrict: ['192.0.2.10'], mgmtHost: mgmtFip, lb: modern }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32'], provider: 'amphora' }],
    ['mgmt_host_cidrs may be a network', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtNet, lb: modern }, { mode: 'restricted', allowedCIDRs: ['192.0.2.0/28', '203.0.113.0/24'], provider: 'amphora' }],
    ['exactly v2.12 is enough', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.12' } }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], provider: 'amphora' }],
    ['unknown cloud (dry-run) still renders the list and pins amphora', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], provider: 'amphora' }],
    ['a cloud offering only amphora', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', providers: ['amphora'] } }, { mode: 'restricted', allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], provider: 'amphora' }],
    ['unknown management address (dry-run) renders the user CIDRs only', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtUnknown, lb: modern }, { mode: 'restricted', allowedCIDRs: ['203.0.113.0/24'], provider: 'amphora' }],
  ])('%s', (_name, input, want) => {
    const p = planKubeApiAccess(input);
    if (!p.ok) throw new Error(p.refusals[0].message);
    expect(p.value).toEqual(want);
    expect(p.reasons.length).toBeGreaterThan(0);
  });

  it.each<[string, KubeApiInput, string[]]>([
    ['[]', { restrict: [], mgmtHost: noMgmt, lb: modern }, ['restrict_kubeapi is []: the kube-API load balancer is open to all addresses']],
    ['["none"]', { restrict: ['none'], mgmtHost: mgmtFip, lb: modern }, [
      'restrict_kubeapi is ["none"] (exclusive internal access): the kube-API load balancer keeps its floating IP and allows only the management host 192.0.2.10/32 (floating IP of server capi-mgmtcluster)',
      'CAPO adds the cluster subnet and router addresses itself, so nodes and in-cluster clients still reach the kube-API',
      'kube-API load balancer pinned to the amphora provider, so that the allowed CIDRs are enforced whatever Octavia\'s default provider is (use_ovn_lb_provider concerns Service load balancers only)',
    ]],
    ['CIDRs, cloud not asked', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtUnknown }, [
      'kube-API restricted to 203.0.113.0/24 plus the management host, whose address is not known: the rendered allowedCIDRs lack it',
      'CAPO adds the cluster subnet and router addresses itself, so nodes and in-cluster clients still reach the kube-API',
      'not checked whether Octavia can enforce allowed CIDRs (cloud not asked)',
      'kube-API load balancer pinned to the amphora provider, so that the allowed CIDRs are enforced whatever Octavia\'s default provider is (use_ovn_lb_provider concerns Service load balancers only)',
    ]],
  ])('the reasons say why: %s', (_n, input, reasons) => {
    expect(planKubeApiAccess(input).reasons).toEqual(reasons);
  });

  it('["none"] without the management host\'s address warns that an empty list is open', () => {
    const p = planKubeApiAccess({ restrict: ['none'], mgmtHost: mgmtUnknown, lb: modern });
    expect(p).toMatchObject({ ok: true, value: { allowedCIDRs: [] } });
    expect(p.ok && p.warnings).toEqual([expect.stringMatching(/CAPO reads an empty list as open/)]);
  });

  it('a CIDR list with a known management host has no warnings', () => {
    const p = planKubeApiAccess({ restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: modern });
    expect(p.ok && p.warnings).toEqual([]);
  });

  it.each<[string, KubeApiInput, string, RegExp]>([
    ['refused when the management host is unknown', { restrict: ['203.0.113.0/24'], mgmtHost: noMgmt, lb: modern },
      'restrict_kubeapi needs the management host\'s address (else the management cluster locks itself out): no Nova server named capi-mgmtcluster in this project', /mgmt_host_cidrs/],
    ['["none"] needs the management host too (it is the only address allowed)', { restrict: ['none'], mgmtHost: noMgmt, lb: modern },
      'restrict_kubeapi needs the management host\'s address (else the management cluster locks itself out): no Nova server named capi-mgmtcluster in this project', /mgmt_host_cidrs/],
    ['refused on a cloud that offers no amphora provider (only amphora honours allowed_cidrs)', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', providers: ['ovn'] } },
      'restrict_kubeapi cannot be enforced: the cloud offers the Octavia providers ovn, and only amphora honours allowed_cidrs (OVN rejects them)', /restrict_kubeapi: \[\]/],
    ['refused on a cloud that offers no provider at all', { restrict: ['none'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', providers: [] } },
      'restrict_kubeapi cannot be enforced: the cloud offers the Octavia providers none, and only amphora honours allowed_cidrs (OVN rejects them)', /restrict_kubeapi: \[\]/],
    ['refused for Octavia older than v2.12 (v2.9 < v2.12 numerically)', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.9' } },
      'restrict_kubeapi cannot be enforced: Octavia v2.9 is older than v2.12 (listener allowed_cidrs); CAPO would leave the kube-API open', /restrict_kubeapi: \[\]/],
    ['refused for v2.11', { restrict: ['none'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.11', providers: ['amphora'] } },
      'restrict_kubeapi cannot be enforced: Octavia v2.11 is older than v2.12 (listener allowed_cidrs); CAPO would leave the kube-API open', /restrict_kubeapi: \[\]/],
    ['refused without Octavia', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: noOctavia },
      'restrict_kubeapi cannot be enforced: the cloud has no Octavia (the catalog has no "load-balancer" service)', /restrict_kubeapi: \[\]/],
    ['refused without Octavia, reason unknown', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { present: false } },
      'restrict_kubeapi cannot be enforced: the cloud has no Octavia (no load-balancer service)', /restrict_kubeapi: \[\]/],
  ])('%s', (_name, input, message, hint) => {
    const p = planKubeApiAccess(input);
    if (p.ok) throw new Error('expected a refusal');
    expect(p.refusals).toHaveLength(1);
    expect(p.refusals[0].message).toBe(message);
    expect(p.refusals[0].hint).toMatch(hint);
  });
});

describe('checkKubeApiLb (what detect reports about the kube-API LB)', () => {
  it('an open kube-API pins nothing, whatever the cloud', () => {
    expect(checkKubeApiLb([], noOctavia)).toMatchObject({ ok: true, value: {} });
  });
  it('a restricted one is pinned to amphora', () => {
    expect(checkKubeApiLb(['10.0.0.0/8'], modern)).toMatchObject({ ok: true, value: { provider: 'amphora' } });
  });
});

describe('kubeApiLbFacts', () => {
  it('takes version and providers from present Octavia facts', () => {
    expect(kubeApiLbFacts(octaviaFacts('2.26', ['amphora', 'ovn']))).toEqual({ octaviaVersion: '2.26', providers: ['amphora', 'ovn'] });
  });
  it('says why Octavia is missing', () => {
    expect(kubeApiLbFacts({ present: false, reason: 'no catalog entry', providers: [], wallabyOrLater: false, allowedCidrs: false })).toEqual({ present: false, reason: 'no catalog entry' });
  });
});
