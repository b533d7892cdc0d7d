import type { KubeObject } from '../../render/documents.js';
import { HTTP_LISTENER } from '../../plan/gateway.js';
import type { GatewayRef } from './convert.js';

/**
 * The objects migrate-ingress shares between Ingresses: the kaas Gateway with its listener list, and the
 * ReferenceGrants for the TLS Secrets the listeners use and for the Services extAuth names across namespaces.
 */

const ROUTE_API = 'gateway.networking.k8s.io/v1';

/** `host` → a DNS-label-safe slug for object and listener names. */
export function slug(host: string): string {
  return host.replace(/^\*\./, 'wildcard.').replace(/[^a-z0-9]+/gi, '-').toLowerCase().replace(/^-|-$/g, '').slice(0, 60) || 'any';
}

/**
 * The Gateway (only when a listener was added) and the ReferenceGrants, sorted by namespace.
 * `tlsGrants`: Secret namespace → Secret names; `serviceGrants`: Service namespace → policy namespace → Service names.
 */
export function sharedObjects(
  gw: GatewayRef, listeners: Map<string, Record<string, unknown>>, tlsGrants: Map<string, Set<string>>, serviceGrants: Map<string, Map<string, Set<string>>>,
): KubeObject[] {
  const extra: KubeObject[] = [];
  if (listeners.size) {
    // The whole listener list, apply-gateway's http listener first: a client-side `kubectl apply -f` or a
    // GitOps sync replaces the list, and without it every route on `http` would be detached. Not a
    // ListenerSet (standard in Gateway API v1.6.1): it needs the Gateway's allowedListeners opened, and a
    // Gateway-wide ClientTrafficPolicy (kaas's PROXY protocol) is not documented to reach its listeners in
    // Envoy Gateway v1.9 (envoyproxy/gateway#8092, #9026 added ListenerSet targets with their own priority).
    extra.push({
      apiVersion: ROUTE_API, kind: 'Gateway', metadata: { name: gw.name, namespace: gw.namespace },
      spec: { gatewayClassName: gw.className, listeners: [{ ...structuredClone(HTTP_LISTENER), name: gw.httpListener }, ...listeners.values()] },
    } as KubeObject);
  }
  for (const [ns, secrets] of [...tlsGrants].sort(([a], [b]) => a.localeCompare(b))) {
    extra.push({
      apiVersion: 'gateway.networking.k8s.io/v1', kind: 'ReferenceGrant',
      metadata: { name: `${gw.name}-gateway-tls`, namespace: ns },
      spec: {
        from: [{ group: 'gateway.networking.k8s.io', kind: 'Gateway', namespace: gw.namespace }],
        to: [...secrets].sort().map((name) => ({ group: '', kind: 'Secret', name })),
      },
    } as KubeObject);
  }
  for (const [to, froms] of [...serviceGrants].sort(([a], [b]) => a.localeCompare(b))) {
    for (const [from, names] of [...froms].sort(([a], [b]) => a.localeCompare(b))) {
      extra.push({
        apiVersion: 'gateway.networking.k8s.io/v1', kind: 'ReferenceGrant',
        metadata: { name: `kaas-extauth-from-${slug(from)}`, namespace: to },
        spec: {
          from: [{ group: 'gateway.envoyproxy.io', kind: 'SecurityPolicy', namespace: from }],
          to: [...names].sort().map((name) => ({ group: '', kind: 'Service', name })),
        },
      } as KubeObject);
    }
  }
  return extra;
}
