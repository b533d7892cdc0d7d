import { readFileSync } from 'node:fs';
import { decideRealIpCidr, inCidr, occmLoadBalancerName, serviceLbStatus } from '../../../lib/ingress/real-ip.js';
import { liveCloudConfProblems, parseCloudConf } from '../../../lib/ingress/live-check.js';
import { planIngress } from '../../../lib/plan/ingress.js';
import { RECORDED } from '../../fakes/fake-tools.js';
import { AMPHORA, OVN, settings } from './fixtures.js';

const svc = (f: string) => JSON.parse(readFileSync(`${RECORDED}/${f}`, 'utf8')) as unknown;

describe('narrowing proxy-real-ip-cidr', () => {
  it('names the LB as OCCM does', () => {
    expect(occmLoadBalancerName('demo')).toBe('kube_service_demo_ingress-nginx_ingress-nginx-controller');
  });

  it.each([
    ['Octavia VIP inside node_cidr', '10.8.0.17', 'get-service-lb-hostname.json', '10.8.0.17/32', true],
    ['Octavia VIP outside node_cidr', '10.9.0.17', 'get-service-lb-hostname.json', '10.8.0.0/20', false],
    ['no VIP, status shows a floating IP', undefined, 'get-service-lb-ip.json', '10.8.0.0/20', false],
    ['no VIP, status hostname only', undefined, 'get-service-lb-hostname.json', '10.8.0.0/20', false],
  ])('%s → %s', (_n, vip, file, cidr, narrowed) => {
    expect(decideRealIpCidr('10.8.0.0/20', vip, serviceLbStatus(svc(file)))).toMatchObject({ cidr, narrowed });
  });

  it('uses an internal LB\'s status IP (the VIP) when Octavia was not asked', () => {
    expect(decideRealIpCidr('10.8.0.0/20', undefined, { ip: '10.8.3.4' })).toMatchObject({ cidr: '10.8.3.4/32', narrowed: true });
  });

  it('reads status and OCCM annotations from a Service', () => {
    expect(serviceLbStatus(svc('get-service-lb-hostname.json'))).toEqual({ hostname: '203.0.113.45.nip.io', annotatedAddress: '203.0.113.45' });
    expect(serviceLbStatus(svc('get-service-pending.json'))).toEqual({});
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
    ['plan OVN, OCCM without monitors', conf('lb-provider="ovn"'), OVN, settings(), [/create-monitor=true/]],
    ['plan amphora, OCCM on OVN', conf('lb-provider=ovn\nenable-ingress-hostname=true'), AMPHORA, settings(), [/plan uses amphora, but .*lb-provider=ovn/]],
  ] as const)('%s', (_n, text, lb, s, expected) => {
    const problems = liveCloudConfProblems(text, lb, planIngress(s, lb));
    expect(problems).toHaveLength(expected.length);
    expected.forEach((re, i) => expect(problems[i]).toMatch(re));
  });

  it('parses gcfg quoting and comments', () => {
    expect(parseCloudConf('; c\n[Global]\nregion="Region \\"One\\""\n# x\n[LoadBalancer]\nlb-provider = ovn\n')).toEqual({
      Global: { region: 'Region "One"' },
      LoadBalancer: { 'lb-provider': 'ovn' },
    });
  });
});
