import { readFileSync } from 'node:fs';
import { decideRealIpCidr, inCidr, serviceLbStatus } from '../../../lib/ingress/real-ip.js';
import { liveCloudConfProblems, parseCloudConf } from '../../../lib/checks/live-check.js';
import { RECORDED } from '../../fakes/fake-tools.js';
import { AMPHORA, OVN, settings, ingressPlan } from './fixtures.js';

const REF = { namespace: 'ingress-nginx', name: 'ingress-nginx-controller' };
const svc = (f: string) => JSON.parse(readFileSync(`${RECORDED}/${f}`, 'utf8')) as unknown;

describe('proxy-real-ip-cidr after the load balancer exists', () => {
  // Amphorae connect to the members from their own ports, never from the VIP (Octavia bug 2016475):
  // trusting only VIP/32 would make nginx ignore every PROXY header. The node CIDRs differ per row, so
  // a decision that ignored node_cidr (or returned the VIP) fails.
  it.each([
    ['Octavia VIP inside node_cidr', '10.20.0.0/16', '10.20.0.17', 'get-service-lb-hostname.json', 'the LB VIP 10.20.0.17 is inside node_cidr'],
    ['Octavia VIP outside node_cidr', '10.8.0.0/20', '10.9.0.17', 'get-service-lb-hostname.json', 'the LB VIP 10.9.0.17 is outside node_cidr: the amphorae still reach the nodes through ports in their subnet'],
    ['no VIP, status shows a floating IP', '172.16.0.0/24', undefined, 'get-service-lb-ip.json', 'LB not found in Octavia; the Service shows 203.0.113.45'],
    ['no VIP, hostname and annotation: the annotated address', '10.8.0.0/20', undefined, 'get-service-lb-hostname.json', 'LB not found in Octavia; the Service shows 203.0.113.45'],
    ['no VIP, nothing shown yet', '10.8.0.0/20', undefined, 'get-service-pending.json', 'LB not found in Octavia; the Service shows no address'],
  ])('%s: node_cidr %s is trusted, never VIP/32', (_n, nodeCidr, vip, file, why) => {
    expect(decideRealIpCidr([nodeCidr], vip, serviceLbStatus(svc(file), REF))).toEqual({
      cidr: nodeCidr,
      reason: `trusting PROXY headers from node_cidr ${nodeCidr}: amphorae send to the nodes from their own ports in the node subnet, not from the VIP (${why})`,
    });
  });

  it('keeps the plan\'s pod_cidr (externalTrafficPolicy Cluster) beside node_cidr, and says why', () => {
    expect(decideRealIpCidr(['10.8.0.0/20', '10.244.0.0/16'], '10.8.0.17', {})).toEqual({
      cidr: '10.8.0.0/20,10.244.0.0/16',
      reason: 'trusting PROXY headers from node_cidr 10.8.0.0/20 and pod_cidr 10.244.0.0/16 (externalTrafficPolicy Cluster: nodes without the proxy pod forward from their pod-network address): amphorae send to the nodes from their own ports in the node subnet, not from the VIP (the LB VIP 10.8.0.17 is inside node_cidr)',
    });
  });

  it('does not trust an internal LB\'s status IP: the node CIDR, not 10.8.3.4/32', () => {
    expect(decideRealIpCidr(['10.30.0.0/22'], undefined, { ip: '10.8.3.4' })).toMatchObject({ cidr: '10.30.0.0/22', reason: expect.stringContaining('the Service shows 10.8.3.4') });
  });

  it('reads status and OCCM annotations from a Service', () => {
    expect(serviceLbStatus(svc('get-service-lb-hostname.json'), REF)).toEqual({ hostname: '203.0.113.45.nip.io', annotatedAddress: '203.0.113.45' });
    expect(serviceLbStatus(svc('get-service-pending.json'), REF)).toEqual({});
    expect(inCidr('10.8.15.255', '10.8.0.0/20')).toBe(true);
    expect(inCidr('10.8.16.0', '10.8.0.0/20')).toBe(false);
  });
});

