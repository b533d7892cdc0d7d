import { stripVersionSuffix } from './catalog.js';
import type { Connection } from './connection.js';

/** The API root of a Glance catalog URL (strips a "/v2" suffix some clouds register). */
export function glanceRoot(endpointUrl: string): string {
  return stripVersionSuffix(endpointUrl);
}

/** Upper bound of pages read (1000 images each): a cloud with more is not listed further. */
export const GLANCE_MAX_PAGES = 20;

/**
 * Names of the active images the project can use (own, shared, public, community), following
 * Glance v2's `next` links page by page: Glance returns at most `limit` images per page and a
 * `next` path while more remain.
 */
export async function listImageNames(c: Connection, root: string): Promise<string[]> {
  const names: string[] = [];
  let path: string | undefined = '/v2/images?limit=1000&status=active';
  for (let page = 0; path && page < GLANCE_MAX_PAGES; page++) {
    const res: { data: { images?: { name: string }[]; next?: string } } = await c.call('image', root, { method: 'GET', path });
    names.push(...(res.data.images ?? []).map((i) => i.name));
    path = res.data.next;
  }
  return names;
}
