import { createHash } from 'node:crypto';
import type { Kubectl } from '../kube/kubectl.js';
import type { AddonStep } from '../plan/addons.js';

/**
 * cloud.conf reaches OCCM and Cinder CSI through the kube-system/cloud-config Secret, which they
 * read once at start: a changed Secret alone leaves the old config running (switching to OVN
 * kept creating amphora LBs). So the pod templates of every consumer carry a hash of the Secret's
 * content; a changed cloud.conf changes the template, Kubernetes rolls the pods, and kaas waits for
 * the rollout. An unchanged cloud.conf renders the same annotation: server-side apply changes
 * nothing and nothing restarts.
 */

/** Pod-template annotation holding the content hash of the cloud-config Secret. */
export const CLOUD_CONFIG_HASH_ANNOTATION = 'kaas.dev/cloud-config-hash';

/** The workloads that mount the cloud-config Secret, by the add-on that installs them. */
export const CLOUD_CONFIG_CONSUMERS: readonly { addon: AddonStep['name']; resource: string }[] = [
  { addon: 'occm', resource: 'daemonset/openstack-cloud-controller-manager' },
  { addon: 'cinder-csi', resource: 'deployment/csi-cinder-controllerplugin' },
  { addon: 'cinder-csi', resource: 'daemonset/csi-cinder-nodeplugin' },
];

/**
 * `sha256:<hex>` over the Secret's keys and values (sorted, NUL-separated). A digest only: the
 * application-credential secret inside is random (Keystone generates 64 bytes unless the user
 * picks one), so the digest cannot be turned back into it; the same content always gives the
 * same digest, so kaas can compare the live Secret with a running pod template.
 */
export function cloudConfigHash(data: Record<string, string>): string {
  const h = createHash('sha256');
  for (const key of Object.keys(data).sort()) h.update(`${key}\0${data[key]}\0`);
  return `sha256:${h.digest('hex')}`;
}

/** The data of the cloud-config Secret as the add-on templates render it. */
export function cloudConfigSecretData(cloudConf: string, cacert?: string): Record<string, string> {
  return cacert ? { 'cloud.conf': cloudConf, 'ca.crt': cacert } : { 'cloud.conf': cloudConf };
}

/** The consumers installed by these add-on steps, in order. */
export function cloudConfigConsumers(steps: readonly Pick<AddonStep, 'name' | 'method'>[]): string[] {
  const bundled = new Set(steps.filter((s) => s.method === 'bundled').map((s) => s.name));
  return CLOUD_CONFIG_CONSUMERS.filter((c) => bundled.has(c.addon)).map((c) => c.resource);
}

/**
 * Waits (`kubectl rollout status`) until every consumer runs its current pod template, i.e. the
 * current cloud.conf; returns the resources waited for. Already rolled out → returns at once.
 */
export async function waitForCloudConfigRollout(kubectl: Kubectl, resources: string[], timeoutSec: number): Promise<string[]> {
  for (const r of resources) await kubectl.rolloutStatus(r, { namespace: 'kube-system' }, timeoutSec);
  return resources;
}

/**
 * Does a running consumer use the Secret's cloud.conf? `current` when its pod template carries the
 * Secret's hash, `stale` when it carries another one (the Secret was changed without a rollout, as
 * a hand edit or SCS handle_ovn_lb.sh does), `unknown` without the annotation (not kaas-deployed).
 */
export function cloudConfigDrift(secretData: Record<string, string>, podTemplateAnnotations: Record<string, string> | undefined): { state: 'current' | 'stale' | 'unknown'; running?: string; wanted: string } {
  const wanted = cloudConfigHash(secretData);
  const running = podTemplateAnnotations?.[CLOUD_CONFIG_HASH_ANNOTATION];
  if (running === undefined) return { state: 'unknown', wanted };
  return { state: running === wanted ? 'current' : 'stale', running, wanted };
}
