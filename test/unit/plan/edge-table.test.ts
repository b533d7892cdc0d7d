import { orThrow } from '../../../lib/plan/decision.js';
import { planEdgeLb } from '../../../lib/plan/edge.js';
import { planGateway } from '../../../lib/plan/gateway.js';
import { planIngress } from '../../../lib/plan/ingress.js';
import { EDGE_TABLE } from './edge-table.js';

/** One table, three readers: the edge decision, and the two edge proxies that carry it out. */
const base = { node_cidr: '10.8.0.0/20', kubernetes_version: 'v1.33.x' };

describe('the edge decision table', () => {
  it.each(EDGE_TABLE.map((r) => [r.name, r] as const))('planEdgeLb: %s', (_n, r) => {
    const d = planEdgeLb({ useProxy: r.useProxy, nodeCidr: base.node_cidr, occm: r.occm }, r.lb);
    expect(orThrow(d)).toMatchObject(r.edge);
    expect(d.reasons.join('\n')).toMatch(r.why);
  });

  it.each(EDGE_TABLE.map((r) => [r.name, r] as const))('ingress-nginx: %s', (_n, r) => {
    const p = orThrow(planIngress({ ...base, deploy_nginx_ingress: true, nginx_use_proxy: r.useProxy, occm_loadbalancer: r.occm, deploy_harbor: false, harbor_domain_name: '' }, r.lb));
    expect([p.variant, p.proxyProtocol, p.monitor, p.externalTrafficPolicy, p.cloudConf]).toEqual([r.ingress, r.edge.proxyProtocol, r.edge.monitor, r.edge.externalTrafficPolicy, r.edge.cloudConf]);
    expect(p.reasons.join('\n')).toMatch(r.why);
  });

  it.each(EDGE_TABLE.map((r) => [r.name, r] as const))('gateway: %s', (_n, r) => {
    const d = planGateway({ ...base, deploy_gateway: true, gateway_class: 'kaas', nginx_use_proxy: r.useProxy, occm_loadbalancer: r.occm }, r.lb);
    const g = orThrow(d);
    expect(g.envoyService).toEqual({ type: 'LoadBalancer', externalTrafficPolicy: r.edge.externalTrafficPolicy, annotations: r.edge.annotations });
    expect([g.clientTrafficPolicyProxy, g.cloudConf]).toEqual([r.gatewayProxyPolicy, r.edge.cloudConf]);
    expect(d.reasons.join('\n')).toMatch(r.why);
  });
});
