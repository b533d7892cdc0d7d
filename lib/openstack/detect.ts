import type { Capabilities, NeutronCapabilities, NovaCapabilities, OctaviaCapabilities } from './types.js';
import type { Connection } from './connection.js';
import { ALLOWED_CIDRS_VERSION, compareVersions, WALLABY_VERSION } from './api-versions.js';
import { highestVersion, listProviders, listVersions, octaviaRoot } from './octavia.js';
import { listExternalNetworks, neutronRoot } from './neutron.js';

export { ALLOWED_CIDRS_VERSION, WALLABY_VERSION };

/** Plain facts derived from Octavia's highest version and its provider names. */
export function octaviaFacts(maxVersion: string | undefined, providers: string[], endpoint?: string): OctaviaCapabilities {
  const atLeast = (v: string) => maxVersion !== undefined && compareVersions(maxVersion, v) >= 0;
  return {
    present: true,
    endpoint,
    maxVersion,
    providers,
    // Octavia's API does not say which driver is its default; "amphora" is upstream's default.
    defaultProvider: providers.includes('amphora') ? 'amphora' : undefined,
    wallabyOrLater: atLeast(WALLABY_VERSION),
    allowedCidrs: atLeast(ALLOWED_CIDRS_VERSION),
  };
}

async function detectOctavia(c: Connection): Promise<OctaviaCapabilities> {
  const ep = c.endpoint('load-balancer');
  if (!ep.found) return { present: false, reason: ep.reason, providers: [], wallabyOrLater: false, allowedCidrs: false };
  const root = octaviaRoot(ep.url);
  const [versions, providers] = await Promise.all([listVersions(c, root), listProviders(c, root)]);
  return octaviaFacts(highestVersion(versions), providers.map((p) => p.name), root);
}

async function detectNeutron(c: Connection): Promise<NeutronCapabilities> {
  const ep = c.endpoint('network');
  if (!ep.found) return { present: false, reason: ep.reason };
  const root = neutronRoot(ep.url);
  const nets = await listExternalNetworks(c, root);
  return { present: true, endpoint: root, externalNetworks: nets.map((n) => ({ id: n.id, name: n.name })) };
}

function detectNova(c: Connection): NovaCapabilities {
  const ep = c.endpoint('compute');
  return ep.found ? { present: true, endpoint: ep.url } : { present: false, reason: ep.reason };
}

/**
 * Reads what the LB plan and later commands need to know about the cloud. After authentication
 * it costs at most 3 HTTP requests, all sent at once: Octavia `GET /` and `GET
 * /v2/lbaas/providers`, Neutron external networks. Nova is judged from the catalog alone.
 * A service missing from the catalog is reported with its reason, not thrown.
 */
export async function detectCapabilities(c: Connection, now: () => Date = () => new Date()): Promise<Capabilities> {
  const [octavia, neutron] = await Promise.all([detectOctavia(c), detectNeutron(c)]);
  return {
    cloud: c.cloud.name,
    region: c.cloud.regionName,
    detectedAt: now().toISOString(),
    octavia,
    neutron,
    nova: detectNova(c),
  };
}
