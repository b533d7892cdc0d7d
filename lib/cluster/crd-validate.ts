import { validateCustomResources } from '../render/crd-schema.js';
import type { KubeObject } from '../render/documents.js';
import { crdKinds, crdValidator } from './crd-validators.js';

/**
 * Validates rendered Cluster API / CAPO objects against the openAPIV3Schema of their CRDs
 * (templates/crds/, see crd-validators.ts), the way lib/render/crd-schema.ts describes — so a
 * v1alpha7 spelling like `allowedCidrs` is caught before anything is applied.
 */

/** The apiVersion/kind pairs kaas has CRD schemas for, e.g. "infrastructure.cluster.x-k8s.io/v1beta1/OpenStackCluster". */
export function knownCrdKinds(): string[] {
  return crdKinds();
}

/**
 * Validates every object whose apiVersion/kind has a bundled CRD schema (others are skipped);
 * throws one RenderError listing every violation as `Kind/ns/name: /spec/path message`.
 */
export function validateAgainstCrds(objects: KubeObject[]): { validated: string[]; skipped: string[] } {
  return validateCustomResources(objects, crdValidator, 'rendered Cluster API objects');
}
