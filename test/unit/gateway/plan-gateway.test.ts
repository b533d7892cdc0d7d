import { PlanError } from '../../../lib/errors.js';
import { orThrow } from '../../../lib/plan/decision.js';
import { planGateway, type GatewaySettings } from '../../../lib/plan/gateway.js';
import { AMPHORA } from '../plan/edge-table.js';

const s = (o: Partial<GatewaySettings> = {}): GatewaySettings => ({
  deploy_gateway: true, gateway_class: 'kaas', nginx_use_proxy: true, node_cidr: '10.8.0.0/20', occm_loadbalancer: {}, kubernetes_version: 'v1.33.x', ...o,
});

describe('planGateway: whether and which version', () => {
  it.each([
    ['true', s(), true, /the newest bundled release/],
    ['a bundled version', s({ deploy_gateway: 'v1.9.0' }), true, /pinned by deploy_gateway/],
    ['"1.9.0" without the v', s({ deploy_gateway: '1.9.0' }), true, /pinned by deploy_gateway/],
    ['false', s({ deploy_gateway: false }), false, /deploy_gateway is false/],
  ])('%s → deploy %s', (_n, settings, deploy, why) => {
    const d = planGateway(settings, AMPHORA);
    expect(orThrow(d).deploy).toBe(deploy);
    expect(d.reasons.join('\n')).toMatch(why);
  });

  it('refuses an unbundled version, listing the bundled ones (exit 2)', () => {
    const d = planGateway(s({ deploy_gateway: 'v1.2.0' }), AMPHORA);
    expect(d.ok).toBe(false);
    const err = (() => { try { orThrow(d); } catch (e) { return e; } })() as PlanError;
    expect(err).toBeInstanceOf(PlanError);
    expect(err.exitCode).toBe(2);
    expect(err.problems).toContain('v1.9.0 (Gateway API v1.6.1)');
  });

  it('refuses Kubernetes older than 1.30 (the bundle needs ValidatingAdmissionPolicy v1)', () => {
    expect(() => orThrow(planGateway(s({ kubernetes_version: 'v1.29.x' }), AMPHORA))).toThrow(/needs ValidatingAdmissionPolicy v1/);
  });

  it.each([['v1.31.x', true], ['v1.33.x', false], ['v1.36.2', false], ['v1.37.x', true]])('Kubernetes %s outside the tested range warns: %s', (k, warns) => {
    const d = planGateway(s({ kubernetes_version: k }), AMPHORA);
    expect(d.ok && d.warnings.some((w) => /is tested with Kubernetes 1\.33–1\.36/.test(w))).toBe(warns);
  });

  it('refuses a gateway_class that is no object name', () => {
    expect(() => orThrow(planGateway(s({ gateway_class: 'Kaas_Class' }), AMPHORA))).toThrow(/gateway_class "Kaas_Class" is not a valid Kubernetes object name/);
  });

  it('refuses PROXY protocol without node_cidr, as ingress-nginx does', () => {
    expect(() => orThrow(planGateway(s({ node_cidr: '' }), AMPHORA))).toThrow(/node_cidr is empty/);
  });
});
