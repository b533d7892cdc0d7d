import { canaryMatches, convertIngresses, type IngressPath } from '../../../lib/gateway/migrate/convert.js';
import type { KubeObject } from '../../../lib/render/documents.js';

/** Canary Ingresses merge only into the primary rule with the same host, path and pathType (ingress-nginx's rule). */
const GW = { name: 'kaas', namespace: 'envoy-gateway-system', httpListener: 'http', className: 'kaas' };
const be = (name: string) => ({ service: { name, port: { number: 80 } } });
const ingress = (name: string, paths: IngressPath[], annotations: Record<string, string> = {}): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress', metadata: { name, namespace: 'shop', annotations },
  spec: { ingressClassName: 'nginx', rules: [{ host: 'shop.example.org', http: { paths } }] },
} as KubeObject);
type Rule = { matches: { path: { value: string } }[]; backendRefs: { name: string; weight?: number }[] };
const rulesOf = (objects: KubeObject[]) => ((objects.find((o) => o.kind === 'HTTPRoute' && o.metadata.name === 'shop')!.spec as { rules: Rule[] }).rules)
  .map((r) => ({ path: r.matches[0].path.value, backends: r.backendRefs.map((b) => `${b.name}${b.weight === undefined ? '' : `:${b.weight}`}`) }));

describe('migrate-ingress canary merge', () => {
  it('the newcomer\'s example: canary "/" weight 10 goes to the "/" rule only, not to "/api"', () => {
    const primary = ingress('shop', [{ path: '/api', pathType: 'Prefix', backend: be('api') }, { path: '/', pathType: 'Prefix', backend: be('frontend') }]);
    const canary = ingress('shop-canary', [{ path: '/', pathType: 'Prefix', backend: be('frontend-v2') }], {
      'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '10',
    });
    const c = convertIngresses([primary, canary], GW);
    expect(rulesOf(c.objects)).toEqual([
      { path: '/api', backends: ['api'] },
      { path: '/', backends: ['frontend:90', 'frontend-v2:10'] },
    ]);
    expect(c.notConverted.filter((n) => n.ingress === 'shop/shop-canary')).toEqual([]);
  });

  it('a canary whose path no primary has exactly (only a longer one) is reported as having no primary', () => {
    const primary = ingress('shop', [{ path: '/api/v1', pathType: 'Prefix', backend: be('api') }]);
    const canary = ingress('shop-canary', [{ path: '/api', pathType: 'Prefix', backend: be('api-v2') }], {
      'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '10',
    });
    const c = convertIngresses([primary, canary], GW);
    expect(rulesOf(c.objects)).toEqual([{ path: '/api/v1', backends: ['api'] }]);
    expect(c.notConverted).toEqual([{ ingress: 'shop/shop-canary', annotation: 'nginx.ingress.kubernetes.io/canary', reason: expect.stringMatching(/same host, path and pathType/) }]);
  });

  it.each<[string, IngressPath, IngressPath, boolean]>([
    ['same path and pathType', { path: '/', pathType: 'Prefix', backend: {} }, { path: '/', pathType: 'Prefix', backend: {} }, true],
    ['a prefix of the primary path', { path: '/', pathType: 'Prefix', backend: {} }, { path: '/api', pathType: 'Prefix', backend: {} }, false],
    ['a longer path', { path: '/api/v2', pathType: 'Prefix', backend: {} }, { path: '/api', pathType: 'Prefix', backend: {} }, false],
    ['another pathType', { path: '/api', pathType: 'Exact', backend: {} }, { path: '/api', pathType: 'Prefix', backend: {} }, false],
    ['ImplementationSpecific vs Prefix', { path: '/', pathType: 'ImplementationSpecific', backend: {} }, { path: '/', pathType: 'Prefix', backend: {} }, false],
    ['empty path reads as "/"', { path: '', pathType: 'Prefix', backend: {} }, { path: '/', pathType: 'Prefix', backend: {} }, true],
  ])('%s', (_, canary, primary, merges) => {
    expect(canaryMatches(canary, primary)).toBe(merges);
  });
});
