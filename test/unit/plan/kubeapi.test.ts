import { planKubeApiAccess, type KubeApiInput, type MgmtHostAddresses } from '../../../lib/plan/kubeapi.js';

const mgmtFip: MgmtHostAddresses = { found: true, cidrs: ['192.0.2.10'], source: 'floating IP of server capi-mgmtcluster' };
const noMgmt: MgmtHostAddresses = { found: false, reason: 'no Nova server named capi-mgmtcluster in this project' };
const modern = { octaviaVersion: '2.26' };

describe('planKubeApiAccess (restrict_kubeapi → OpenStackCluster.spec)', () => {
  it.each<[string, KubeApiInput, { allowedCIDRs?: string[]; disableFloatingIP: boolean }]>([
    ['[] leaves the kube-API open (no allowedCIDRs)', { restrict: [], mgmtHost: noMgmt, lb: modern }, { allowedCIDRs: undefined, disableFloatingIP: false }],
    ['["none"] means internal only: no floating IP', { restrict: ['none'], mgmtHost: noMgmt, lb: modern }, { allowedCIDRs: undefined, disableFloatingIP: true }],
    ['["none"] works even where allowed_cidrs do not (OVN)', { restrict: ['none'], mgmtHost: noMgmt, lb: { octaviaVersion: '2.26', provider: 'ovn' } }, { allowedCIDRs: undefined, disableFloatingIP: true }],
    ['CIDRs plus the management host FIP as /32, sorted', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: modern }, { allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], disableFloatingIP: false }],
    ['bare IPs become /32', { restrict: ['198.51.100.7', '203.0.113.0/24'], mgmtHost: mgmtFip, lb: modern }, { allowedCIDRs: ['192.0.2.10/32', '198.51.100.7/32', '203.0.113.0/24'], disableFloatingIP: false }],
    ['duplicates collapse', { restrict: ['192.0.2.10'], mgmtHost: mgmtFip, lb: modern }, { allowedCIDRs: ['192.0.2.10/32'], disableFloatingIP: false }],
    ['mgmt_host_cidrs may be a network', { restrict: ['203.0.113.0/24'], mgmtHost: { found: true, cidrs: ['192.0.2.0/28'], source: 'mgmt_host_cidrs' }, lb: modern }, { allowedCIDRs: ['192.0.2.0/28', '203.0.113.0/24'], disableFloatingIP: false }],
    ['exactly v2.12 is enough', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.12' } }, { allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], disableFloatingIP: false }],
    ['unknown cloud (dry-run) still renders the list', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip }, { allowedCIDRs: ['192.0.2.10/32', '203.0.113.0/24'], disableFloatingIP: false }],
  ])('%s', (_name, input, want) => {
    const p = planKubeApiAccess(input);
    if (!p.ok) throw new Error(p.error);
    expect({ allowedCIDRs: p.allowedCIDRs, disableFloatingIP: p.disableFloatingIP }).toEqual(want);
    expect(p.reasons.length).toBeGreaterThan(0);
  });

  it.each<[string, KubeApiInput, string | undefined]>([
    ['a CIDR list pins the API load balancer to amphora, so Octavia\'s default (maybe ovn) cannot skip the list', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', providers: ['amphora', 'ovn'] } }, 'amphora'],
    ['the pin holds when the providers are not known (dry-run)', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip }, 'amphora'],
    ['an open kube-API leaves the provider to Octavia', { restrict: [], mgmtHost: noMgmt, lb: modern }, undefined],
    ['["none"] leaves the provider to Octavia (no allowed CIDRs to enforce)', { restrict: ['none'], mgmtHost: noMgmt, lb: { octaviaVersion: '2.26', providers: ['ovn'] } }, undefined],
  ])('%s', (_name, input, provider) => {
    const p = planKubeApiAccess(input);
    if (!p.ok) throw new Error(p.error);
    expect(p.provider).toBe(provider);
  });

  it('["none"] warns that the management cluster needs a route to the private kube-API address', () => {
    const p = planKubeApiAccess({ restrict: ['none'], mgmtHost: noMgmt, lb: modern });
    expect(p.reasons.join('\n')).toMatch(/management cluster must reach the load balancer's private address.*Cluster API cannot manage/);
  });

  it.each<[string, KubeApiInput, RegExp, RegExp]>([
    ['refused when the management host is unknown', { restrict: ['203.0.113.0/24'], mgmtHost: noMgmt, lb: modern }, /management host's address.*no Nova server named capi-mgmtcluster/, /mgmt_host_cidrs/],
    ['refused for an OVN kube-API load balancer', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', provider: 'ovn' } }, /OVN provider.*501/, /restrict_kubeapi: \[\]/],
    ['refused on a cloud that offers no amphora provider (only amphora honours allowed_cidrs)', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.26', providers: ['ovn'] } }, /offers the Octavia providers ovn, and only amphora honours allowed_cidrs/, /restrict_kubeapi: \[\]/],
    ['refused for Octavia older than v2.12 (v2.9 < v2.12 numerically)', { restrict: ['203.0.113.0/24'], mgmtHost: mgmtFip, lb: { octaviaVersion: '2.9' } }, /v2\.9 is older than v2\.12/, /\["none"\]/],
  ])('%s', (_name, input, error, hint) => {
    const p = planKubeApiAccess(input);
    expect(p.ok).toBe(false);
    if (p.ok) return;
    expect(p.error).toMatch(error);
    expect(p.hint).toMatch(hint);
  });
});
