import { PlanError } from '../../../lib/errors.js';
import { defaultIngressVersion, kubernetesMinor } from '../../../lib/plan/ingress-versions.js';
import { RETIREMENT_WARNING } from '../../../lib/plan/ingress.js';
import type { IngressSettings } from '../../../lib/plan/ingress.js';
import { AMPHORA, OVN, settings, ingressPlan } from './fixtures.js';

describe('planIngress: whether to deploy', () => {
  it.each([
    ['deploy_nginx_ingress true', settings(), true, /v1\.15\.1/],
    ['a bundled version', settings({ deploy_nginx_ingress: 'v1.14.5' }), true, /pinned by deploy_nginx_ingress/],
    ['false', settings({ deploy_nginx_ingress: false }), false, /deploy_nginx_ingress is false\.$/],
    ['false, Harbor without domain', settings({ deploy_nginx_ingress: false, deploy_harbor: true }), false, /harbor_domain_name is empty/],
    ['false, but Harbor with a domain', settings({ deploy_nginx_ingress: false, deploy_harbor: true, harbor_domain_name: 'registry.example.org' }), true, /Harbor needs an ingress/],
  ])('%s → deploy %s', (_name, s, deploy, reason) => {
    const p = ingressPlan(s, AMPHORA);
    expect(p.deploy).toBe(deploy);
    expect(p.reasons.join('\n')).toMatch(reason);
  });
});

describe('planIngress: the variant', () => {
  it.each([
    //  name                                   settings                                                                 lb        variant             monitor                      proxy  cloud.conf
    ['amphora + proxy', settings(), AMPHORA, 'amphora-proxy', 'service annotation', true, { 'enable-ingress-hostname': 'true' }],
    ['amphora, no proxy', settings({ nginx_use_proxy: false }), AMPHORA, 'amphora-monitor', 'service annotation', false, {}],
    ['amphora, no proxy, create-monitor on', settings({ nginx_use_proxy: false, occm_loadbalancer: { 'create-monitor': true } }), AMPHORA, 'amphora-plain', 'cloud.conf create-monitor', false, {}],
    ['amphora, no proxy, create-monitor "true"', settings({ nginx_use_proxy: false, occm_loadbalancer: { 'create-monitor': 'true' } }), AMPHORA, 'amphora-plain', 'cloud.conf create-monitor', false, {}],
    ['amphora + proxy, create-monitor on', settings({ occm_loadbalancer: { 'create-monitor': true } }), AMPHORA, 'amphora-proxy', 'service annotation', true, { 'enable-ingress-hostname': 'true' }],
    ['OVN (proxy setting ignored)', settings(), OVN, 'ovn', 'cloud.conf create-monitor', false, {}],
    ['OVN, no proxy', settings({ nginx_use_proxy: false }), OVN, 'ovn', 'cloud.conf create-monitor', false, {}],
  ] as const)('%s → %s', (_n, s, lb, variant, monitor, proxy, cloudConf) => {
    const p = ingressPlan(s, lb);
    expect([p.variant, p.monitor, p.proxyProtocol, p.cloudConf]).toEqual([variant, monitor, proxy, cloudConf]);
    expect(p.trustedProxyCidrs).toEqual(proxy ? ['10.8.0.0/20'] : undefined);
  });

  // Found on the testbed's data path (amphora-proxy-cluster, 2026-11-28): with only node_cidr trusted, the
  // requests a pod-less node forwarded arrived from its tunnel address and nginx ignored their PROXY header.
  it.each([
    ['with pod_cidr', { pod_cidr: '10.244.0.0/16' }, ['10.8.0.0/20', '10.244.0.0/16']],
    ['another pod_cidr', { pod_cidr: '192.168.0.0/16', node_cidr: '10.20.0.0/16' }, ['10.20.0.0/16', '192.168.0.0/16']],
    ['without pod_cidr (older callers): node_cidr alone', {}, ['10.8.0.0/20']],
  ] as [string, Partial<IngressSettings>, string[]][])('amphora + proxy, monitors off (externalTrafficPolicy Cluster), %s: PROXY headers trusted from %s', (_n, over, trusted) => {
    const p = ingressPlan(settings({ ...over, occm_loadbalancer: { 'create-monitor': false } }), AMPHORA);
    expect([p.variant, p.externalTrafficPolicy, p.trustedProxyCidrs]).toEqual(['amphora-proxy-cluster', 'Cluster', trusted]);
    const why = /a node without the proxy pod forwards the connection to it from its own pod-network address .* trusts PROXY headers from pod_cidr \S+ too; a pod can then forge a client address/;
    if (trusted.length > 1) expect(p.reasons.join('\n')).toMatch(why);
    else expect(p.reasons.join('\n')).not.toMatch(why);
    // With the monitor (externalTrafficPolicy Local) nothing is forwarded between nodes: node_cidr only.
    expect(ingressPlan(settings(over), AMPHORA).trustedProxyCidrs).toEqual([over.node_cidr ?? '10.8.0.0/20']);
  });

  it('says why PROXY protocol is not used with OVN', () => {
    expect(ingressPlan(settings(), OVN).reasons.join('\n')).toMatch(/OVN keeps client IPs/);
  });

  it('refuses PROXY protocol without node_cidr instead of writing proxy-real-ip-cidr: "null"', () => {
    expect(() => ingressPlan(settings({ node_cidr: '' }), AMPHORA)).toThrow(/node_cidr is empty/);
  });

  it('needs no node_cidr without PROXY protocol', () => {
    expect(ingressPlan(settings({ node_cidr: '', nginx_use_proxy: false }), AMPHORA).variant).toBe('amphora-monitor');
  });
});

