import { orThrow } from '../../../lib/plan/decision.js';
import { planIngress, RETIREMENT_WARNING, type IngressSettings } from '../../../lib/plan/ingress.js';
import { planLoadBalancerOffline } from '../../../lib/plan/loadbalancer.js';
import { PROVIDERS } from '../../../lib/plan/providers.js';
import type { LoadBalancerPlan } from '../../../lib/plan/types.js';

/** planIngress as whole decisions: value, every reason in order, every warning. */
const AMPHORA = orThrow(planLoadBalancerOffline({ use_ovn_lb_provider: false }));
const OVN: LoadBalancerPlan = { provider: 'ovn', ovn: true, cloudConf: { ...PROVIDERS.ovn.cloudConf }, proxyProtocolPossible: false, kubeApiAllowedCidrs: true, reasons: [] };
const BASE: IngressSettings = {
  deploy_nginx_ingress: true, nginx_use_proxy: false, node_cidr: '10.8.0.0/20', deploy_harbor: false, harbor_domain_name: '', occm_loadbalancer: {}, kubernetes_version: 'v1.33.4',
};
const s = (o: Partial<IngressSettings> = {}): IngressSettings => ({ ...BASE, ...o });
const V115 = 'ingress-nginx v1.15.1: the newest bundled release tested with Kubernetes 1.33 (1.31–1.35).';
const MONITOR_ONLY = 'amphora load balancer without PROXY protocol: the health-monitor annotation only (externalTrafficPolicy: Local needs it).';

describe('planIngress: not deployed', () => {
  it.each<[string, Partial<IngressSettings>, string]>([
    ['false', { deploy_nginx_ingress: false }, 'ingress-nginx not deployed: deploy_nginx_ingress is false.'],
    ['false, Harbor without a domain', { deploy_nginx_ingress: false, deploy_harbor: true }, 'ingress-nginx not deployed: deploy_nginx_ingress is false (deploy_harbor is true, but harbor_domain_name is empty, so Harbor needs no ingress).'],
    ['false, Harbor with a blank domain', { deploy_nginx_ingress: false, deploy_harbor: true, harbor_domain_name: '  ' }, 'ingress-nginx not deployed: deploy_nginx_ingress is false (deploy_harbor is true, but harbor_domain_name is empty, so Harbor needs no ingress).'],
    ['false, a domain but no Harbor', { deploy_nginx_ingress: false, harbor_domain_name: 'registry.example.org' }, 'ingress-nginx not deployed: deploy_nginx_ingress is false.'],
  ])('%s', (_n, over, reason) => {
    expect(planIngress(s(over), AMPHORA)).toEqual({
      ok: true, reasons: [reason], warnings: [],
      value: { deploy: false, provider: 'amphora', monitor: 'none', proxyProtocol: false, cloudConf: {}, warnings: [], reasons: [reason] },
    });
  });
});

