/** One service of the Keystone v3 catalog, as the token body carries it. */
export interface CatalogService {
  type: string;
  name?: string;
  id?: string;
  endpoints: { id?: string; interface: string; region?: string; region_id?: string; url: string }[];
}

/** An endpoint, or the reason there is none (a normal answer, not an error). */
export type EndpointLookup = { found: true; url: string } | { found: false; reason: string };

/**
 * Picks the endpoint of a service type for an interface and region (region_id, falling back to
 * the deprecated `region` field). With no region configured, the first matching endpoint wins.
 */
export function findEndpoint(catalog: CatalogService[], type: string, iface: string, region?: string): EndpointLookup {
  const services = catalog.filter((s) => s.type === type);
  if (services.length === 0) return { found: false, reason: `the catalog has no "${type}" service` };
  const all = services.flatMap((s) => s.endpoints ?? []);
  const byIface = all.filter((e) => e.interface === iface);
  if (byIface.length === 0) {
    const ifaces = [...new Set(all.map((e) => e.interface))].sort().join(', ');
    return { found: false, reason: `the "${type}" service has no ${iface} endpoint (interfaces: ${ifaces || 'none'})` };
  }
  const match = region ? byIface.filter((e) => (e.region_id ?? e.region) === region) : byIface;
  if (match.length === 0) {
    const regions = [...new Set(byIface.map((e) => e.region_id ?? e.region ?? '?'))].sort().join(', ');
    return { found: false, reason: `the "${type}" service has no ${iface} endpoint in region ${region} (regions: ${regions})` };
  }
  return { found: true, url: match[0].url.replace(/\/+$/, '') };
}

/**
 * The API root of an endpoint whose catalog URL may carry a version suffix: Octavia's and
 * Neutron's catalog URLs are normally bare, but some clouds register ".../v2.0" or ".../v2".
 */
export function stripVersionSuffix(url: string): string {
  return url.replace(/\/+$/, '').replace(/\/v\d+(\.\d+)?$/, '');
}

/** Joins a root and a path without doubling or losing slashes. */
export function joinUrl(root: string, p: string): string {
  return `${root.replace(/\/+$/, '')}/${p.replace(/^\/+/, '')}`;
}