describe('planIngress: the version', () => {
  it.each([
    ['v1.35.x', 'v1.15.1', true],
    ['v1.33.2', 'v1.15.1', true],
    ['v1.31.x', 'v1.15.1', true],
    ['v1.30.x', 'v1.14.5', true],
    ['v1.29.x', 'v1.9.6', true],
    ['v1.25.x', 'v1.9.6', true],
    ['v1.24.x', 'v1.9.6', false],
    ['v1.36.x', 'v1.15.1', false],
  ])('kubernetes %s → the default is %s (in range: %s)', (k8s, version, inRange) => {
    expect(defaultIngressVersion(kubernetesMinor(k8s))).toEqual({ pick: expect.objectContaining({ version }), inRange });
    const p = ingressPlan(settings({ kubernetes_version: k8s }), AMPHORA);
    expect(p.version!.version).toBe(version);
    expect(p.warnings.some((w) => w.includes('is tested with Kubernetes'))).toBe(!inRange);
  });

  it('warns when a pinned version is outside the cluster\'s Kubernetes range', () => {
    const p = ingressPlan(settings({ deploy_nginx_ingress: 'v1.9.6', kubernetes_version: 'v1.33.x' }), AMPHORA);
    expect(p.warnings).toContain('ingress-nginx v1.9.6 is tested with Kubernetes 1.25–1.29, not with kubernetes_version v1.33.x');
  });

  it('always warns that ingress-nginx is retired upstream', () => {
    expect(ingressPlan(settings(), AMPHORA).warnings).toContain(RETIREMENT_WARNING);
  });

  it('rejects a version that is not bundled, listing the bundled ones (exit 2)', () => {
    let err: unknown;
    try {
      ingressPlan(settings({ deploy_nginx_ingress: 'v1.12.0' }), AMPHORA);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(PlanError);
    expect((err as PlanError).exitCode).toBe(2);
    expect((err as PlanError).message).toBe('deploy_nginx_ingress: v1.12.0 is not a bundled ingress-nginx version');
    expect((err as PlanError).problems).toEqual(['v1.15.1 (Kubernetes 1.31–1.35)', 'v1.14.5 (Kubernetes 1.30–1.34)', 'v1.9.6 (Kubernetes 1.25–1.29)']);
  });
});
