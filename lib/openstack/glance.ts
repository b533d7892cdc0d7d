import { stripVersionSuffix } from './catalog.js';
import type { Connection } from './connection.js';

/** An image (fields kaas uses). */
export interface Image {
  id: string;
  name: string;
  status?: string;
  visibility?: string;
  [key: string]: unknown;
}

/** Images whose name is exactly `name` (Glance v2 filters by exact name). */
export async function findImagesByName(c: Connection, endpointUrl: string, name: string): Promise<Image[]> {
  const res = await c.call<{ images?: Image[] }>('image', stripVersionSuffix(endpointUrl), {
    method: 'GET', path: `/v2/images?name=${encodeURIComponent(name)}`,
  });
  return res.data?.images ?? [];
}
