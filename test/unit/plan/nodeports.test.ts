import { planNodePortSources, type NodePortInput } from '../../../lib/plan/nodeports.js';

const base: NodePortInput = { ovn: true, nodeCidr: '10.8.0.0/20', extra: [], occm: { 'manage-security-groups': true }, occmVersion: 'v1.33.0' };

describe('planNodePortSources: who reaches the worker NodePorts with OVN load balancers', () => {
  it.each<[string, Partial<NodePortInput>, string[], RegExp]>([
    ['amphora: no rule', { ovn: false }, [], /^$/],
    ['OVN, OCCM ≥ v1.28 with manage-security-groups: no rule (CAPO opens the node subnet itself)', {}, [], /CAPO's own rule for the cluster subnet[\s\S]*loadBalancerSourceRanges/],
    ['manage-security-groups left to kaas\'s default (true)', { occm: {} }, [], /loadBalancerSourceRanges/],
    ['manage-security-groups "false" (string)', { occm: { 'manage-security-groups': 'false' } }, ['0.0.0.0/0'], /manage-security-groups is false/],
    ['OCCM v1.27 opens only the LB subnet', { occmVersion: 'v1.27.3' }, ['0.0.0.0/0'], /v1\.27\.3 opens NodePorts only to the LB subnet/],
    ['OCCM not deployed by kaas', { occmVersion: undefined }, ['0.0.0.0/0'], /deploy_occm is false/],
    ['extra CIDRs added, without duplicates', { extra: ['198.51.100.0/24', '198.51.100.0/24'] }, ['198.51.100.0/24'], /ovn_nodeport_cidrs adds/],
    ['0.0.0.0/0 in the extras covers everything', { extra: ['0.0.0.0/0'] }, ['0.0.0.0/0'], /ovn_nodeport_cidrs adds 0\.0\.0\.0\/0/],
  ])('%s', (_n, input, want, reason) => {
    const d = planNodePortSources({ ...base, ...input });
    if (!d.ok) throw new Error('refused');
    expect(d.value).toEqual(want);
    expect(d.reasons.join(' ')).toMatch(reason);
  });

  it('warns when OCCM puts the LB or members into a subnet kaas does not know', () => {
    const d = planNodePortSources({ ...base, occm: { 'manage-security-groups': true, 'member-subnet-id': 'abc' } });
    expect(d.ok && d.warnings).toEqual(['occm_loadbalancer.member-subnet-id puts OVN load balancers into subnet abc, whose CIDR kaas does not look up: add it to ovn_nodeport_cidrs']);
  });
});
