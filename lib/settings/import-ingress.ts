import { findBundled } from '../plan/ingress-versions.js';
import type { ImportCollector } from './import-convert.js';

/**
 * What `DEPLOY_NGINX_INGRESS: true` meant to the SCS scripts. apply_nginx_ingress.sh replaced
 * `true` with its own NGINX_VERSION: "v1.9.6" in the last SCS release
 * (SovereignCloudStack/k8s-cluster-api-provider terraform/files/bin/apply_nginx_ingress.sh; early
 * releases used v1.1.2). kaas reads `true` as "the bundled release matching kubernetes_version",
 * which is newer — so an imported `true` is pinned to what the cluster runs today, and said so.
 */
export const SCS_INGRESS_VERSION = 'v1.9.6';

/** Replaces an imported `deploy_nginx_ingress: true` with the version the SCS scripts deployed. */
export function pinScsIngress(c: ImportCollector): void {
  if (c.values.deploy_nginx_ingress !== true) return;
  const from = c.sources.deploy_nginx_ingress;
  c.values.deploy_nginx_ingress = SCS_INGRESS_VERSION;
  c.conversions.push({ name: from?.split(' ')[0] ?? 'DEPLOY_NGINX_INGRESS', key: 'deploy_nginx_ingress', from: 'true', to: SCS_INGRESS_VERSION });
  const bundled = findBundled(SCS_INGRESS_VERSION);
  c.notes.push(
    `deploy_nginx_ingress pinned to ${SCS_INGRESS_VERSION}: with "true" the SCS scripts deployed ingress-nginx ${SCS_INGRESS_VERSION} (kaas's "true" would ` +
      `upgrade it to the bundled release matching kubernetes_version)${bundled ? '' : '; that version is not bundled'}. ` +
      'Check: kubectl -n ingress-nginx get deploy ingress-nginx-controller -o jsonpath="{.spec.template.spec.containers[0].image}"; ' +
      'to upgrade on purpose, set deploy_nginx_ingress: true',
  );
}
