import { convertIngresses } from '../../../lib/gateway/migrate/convert.js';
import { mergeIndexes, resolveNamedPort, serviceIndex, type ServicePort } from '../../../lib/gateway/migrate/ports.js';
import type { KubeObject } from '../../../lib/render/documents.js';

const GW = { name: 'kaas', namespace: 'envoy-gateway-system', httpListener: 'http', className: 'kaas' };

const service = (ns: string, name: string, ports: ServicePort[]): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: ns }, spec: { ports } });
const port = (p: { number?: number; name?: string }) => ({ service: { name: 'web', port: p } });
const ingress = (o: { ns?: string; name?: string; annotations?: Record<string, string>; backend?: object; defaultBackend?: object }): KubeObject => ({
  apiVersion: 'networking.k8s.io/v1', kind: 'Ingress',
  metadata: { name: o.name ?? 'shop', namespace: o.ns ?? 'shop', ...(o.annotations ? { annotations: o.annotations } : {}) },
  spec: {
    ingressClassName: 'nginx',
    ...(o.defaultBackend ? { defaultBackend: o.defaultBackend } : {}),
    ...(o.backend ? { rules: [{ host: 'shop.example.org', http: { paths: [{ path: '/', pathType: 'Prefix', backend: o.backend }] } }] } : {}),
  },
});
/** The backendRefs of the converted routes. */
const refs = (objects: KubeObject[]) => objects.filter((x) => x.kind === 'HTTPRoute').flatMap((r) => (r.spec as { rules: { backendRefs?: object[] }[] }).rules.flatMap((x) => x.backendRefs ?? []));

const WEB = [{ name: 'metrics', port: 9090, targetPort: 9090 }, { name: 'http', port: 80, targetPort: 8080 }];

describe('migrate-ingress: a backend that names its Service port', () => {
  // [case, Services kaas sees, the Ingress's backend port, the backendRef written, the problem (none when resolved)]
  it.each<[string, KubeObject[], { number?: number; name?: string }, object, string | undefined]>([
    ['a port number is kept as it is, no Service needed', [], { number: 8080 }, { name: 'web', port: 8080 }, undefined],
    ['a name resolves to the Service port (spec.ports[].port), not its targetPort, not the first port', [service('shop', 'web', WEB)], { name: 'http' }, { name: 'web', port: 80 }, undefined],
    ['no Service of that name read: unresolved', [], { name: 'http' }, { name: 'web' }, 'no Service shop/web among the Services read'],
    ['a Service of that name in another namespace does not count', [service('other', 'web', WEB)], { name: 'http' }, { name: 'web' },
      'no Service shop/web among the Services read (a Service web was read in namespace other: an Ingress backend is always in the Ingress\'s namespace)'],
    ['a name matching none of the Service\'s ports: unresolved, listing them', [service('shop', 'web', WEB)], { name: 'https' }, { name: 'web' },
      'Service shop/web has no port named "https" (its ports: 9090 "metrics", 80 "http")'],
    ['a Service with one unnamed port does not match a port name', [service('shop', 'web', [{ port: 8000, targetPort: 8000 }])], { name: 'http' }, { name: 'web' },
      'Service shop/web has no port named "http" (its ports: 8000 (unnamed))'],
    ['one unnamed port whose targetPort has the name matches, as ingress-nginx matches it', [service('shop', 'web', [{ port: 8000, targetPort: 'http' }])], { name: 'http' }, { name: 'web', port: 8000 }, undefined],
  ])('%s', (_what, services, p, ref, problem) => {
    const c = convertIngresses([ingress({ backend: port(p) })], GW, { services: serviceIndex(services) });
    expect(refs(c.objects)).toEqual([ref]);
    expect(c.unresolvedPorts).toEqual(problem === undefined ? [] : [{
      ingress: 'shop/shop', namespace: 'shop', where: 'host shop.example.org path / (spec.rules[0].http.paths[0])', service: 'web', portName: p.name, problem,
    }]);
    // A named port is resolved or refused, never only noted.
    expect(c.notConverted).toEqual([]);
  });

  it('a default backend that names its port says so', () => {
    const c = convertIngresses([ingress({ defaultBackend: port({ name: 'http' }) })], GW);
    expect(c.unresolvedPorts.map((u) => u.where)).toEqual(['spec.defaultBackend']);
  });

  it('a canary backend resolves into the weighted backendRefs of its primary', () => {
    const canary = ingress({ name: 'shop-canary', annotations: { 'nginx.ingress.kubernetes.io/canary': 'true', 'nginx.ingress.kubernetes.io/canary-weight': '10' }, backend: { service: { name: 'web-v2', port: { name: 'http' } } } });
    const c = convertIngresses([ingress({ backend: port({ name: 'http' }) }), canary], GW, { services: serviceIndex([service('shop', 'web', WEB), service('shop', 'web-v2', [{ name: 'http', port: 81 }])]) });
    expect(c.unresolvedPorts).toEqual([]);
    expect(refs(c.objects)).toEqual([{ name: 'web', port: 80, weight: 90 }, { name: 'web-v2', port: 81, weight: 10 }]);
  });

  it('a canary without a primary is written nowhere, so its named port need not resolve', () => {
    const canary = ingress({ name: 'lonely', annotations: { 'nginx.ingress.kubernetes.io/canary': 'true' }, backend: port({ name: 'http' }) });
    const c = convertIngresses([canary], GW);
    expect(c.unresolvedPorts).toEqual([]);
    expect(c.notConverted.map((n) => n.annotation)).toEqual(['nginx.ingress.kubernetes.io/canary']);
  });

  it('Services without a namespace are in default; other kinds and apiVersions are not Services', () => {
    const index = serviceIndex([
      { apiVersion: 'v1', kind: 'Service', metadata: { name: 'a' }, spec: { ports: [{ name: 'http', port: 80 }] } } as KubeObject,
      { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'b', namespace: 'x' } } as KubeObject,
      { apiVersion: 'serving.knative.dev/v1', kind: 'Service', metadata: { name: 'c', namespace: 'x' } } as KubeObject,
    ]);
    expect([...index.keys()]).toEqual(['default/a']);
    expect(resolveNamedPort(index, 'default', 'a', 'http')).toEqual({ port: 80 });
  });

  it('where the input files and the cluster both have the Service, the input files win', () => {
    const files = serviceIndex([service('shop', 'web', [{ name: 'http', port: 80 }])]);
    const live = serviceIndex([service('shop', 'web', [{ name: 'http', port: 8080 }]), service('shop', 'api', [{ name: 'http', port: 9000 }])]);
    const both = mergeIndexes(files, live);
    expect(resolveNamedPort(both, 'shop', 'web', 'http')).toEqual({ port: 80 });
    expect(resolveNamedPort(both, 'shop', 'api', 'http')).toEqual({ port: 9000 });
  });
});
