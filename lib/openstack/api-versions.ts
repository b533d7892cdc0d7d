/*
 * Octavia API versions as plain values: what the plans (lib/plan/providers.ts) and the capabilities
 * file check read. Apart from octavia.ts and detect.ts, which talk to the cloud and import the HTTP
 * stack (axios) and the answer validators: a plan made offline must not load those.
 */

/** Octavia v2.24 is the only API version introduced in Wallaby; Victoria tops out at v2.23. */
export const WALLABY_VERSION = '2.24';
/** Listener allowed_cidrs exists from Octavia API v2.12 (Train). */
export const ALLOWED_CIDRS_VERSION = '2.12';

/** Parses "v2.24" / "2.24" into [2, 24]; undefined when it is not a version. */
export function parseVersion(id: string): [number, number] | undefined {
  const m = /^v?(\d+)\.(\d+)$/.exec(id.trim());
  return m ? [Number(m[1]), Number(m[2])] : undefined;
}

/** Numeric comparison of two versions ("2.9" < "2.24"); negative when a < b. */
export function compareVersions(a: string, b: string): number {
  const pa = parseVersion(a) ?? [0, 0];
  const pb = parseVersion(b) ?? [0, 0];
  return pa[0] - pb[0] || pa[1] - pb[1];
}
