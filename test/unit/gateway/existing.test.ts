import { EG_CONTROLLER, judgeExisting, type FoundClass, type FoundCrd } from '../../../lib/gateway/existing.js';

/** apply-gateway's judgement of the Gateway API CRDs and GatewayClasses a cluster already has (newcomer M5). */
const B = { gatewayApi: 'v1.6.1', gatewayClass: 'kaas' };
const crd = (name: string, version?: string, channel?: string): FoundCrd => ({ name: `${name}.gateway.networking.k8s.io`, version, channel });
const cilium: FoundClass = { name: 'cilium', controller: 'io.cilium/gateway-controller' };

describe('apply-gateway and what is already on the cluster', () => {
  it.each<[string, FoundCrd[], FoundClass[], { line?: RegExp; refusal?: RegExp; conflict?: RegExp }]>([
    ['nothing yet', [], [], { line: /^no Gateway API CRDs yet: installing v1.6.1 \(standard channel\)$/ }],
    ['the same bundle', [crd('gateways', 'v1.6.1', 'standard')], [], { line: /^Gateway API CRDs gateways: v1.6.1 standard: kept/ }],
    ['an older standard bundle (SCS with Cilium)', [crd('gateways', 'v1.2.1', 'standard'), crd('httproutes', 'v1.2.1', 'standard')], [cilium],
      { line: /^Gateway API CRDs gateways, httproutes: v1.2.1 standard: upgraded to v1.6.1$/ }],
    ['an experimental bundle', [crd('gateways', 'v1.2.1', 'experimental')], [], { refusal: /^CRD gateways.gateway.networking.k8s.io is experimental channel v1.2.1: the standard channel drops its experimental fields/ }],
    ['a newer bundle', [crd('gateways', 'v1.7.0', 'standard')], [], { refusal: /is v1.7.0, newer than kaas's v1.6.1: the apply would downgrade it/ }],
    ['CRDs without bundle annotations', [crd('gateways')], [], { line: /no bundle version \(not from a Gateway API release\): replaced by v1.6.1 standard/ }],
    ['another GatewayClass', [crd('gatewayclasses', 'v1.6.1', 'standard')], [cilium], { line: /^GatewayClass cilium \(controller io.cilium\/gateway-controller\) is left alone/ }],
    ['a GatewayClass of kaas\'s name and another controller', [crd('gatewayclasses', 'v1.6.1', 'standard')], [{ name: 'kaas', controller: 'io.cilium/gateway-controller' }], { conflict: /^GatewayClass kaas exists with controller io.cilium\/gateway-controller/ }],
    ['kaas\'s own GatewayClass', [crd('gatewayclasses', 'v1.6.1', 'standard')], [{ name: 'kaas', controller: EG_CONTROLLER }], {}],
  ])('%s', (_, crds, classes, want) => {
    const j = judgeExisting(crds, classes, B);
    if (want.line) expect(j.lines).toContainEqual(expect.stringMatching(want.line));
    expect(j.refusals).toEqual(want.refusal ? [expect.stringMatching(want.refusal)] : []);
    expect(j.conflicts).toEqual(want.conflict ? [expect.stringMatching(want.conflict)] : []);
  });
});
