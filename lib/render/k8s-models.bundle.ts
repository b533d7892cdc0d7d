import { MODELS } from 'kaas-gen:k8s-models';

/**
 * Twin of k8s-models.ts in the bundled CLI: the build lists every kind kubernetes-models has in
 * MODEL_GROUPS, each one a lazily loaded chunk.
 */

export { MODEL_GROUPS, type ModelClass } from './k8s-models.js';

export async function modelModule(apiVersion: string, kind: string): Promise<Record<string, unknown> | undefined> {
  const load = Object.hasOwn(MODELS, `${apiVersion}/${kind}`) ? MODELS[`${apiVersion}/${kind}`] : undefined;
  return load ? await load() : undefined;
}
