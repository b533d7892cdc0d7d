import { kubeApiOnLiveCluster, type LiveApiLb } from '../../../lib/plan/kubeapi-live.js';

const CIDRS = ['198.51.100.7/32', '203.0.113.0/24'];

describe('restrict_kubeapi on a live cluster: keep the live provider, refuse only what CAPO cannot enforce', () => {
  it.each<[string, LiveApiLb, string[] | undefined, string | undefined | 'refused', RegExp]>([
    // name, live LB facts, wanted allowedCIDRs → provider rendered (or refused), reason
    ['open → restricted, LB really amphora (provider unset)', { id: 'lb1', octaviaProvider: 'amphora' }, CIDRS, undefined, /runs on the Octavia provider amphora: allowedCIDRs updated in place \(provider left unset as it is live\)/],
    ['open → restricted, LB really ovn (Octavia default)', { id: 'lb1', octaviaProvider: 'ovn' }, CIDRS, 'refused', /uses the Octavia provider ovn, which has no VIP ACLs/],
    ['restricted, pinned to amphora: no lookup needed', { specProvider: 'amphora' }, CIDRS, 'amphora', /provider amphora: allowedCIDRs updated in place \(provider amphora kept\)/],
    ['restricted → open: amphora kept, allowedCIDRs removed', { specProvider: 'amphora' }, undefined, 'amphora', /open to all addresses \(allowedCIDRs removed in place, provider amphora kept\)/],
    ['open stays open', {}, [], undefined, /open to all addresses/],
    ['provider not known (dry-run without the cloud): allowed, with a warning', { id: 'lb1', unknown: 'the cloud is not asked' }, CIDRS, undefined, /not known \(the cloud is not asked\); CAPO applies allowedCIDRs only if it is not ovn/],
    ['LB spec says ovn', { specProvider: 'ovn' }, CIDRS, 'refused', /ovn/],
  ])('%s', (_n, lb, cidrs, expected, text) => {
    const d = kubeApiOnLiveCluster('demo', lb, cidrs);
    if (expected === 'refused') {
      expect(d.ok).toBe(false);
      expect(!d.ok && d.refusals[0].message).toMatch(text);
      expect(!d.ok && d.refusals[0].hint).toMatch(/create a new cluster with restrict_kubeapi set/);
    } else {
      expect(d.ok && d.value).toBe(expected);
      expect(d.ok && [...d.reasons, ...d.warnings].join('\n')).toMatch(text);
    }
  });
});
