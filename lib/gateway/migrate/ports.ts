import type { KubeObject } from '../../render/documents.js';

/**
 * Named Service ports of Ingress backends → port numbers, pure. An Ingress backend may name the
 * Service's port (`backend.service.port.name`); an HTTPRoute backendRef must carry the number (the
 * Gateway API CRD's CEL rule "Must have port for Service reference"), and the number it wants is
 * the Service's own port (`spec.ports[].port`), not the targetPort.
 */

/** One entry of a Service's `spec.ports`, as far as resolution needs it. */
export interface ServicePort {
  name?: string;
  port: number;
  targetPort?: number | string;
}

/** The Services migrate-ingress can see (input files, or the live cluster), by `namespace/name`. */
export type ServiceIndex = Map<string, ServicePort[]>;

/** A named port resolved to the Service port number, or the reason it could not be. */
export type PortResolution = { port: number } | { problem: string };

interface ServiceSpec { ports?: { name?: string; port?: number; targetPort?: number | string }[] }

/** Indexes Services (kind Service of core v1; anything else is ignored) by namespace/name. */
export function serviceIndex(services: KubeObject[]): ServiceIndex {
  const index: ServiceIndex = new Map();
  for (const s of services) {
    if (s.kind !== 'Service' || s.apiVersion !== 'v1' || typeof s.metadata?.name !== 'string') continue;
    const ports = ((s.spec as ServiceSpec | undefined)?.ports ?? [])
      .filter((p) => typeof p.port === 'number')
      .map((p) => ({ ...(p.name ? { name: p.name } : {}), port: p.port!, ...(p.targetPort !== undefined ? { targetPort: p.targetPort } : {}) }));
    index.set(`${s.metadata.namespace ?? 'default'}/${s.metadata.name}`, ports);
  }
  return index;
}

/** Merges indexes; an entry of an earlier one wins (the input files over the live cluster). */
export function mergeIndexes(...indexes: ServiceIndex[]): ServiceIndex {
  const out: ServiceIndex = new Map();
  for (const index of indexes) for (const [k, v] of index) if (!out.has(k)) out.set(k, v);
  return out;
}

const shown = (p: ServicePort) => `${p.port}${p.name ? ` "${p.name}"` : ' (unnamed)'}${typeof p.targetPort === 'string' ? ` targetPort "${p.targetPort}"` : ''}`;

/**
 * The Service port an Ingress backend's port name selects, the way ingress-nginx selects it: the
 * first of the Service's ports whose name, or whose named targetPort, equals it
 * (ingress-nginx internal/ingress/controller/controller.go, serviceEndpoints). The Service is
 * always in the Ingress's namespace (an Ingress cannot reference another namespace).
 */
export function resolveNamedPort(index: ServiceIndex, namespace: string, service: string, portName: string): PortResolution {
  const ports = index.get(`${namespace}/${service}`);
  if (!ports) {
    const elsewhere = [...index.keys()].filter((k) => k.endsWith(`/${service}`)).map((k) => k.slice(0, -service.length - 1)).sort();
    const also = elsewhere.length ? ` (a Service ${service} was read in namespace ${elsewhere.join(', ')}: an Ingress backend is always in the Ingress's namespace)` : '';
    return { problem: `no Service ${namespace}/${service} among the Services read${also}` };
  }
  const hit = ports.find((p) => p.name === portName || p.targetPort === portName);
  if (hit) return { port: hit.port };
  return { problem: `Service ${namespace}/${service} has no port named "${portName}" (its ports: ${ports.map(shown).join(', ') || 'none'})` };
}
