import YAML from 'yaml';

/**
 * Is this kubeconfig the Cluster's? Before kaas writes to or deletes in a workload cluster it
 * compares the kubeconfig's server with the Cluster's `spec.controlPlaneEndpoint` (host and port,
 * which Cluster API copies from the infrastructure cluster: CAPI v1.12 api/core/v1beta2
 * cluster_types.go `APIEndpoint`), and, where both are known, the kubeconfig's certificate
 * authority with the `<cluster>-ca` Secret's `tls.crt` (the CA Cluster API keeps for it): a floating
 * IP freed by a deleted cluster can come back as another cluster's endpoint, its CA cannot.
 * Everything here is pure; the callers read the files and the objects.
 */

/** What a kubeconfig says about the cluster it reaches (of `context`, else its current context). */
export interface KubeconfigServer {
  server?: string;
  /** PEM text of `certificate-authority-data`, when the kubeconfig carries the CA inline. */
  ca?: string;
  /** Why the server could not be read (not YAML, no such context, …). */
  problem?: string;
}

type Doc = {
  'current-context'?: string;
  contexts?: { name?: string; context?: { cluster?: string } }[];
  clusters?: { name?: string; cluster?: { server?: string; 'certificate-authority-data'?: string } }[];
};

/** The server and CA of a kubeconfig's context (`context`, else current-context, else its only cluster). */
export function kubeconfigServer(text: string, context?: string): KubeconfigServer {
  let doc: Doc;
  try {
    doc = (YAML.parse(text) ?? {}) as Doc;
  } catch {
    return { problem: 'it is not valid YAML' };
  }
  if (typeof doc !== 'object' || Array.isArray(doc)) return { problem: 'it is not a kubeconfig' };
  const name = context ?? doc['current-context'];
  let clusterName: string | undefined;
  if (name) {
    const ctx = (doc.contexts ?? []).find((c) => c.name === name);
    if (!ctx) return { problem: `it has no context ${name}` };
    clusterName = ctx.context?.cluster;
  } else if ((doc.clusters ?? []).length === 1) {
    clusterName = doc.clusters![0].name;
  } else {
    return { problem: 'it has no current-context' };
  }
  const c = (doc.clusters ?? []).find((x) => x.name === clusterName)?.cluster;
  if (!c?.server) return { problem: `its cluster ${clusterName ?? '(none)'} has no server` };
  const data = c['certificate-authority-data'];
  return { server: c.server, ca: data ? Buffer.from(data, 'base64').toString('utf8') : undefined };
}

/** The Cluster as the management cluster has it. */
export interface ClusterEndpoint {
  /** `namespace/name`, for messages. */
  id: string;
  host?: string;
  port?: number;
  /** PEM of the `<cluster>-ca` Secret's tls.crt; undefined = not read (not readable, or not asked). */
  ca?: string;
}

/** The verdict: the kubeconfig is the Cluster's (with notes on what was not compared), or why not. */
export type EndpointVerdict = { ok: true; notes: string[] } | { ok: false; reason: string };

/** `host:port` as a URL writes it (IPv6 in brackets). */
export function endpointText(host: string, port?: number): string {
  const h = host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
  return port ? `${h}:${port}` : h;
}

const hostOf = (h: string) => h.toLowerCase().replace(/^\[(.*)\]$/, '$1');
/** The base64 bodies of the certificates in a PEM text, whitespace removed. */
const certBodies = (pem: string) => [...pem.matchAll(/-----BEGIN CERTIFICATE-----([\s\S]*?)-----END CERTIFICATE-----/g)].map((m) => m[1].replace(/\s+/g, ''));

/** Compares a kubeconfig's server (and CA) with the Cluster's endpoint (and CA). Pure. */
export function checkEndpoint(k: KubeconfigServer, c: ClusterEndpoint): EndpointVerdict {
  if (!k.server) return { ok: false, reason: `its server cannot be read (${k.problem ?? 'no server'})` };
  if (!c.host) return { ok: false, reason: `Cluster ${c.id} has no spec.controlPlaneEndpoint yet (not provisioned), so no kubeconfig reaches it` };
  let url: URL;
  try {
    url = new URL(k.server);
  } catch {
    return { ok: false, reason: `its server ${k.server} is not a URL` };
  }
  const port = Number(url.port || (url.protocol === 'http:' ? 80 : 443));
  const want = endpointText(c.host, c.port);
  if (hostOf(url.hostname) !== hostOf(c.host) || (c.port && port !== c.port)) {
    return { ok: false, reason: `it reaches ${k.server}, but Cluster ${c.id} is at ${want} (spec.controlPlaneEndpoint)` };
  }
  const notes: string[] = [];
  if (c.ca === undefined) notes.push(`the CA was not compared (the Secret ${c.id}-ca was not read)`);
  else if (k.ca === undefined) notes.push('the CA was not compared (the kubeconfig has no certificate-authority-data)');
  else {
    const have = new Set(certBodies(k.ca));
    const theirs = certBodies(c.ca);
    if (!theirs.length) notes.push(`the CA was not compared (the Secret ${c.id}-ca has no certificate in tls.crt)`);
    else if (!theirs.some((b) => have.has(b))) {
      return { ok: false, reason: `it reaches ${k.server}, Cluster ${c.id}'s endpoint, but its certificate authority is not the Cluster's (Secret ${c.id}-ca): the address now belongs to another cluster` };
    }
  }
  return { ok: true, notes };
}
