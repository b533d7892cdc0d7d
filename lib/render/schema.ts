import { objectKey, type KubeObject } from './documents.js';
import { modelModule, type ModelClass } from './k8s-models.js';
import { RenderError } from './template.js';

/**
 * Schema validation of core Kubernetes kinds against the OpenAPI schemas bundled in
 * kubernetes-models (v4, Kubernetes 1.32-era schemas, validated with ajv). Kinds it does not know
 * (CRDs such as the Cluster API objects) are skipped and listed, so callers can validate them some
 * other way (create-cluster checks CAPO objects against the CRDs' openAPIV3Schema).
 */

async function modelFor(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  const mod = await modelModule(apiVersion, kind);
  return typeof mod?.[kind] === 'function' ? (mod[kind] as ModelClass) : undefined;
}

/** Result of a validation run: objects checked and objects of kinds without a bundled schema. */
export interface SchemaReport {
  validated: string[];
  skipped: string[];
}

/**
 * Validates every object of a known core kind; throws one RenderError listing every violation
 * (`Service/ingress-nginx/x: data/spec/ports/0/port must be integer`).
 */
export async function validateObjects(objects: KubeObject[], source: string): Promise<SchemaReport> {
  const problems: string[] = [];
  const report: SchemaReport = { validated: [], skipped: [] };
  for (const o of objects) {
    const Model = await modelFor(o.apiVersion, o.kind);
    if (!Model) {
      report.skipped.push(objectKey(o));
      continue;
    }
    try {
      new Model(o).validate();
      report.validated.push(objectKey(o));
    } catch (e) {
      problems.push(`${objectKey(o)}: ${(e as Error).message}`);
    }
  }
  if (problems.length) throw new RenderError(`${source}: objects do not match the Kubernetes schema`, problems.sort());
  return report;
}
