import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { runKaas, tempDir } from '../support/cli.js';

/**
 * An Ingress backend that names its Service port: the HTTPRoute must carry the number (the Gateway
 * API CRD's CEL rule "Must have port for Service reference"), so the built CLI resolves it from the
 * Services it reads, or exits 2 with nothing written.
 */
const INGRESS = `apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: web, namespace: shop}
spec:
  ingressClassName: nginx
  rules:
  - host: shop.example.org
    http:
      paths:
      - {path: /, pathType: Prefix, backend: {service: {name: web, port: {name: http}}}}
`;
const SERVICE = `apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec:
  ports:
  - {name: http, port: 80, targetPort: 8080}
`;

describe('kaas migrate-ingress with named Service ports (built CLI)', () => {
  it('resolves the name from a Service in --file: the route carries the Service port', () => {
    const dir = tempDir('kaas-migrate-in-');
    writeFileSync(path.join(dir, 'ingress.yaml'), INGRESS);
    writeFileSync(path.join(dir, 'service.yaml'), SERVICE);
    const r = runKaas(['migrate-ingress', '--file', dir]);
    expect(r.stderr).not.toMatch(/error:/);
    expect(r.code).toBe(0);
    const route = parseAllDocuments(r.stdout).map((d) => d.toJS() as { kind: string; spec: { rules: { backendRefs: object[] }[] } }).find((o) => o?.kind === 'HTTPRoute')!;
    expect(route.spec.rules[0].backendRefs).toEqual([{ name: 'web', port: 80 }]);
  });

  it('reads Ingresses and Services from a shell pipe (--file /dev/stdin), as kubectl get ingress,service -o yaml prints them', () => {
    const file = path.join(tempDir('kaas-migrate-in-'), 'list.yaml');
    writeFileSync(file, `apiVersion: v1\nkind: List\nitems:\n${[INGRESS, SERVICE].map((d) => `- ${d.trimEnd().split('\n').join('\n  ')}`).join('\n')}\n`);
    // A shell's pipe: node's own child stdin is a socket, which /dev/stdin cannot be opened on.
    const r = runKaas(['migrate-ingress', '--file', '/dev/stdin'], { prefix: ['sh', '-c', 'cat "$0" | "$@"', file] });
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('      backendRefs:\n        - name: web\n          port: 80\n');
  });

  it('exits 2 naming the Ingress, path, Service and port, with how to fix, and writes nothing', () => {
    const dir = tempDir('kaas-migrate-in-');
    const out = path.join(tempDir('kaas-migrate-out-'), 'routes');
    writeFileSync(path.join(dir, 'ingress.yaml'), INGRESS);
    const r = runKaas(['migrate-ingress', '--file', dir, '--output-dir', out]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toContain('error: 1 Ingress backend(s) name a Service port kaas cannot resolve to its number');
    expect(r.stderr).toContain('  - shop/web host shop.example.org path / (spec.rules[0].http.paths[0]): Service web port "http": no Service shop/web among the Services read\n');
    expect(r.stderr).toContain('hint: add the Service manifests to --file, name the cluster (kaas migrate-ingress <cluster> --file …) to read its live Services, or give the backend port.number instead of port.name');
    expect(existsSync(out)).toBe(false);
  });
});
