/**
 * The kubernetes-models class of a core Kubernetes kind, loaded when first needed (one module per
 * kind: a whole group's index costs ~400 ms to load). The bundled CLI replaces this module by
 * k8s-models.bundle.ts, where each kind is a chunk of the bundle.
 */

/** The API groups kubernetes-models ships that kaas validates; apiVersion "v1" is the core group. */
export const MODEL_GROUPS = [
  'v1', 'apps/v1', 'batch/v1', 'rbac.authorization.k8s.io/v1', 'networking.k8s.io/v1',
  'admissionregistration.k8s.io/v1', 'policy/v1', 'storage.k8s.io/v1', 'autoscaling/v2', 'scheduling.k8s.io/v1',
];
const GROUPS = new Set(MODEL_GROUPS);

export type ModelClass = new (data: unknown) => { validate(): void };

/** The module of `kubernetes-models/<apiVersion>/<kind>`, or undefined for kinds it does not have. */
export async function modelModule(apiVersion: string, kind: string): Promise<Record<string, unknown> | undefined> {
  if (!GROUPS.has(apiVersion) || !/^[A-Z][A-Za-z0-9]*$/.test(kind)) return undefined;
  try {
    return (await import(`kubernetes-models/${apiVersion}/${kind}`)) as Record<string, unknown>;
  } catch {
    return undefined; // a kind kubernetes-models does not have
  }
}
