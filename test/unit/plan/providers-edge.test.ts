import { orThrow } from '../../../lib/plan/decision.js';
import { MONITOR_ANNOTATION, PROXY_ANNOTATION, planEdgeLb, type EdgeSettings } from '../../../lib/plan/edge.js';
import { algorithmAllowed, allowedCidrsEnforced, monitorsSupported, monitorTypeAllowed, providerFacts } from '../../../lib/plan/providers.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

const AMPHORA: LoadBalancerPlan = { provider: 'amphora', ovn: false, cloudConf: {}, proxyProtocolPossible: true, kubeApiAllowedCidrs: true, reasons: [] };
const OVN: LoadBalancerPlan = {
  provider: 'ovn', ovn: true, cloudConf: { ...providerFacts('ovn').cloudConf }, proxyProtocolPossible: false, kubeApiAllowedCidrs: false, reasons: [],
};
const s = (o: Partial<EdgeSettings> = {}): EdgeSettings => ({ useProxy: false, nodeCidr: '10.8.0.0/20', occm: {}, ...o });

describe('provider table', () => {
  it.each([
    ['amphora', 'ROUND_ROBIN', true], ['amphora', 'SOURCE_IP_PORT', false],
    ['ovn', 'SOURCE_IP_PORT', true], ['ovn', 'round_robin', false], ['ovn', 'LEAST_CONNECTIONS', false],
  ])('%s accepts lb-method %s: %s', (p, alg, ok) => expect(algorithmAllowed(providerFacts(p), alg)).toBe(ok));

  it.each([
    ['ovn', 'TCP', true], ['ovn', 'UDP-CONNECT', true], ['ovn', 'HTTP', false], ['ovn', 'HTTPS', false], ['amphora', 'HTTP', true],
  ])('%s accepts monitor type %s: %s', (p, t, ok) => expect(monitorTypeAllowed(providerFacts(p), t)).toBe(ok));

  it.each([
    ['ovn', '2.23', false], ['ovn', '2.24', true], ['ovn', '2.30', true], ['amphora', '2.0', true], ['ovn', undefined, true],
  ])('%s monitors on Octavia %s: %s', (p, v, ok) => expect(monitorsSupported(providerFacts(p), v)).toBe(ok));

  it.each([
    ['amphora', '2.11', false], ['amphora', '2.12', true], ['ovn', '2.30', false],
  ])('%s enforces allowed_cidrs on Octavia %s: %s', (p, v, ok) => expect(allowedCidrsEnforced(providerFacts(p), v)).toBe(ok));

  it('unknown providers and the "octavia" alias get amphora facts', () => {
    expect(providerFacts('octavia').name).toBe('amphora');
    expect(providerFacts(undefined).name).toBe('amphora');
  });
});

describe('planEdgeLb: one decision for every edge proxy', () => {
  it.each([
    ['ovn', OVN, s({ useProxy: true }), { proxyProtocol: false, monitor: 'cloud.conf create-monitor', externalTrafficPolicy: 'Local', clientIpKept: true }],
    ['amphora + proxy', AMPHORA, s({ useProxy: true }), { proxyProtocol: true, monitor: 'service annotation', clientIpKept: true, trustedProxyCidrs: ['10.8.0.0/20'] }],
    ['amphora, no proxy', AMPHORA, s(), { proxyProtocol: false, monitor: 'service annotation', clientIpKept: false }],
    ['amphora, create-monitor on', AMPHORA, s({ occm: { 'create-monitor': 'true' } }), { proxyProtocol: false, monitor: 'cloud.conf create-monitor' }],
  ])('%s', (_n, lb, settings, want) => {
    expect(orThrow(planEdgeLb(settings, lb))).toMatchObject(want);
  });

  it('PROXY on amphora sets both annotations and the hostname workaround', () => {
    const p = orThrow(planEdgeLb(s({ useProxy: true }), AMPHORA));
    expect(p.annotations).toEqual({ [MONITOR_ANNOTATION]: 'true', [PROXY_ANNOTATION]: 'true' });
    expect(p.cloudConf).toEqual({ 'enable-ingress-hostname': 'true' });
  });

  it('PROXY without node_cidr is refused with a hint', () => {
    const d = planEdgeLb(s({ useProxy: true, nodeCidr: '' }), AMPHORA);
    expect(d.ok).toBe(false);
    if (!d.ok) expect(d.refusals[0].hint).toMatch(/node_cidr/);
    expect(() => orThrow(d)).toThrow(/node_cidr is empty/);
  });
});