describe('planIngress: deployed, every reason in order', () => {
  it.each<[string, Partial<IngressSettings>, LoadBalancerPlan, string[]]>([
    ['the default version, monitor annotation', {}, AMPHORA, [V115, MONITOR_ONLY]],
    ['Harbor forces the ingress', { deploy_nginx_ingress: false, deploy_harbor: true, harbor_domain_name: 'registry.example.org' }, AMPHORA,
      [V115, 'deploy_nginx_ingress is false, but Harbor needs an ingress: deploy_harbor is true and harbor_domain_name is set.', MONITOR_ONLY]],
    ['Harbor with a domain does not add a reason when the ingress is on anyway', { deploy_harbor: true, harbor_domain_name: 'registry.example.org' }, AMPHORA, [V115, MONITOR_ONLY]],
    ['a pinned version', { deploy_nginx_ingress: 'v1.14.5' }, AMPHORA, ['ingress-nginx v1.14.5: pinned by deploy_nginx_ingress.', MONITOR_ONLY]],
    ['a Kubernetes no bundled release is tested with', { kubernetes_version: 'v1.40.0' }, AMPHORA,
      ['ingress-nginx v1.15.1: no bundled release is tested with Kubernetes v1.40.0; using the closest.', MONITOR_ONLY]],
    ['create-monitor on: upstream unchanged', { occm_loadbalancer: { 'create-monitor': true } }, AMPHORA,
      [V115, 'The upstream manifest unchanged.', 'amphora load balancer without PROXY protocol: create-monitor is on in cloud.conf, so no annotation is needed.']],
    ['OVN: upstream unchanged', {}, OVN,
      [V115, 'OVN load balancer: the upstream manifest unchanged.', 'OVN load balancer: health monitors (TCP) come from cloud.conf create-monitor=true; OVN keeps client IPs without PROXY protocol.']],
  ])('%s', (_n, over, lb, reasons) => {
    const d = planIngress(s(over), lb);
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.reasons).toEqual(reasons);
    expect(d.value.reasons).toEqual(reasons);
    expect(d.value.warnings).toEqual(d.warnings);
  });

  it('the whole plan of amphora + PROXY', () => {
    const d = planIngress(s({ nginx_use_proxy: true, node_cidr: '10.20.0.0/16' }), AMPHORA);
    expect(d.ok && { ...d.value, version: d.value.version?.version, reasons: undefined, warnings: undefined }).toEqual({
      deploy: true, provider: 'amphora', version: 'v1.15.1', variant: 'amphora-proxy', monitor: 'service annotation', proxyProtocol: true, externalTrafficPolicy: 'Local',
      trustedProxyCidrs: ['10.20.0.0/16'], cloudConf: { 'enable-ingress-hostname': 'true' }, reasons: undefined, warnings: undefined,
    });
  });

  it('without PROXY there are no trusted PROXY sources', () => {
    const d = planIngress(s(), AMPHORA);
    expect(d.ok && d.value).not.toHaveProperty('trustedProxyCidrs');
  });
});

describe('planIngress: warnings', () => {
  it.each<[Partial<IngressSettings>, string[]]>([
    [{}, [RETIREMENT_WARNING]],
    [{ kubernetes_version: 'v1.24.1' }, ['ingress-nginx v1.9.6 is tested with Kubernetes 1.25–1.29, not with kubernetes_version v1.24.1', RETIREMENT_WARNING]],
    [{ deploy_nginx_ingress: 'v1.9.6' }, ['ingress-nginx v1.9.6 is tested with Kubernetes 1.25–1.29, not with kubernetes_version v1.33.4', RETIREMENT_WARNING]],
    [{ kubernetes_version: 'latest' }, ['ingress-nginx v1.15.1 is tested with Kubernetes 1.31–1.35, not with kubernetes_version latest', RETIREMENT_WARNING]],
  ])('%j', (over, warnings) => {
    expect(planIngress(s(over), AMPHORA)).toMatchObject({ ok: true, warnings });
  });
});

describe('planIngress: refusals', () => {
  it('an unbundled version: the message, the bundled ones as problems, the hint', () => {
    expect(planIngress(s({ deploy_nginx_ingress: 'v1.12.0' }), AMPHORA)).toEqual({
      ok: false, reasons: [],
      refusals: [{
        message: 'deploy_nginx_ingress: v1.12.0 is not a bundled ingress-nginx version',
        problems: ['v1.15.1 (Kubernetes 1.31–1.35)', 'v1.14.5 (Kubernetes 1.30–1.34)', 'v1.9.6 (Kubernetes 1.25–1.29)'],
        hint: 'set deploy_nginx_ingress to true (the version matching kubernetes_version) or to one of the bundled versions above; kaas downloads nothing at apply time',
      }],
    });
  });

  it('PROXY without node_cidr keeps the version reason', () => {
    const d = planIngress(s({ nginx_use_proxy: true, node_cidr: '' }), AMPHORA);
    expect(d).toMatchObject({ ok: false, reasons: [V115] });
  });
});