describe('the live OCCM cloud config against the plan', () => {
  const conf = (lb: string) => `[Global]\nauth-url=https://k:5000/v3\napplication-credential-secret="x"\n\n[LoadBalancer]\n${lb}\n`;
  it.each([
    ['amphora + proxy, hostname on', conf('enable-ingress-hostname=true'), AMPHORA, settings(), []],
    ['amphora + proxy, hostname off', conf('manage-security-groups=true'), AMPHORA, settings(), [/lacks enable-ingress-hostname=true/]],
    ['plan OVN, OCCM on amphora', conf('lb-provider=amphora\ncreate-monitor=true'), OVN, settings(), [/plan uses OVN, but .* lb-provider=amphora/]],
    ['plan OVN, OCCM on OVN', conf('lb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=true'), OVN, settings(), []],
    ['plan OVN, OCCM without monitors', conf('lb-provider="ovn"\nlb-method=SOURCE_IP_PORT'), OVN, settings(), [/create-monitor=true/]],
    ['plan OVN, OCCM on OVN without lb-method', conf('lb-provider=ovn\ncreate-monitor=true'), OVN, settings(), [/lb-method=\(unset: ROUND_ROBIN\); the ovn provider only accepts SOURCE_IP_PORT/]],
    ['plan amphora, OVN\'s lb-method left behind', conf('lb-method=SOURCE_IP_PORT\ncreate-monitor=true\nenable-ingress-hostname=true'), AMPHORA, settings(), [/keeps OVN's lb-method=SOURCE_IP_PORT, which the amphora provider rejects/]],
    ['plan OVN, OCCM on OVN with lb-method=ROUND_ROBIN', conf('lb-provider=ovn\nlb-method=ROUND_ROBIN\ncreate-monitor=true'), OVN, settings(), [/lb-method=ROUND_ROBIN;/]],
    ['plan amphora, OCCM on OVN', conf('lb-provider=ovn\nenable-ingress-hostname=true'), AMPHORA, settings(), [/plan uses amphora, but .*lb-provider=ovn/]],
    // OCCM reads cloud.conf with gcfg: booleans yes/on/1, comments after values, case-insensitive sections.
    ['amphora + proxy, hostname "yes"', conf('enable-ingress-hostname = yes'), AMPHORA, settings(), []],
    ['amphora + proxy, hostname with a trailing comment', conf('enable-ingress-hostname=true ; SCS R4'), AMPHORA, settings(), []],
    ['plan OVN, OCCM on OVN, comments and On/1', conf('lb-provider = ovn  # handle_ovn_lb.sh\nlb-method=SOURCE_IP_PORT\ncreate-monitor = On'), OVN, settings(), []],
    ['plan OVN, section spelled [loadbalancer]', '[loadbalancer]\nlb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=1\n', OVN, settings(), []],
    ['plan amphora, OCCM on OVN in [loadbalancer]', '[loadbalancer]\nlb-provider=ovn\nenable-ingress-hostname=true\n', AMPHORA, settings(), [/plan uses amphora, but .*lb-provider=ovn/]],
    ['plan OVN, create-monitor "false" with a comment', conf('lb-provider=ovn\nlb-method=SOURCE_IP_PORT\ncreate-monitor=false ; off'), OVN, settings(), [/create-monitor=true/]],
  ] as const)('%s', (_n, text, lb, s, expected) => {
    const problems = liveCloudConfProblems(text, lb, ingressPlan(s, lb));
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(problems[i]).toMatch(re));
  });

  it('parses gcfg quoting and comments', () => {
    expect(parseCloudConf('; c\n[Global]\nregion="Region \\"One\\""\n# x\n[LoadBalancer]\nlb-provider = ovn\n')).toEqual({
      Global: { region: 'Region "One"' },
      LoadBalancer: { 'lb-provider': 'ovn' },
    });
  });

  it('parses gcfg inline comments, partial quoting and bare boolean keys', () => {
    expect(parseCloudConf('[LoadBalancer] ; x\nlb-method = SOURCE_IP_PORT ; OVN\nsuffix = "a;b" # c\ncreate-monitor\n')).toEqual({
      LoadBalancer: { 'lb-method': 'SOURCE_IP_PORT', suffix: 'a;b', 'create-monitor': 'true' },
    });
  });
});
