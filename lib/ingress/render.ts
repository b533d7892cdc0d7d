import { OperationError } from '../errors.js';
import { VARIANT_PATCHES, type IngressPlan } from '../plan/ingress.js';
import { applyPatches, findObject, objectKey, parseDocuments, stringifyDocuments, type KubeObject } from '../render/documents.js';
import { bundledTemplate, readBundledObjects } from '../render/bundled.js';
import { validateObjects } from '../render/schema.js';
import { CONTROLLER_SERVICE, INGRESS_NAMESPACE } from '../plan/edge-names.js';

/** The admission Jobs: immutable once created, so they are deleted before a re-apply (SCS issue #151). */
export const ADMISSION_JOBS = ['ingress-nginx-admission-create', 'ingress-nginx-admission-patch'];

/** The rendered ingress: objects in upstream order, and the same as multi-document YAML. */
export interface RenderedIngress {
  objects: KubeObject[];
  yaml: string;
}

/** Reads a bundled upstream manifest and checks every document in it. */
export function readUpstream(file: string): KubeObject[] {
  return readBundledObjects('ingress', 'upstream', file);
}

/**
 * Renders the manifests for a deploy plan: the bundled upstream "cloud" manifest of the plan's
 * version, with the variant's patch templates merged in, every document parsed and the core kinds
 * schema-validated (`validate`: the patched objects, or all). proxy-real-ip-cidr is the plan's
 * trusted CIDRs, comma-separated.
 */
export async function renderIngress(plan: IngressPlan, validate: 'patched' | 'all' = 'patched'): Promise<RenderedIngress> {
  if (!plan.deploy || !plan.version || !plan.variant) throw new OperationError('renderIngress called for a plan that deploys nothing');
  let objects = readUpstream(plan.version.file);
  const vars: Record<string, unknown> = { realIpCidr: plan.trustedProxyCidrs?.join(',') };
  const patched = new Set<string>();
  for (const name of VARIANT_PATCHES[plan.variant]) {
    const rel = `ingress/patches/${name}.yaml.hbs`;
    const patch = parseDocuments(bundledTemplate(rel).render(vars), rel);
    objects = applyPatches(objects, patch, rel);
    patch.forEach((p) => patched.add(objectKey(p)));
  }
  // The unpatched upstream objects are verbatim bundled data, schema-checked by the test suite for
  // every version (validate 'all'); at run time only what kaas changed is checked, which keeps the
  // dry-run fast (each schema module costs ~100 ms to load).
  const toCheck = validate === 'all' ? objects : objects.filter((o) => patched.has(objectKey(o)));
  await validateObjects(toCheck, `ingress-nginx ${plan.version.version} (${plan.variant})`);
  return { objects, yaml: stringifyDocuments(objects) };
}

/** The controller Service of a rendered manifest (always present in the upstream cloud manifest). */
export function controllerService(objects: KubeObject[]): KubeObject | undefined {
  return findObject(objects, 'Service', CONTROLLER_SERVICE, INGRESS_NAMESPACE);
}
