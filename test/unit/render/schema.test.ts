import { modelModule } from '../../../lib/render/k8s-models.js';
import { validateObjects } from '../../../lib/render/schema.js';
import type { KubeObject } from '../../../lib/render/documents.js';
import { RenderError } from '../../../lib/render/template.js';

describe('the kubernetes-models class of a core kind', () => {
  it.each<[string, string, string]>([
    ['v1', 'ConfigMap', 'ConfigMap'],
    ['apps/v1', 'Deployment', 'Deployment'],
    ['networking.k8s.io/v1', 'IngressClass', 'IngressClass'],
    ['autoscaling/v2', 'HorizontalPodAutoscaler', 'HorizontalPodAutoscaler'],
  ])('%s %s is loaded', async (apiVersion, kind, exported) => {
    expect(typeof (await modelModule(apiVersion, kind))?.[exported]).toBe('function');
  });

  it.each<[string, string, string]>([
    ['a group kaas does not validate', 'cluster.x-k8s.io/v1beta1', 'Cluster'],
    ['a kind kubernetes-models does not have', 'v1', 'Gadget'],
    ['a kind in lower case (kinds are PascalCase)', 'v1', 'configMap'],
    ['a kind that is a path', 'v1', '../apps/v1/Deployment'],
    ['a kind with a suffix', 'v1', 'ConfigMap.js'],
    ['no kind', 'v1', ''],
  ])('is undefined for %s', async (_n, apiVersion, kind) => {
    expect(await modelModule(apiVersion, kind)).toBeUndefined();
  });
});

describe('validating core kinds against the Kubernetes schema', () => {
  const svc = (name: string, port: unknown): KubeObject => ({ apiVersion: 'v1', kind: 'Service', metadata: { name, namespace: 'n' }, spec: { ports: [{ port }] } });

  it('names every invalid object with its problem in one error, sorted, and the source', async () => {
    let err: RenderError | undefined;
    try {
      await validateObjects([svc('b', '80'), svc('ok', 80), svc('a', 'x')], 'ingress-nginx v1.14.1 (amphora)');
    } catch (e) {
      err = e as RenderError;
    }
    expect(err).toBeInstanceOf(RenderError);
    expect(err?.message).toBe('ingress-nginx v1.14.1 (amphora): objects do not match the Kubernetes schema');
    expect(err?.problems).toHaveLength(2);
    expect(err?.problems[0]).toMatch(/^Service\/n\/a: .*port must be integer/);
    expect(err?.problems[1]).toMatch(/^Service\/n\/b: .*port must be integer/);
  });

  it('lists what it validated and what it skipped, in the given order', async () => {
    const objects: KubeObject[] = [
      { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'z' } },
      { apiVersion: 'gateway.networking.k8s.io/v1', kind: 'Gateway', metadata: { name: 'g', namespace: 'n' } },
      svc('s', 443),
      { apiVersion: 'v1', kind: 'Gadget', metadata: { name: 'g' } },
    ];
    expect(await validateObjects(objects, 't')).toEqual({ validated: ['Namespace/z', 'Service/n/s'], skipped: ['Gateway/n/g', 'Gadget/g'] });
  });
});
