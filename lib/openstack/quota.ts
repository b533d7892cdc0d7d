import type { Connection } from './connection.js';

/**
 * Project quotas of Octavia and Neutron. Neutron's `quota_details` extension answers limit and
 * use in one call; Octavia's quota API only has limits (use is counted from the project's lists).
 * A limit of -1 means unlimited. Project members may read their own project's quotas.
 */

/** Octavia's per-project limits (`GET /v2/lbaas/quotas/{project_id}`). */
export interface OctaviaQuota {
  load_balancer?: number;
  listener?: number;
  pool?: number;
  health_monitor?: number;
  member?: number;
  [key: string]: number | undefined;
}

/** One Neutron quota with its use. */
export interface QuotaDetail {
  limit: number;
  used: number;
  reserved?: number;
}

/** Octavia limits of a project. */
export async function octaviaQuota(c: Connection, root: string, projectId: string): Promise<OctaviaQuota> {
  const res = await c.call<{ quota?: OctaviaQuota }>('load-balancer', root, { method: 'GET', path: `/v2/lbaas/quotas/${encodeURIComponent(projectId)}` });
  return res.data?.quota ?? {};
}

/** Neutron limits and use of a project (`GET /v2.0/quotas/{project_id}/details`). */
export async function neutronQuotaDetails(c: Connection, root: string, projectId: string): Promise<Record<string, QuotaDetail>> {
  const res = await c.call<{ quota?: Record<string, QuotaDetail> }>('network', root, { method: 'GET', path: `/v2.0/quotas/${encodeURIComponent(projectId)}/details` });
  return res.data?.quota ?? {};
}
