import { findBundled } from '../plan/ingress-versions.js';
import type { ImportCollector } from './convert.js';

/**
 * What `DEPLOY_NGINX_INGRESS: true` meant to the SCS scripts. apply_nginx_ingress.sh replaced
 * `true` with its own NGINX_VERSION: "v1.9.6" in the last SCS release
 * (SovereignCloudStack/k8s-cluster-api-provider terraform/files/bin/apply_nginx_ingress.sh; early
 * releases used v1.1.2). kaas reads `true` as "the bundled release matching kubernetes_version",
 * which is newer — so an imported `true` is pinned to what the cluster runs today, and said so.
 */
export const SCS_INGRESS_VERSION = 'v1.9.6';

/**
 * The SCS defaults of the edge switches, written when the SCS files leave them out (SCS's
 * terraform/environments/environment-default.tfvars: deploy_nginx_ingress "defaults to true",
 * deploy_gateway_api "defaults to false"; clusterctl.yaml.tmpl always writes both). An imported
 * cluster thus says which edge it runs, and kaas's own defaults for new clusters (the gateway on,
 * ingress-nginx off) never reach it.
 */
export function pinScsEdgeDefaults(c: ImportCollector): void {
  if (!('deploy_nginx_ingress' in c.values)) {
    c.set('deploy_nginx_ingress', true, 'SCS default (DEPLOY_NGINX_INGRESS not in the SCS files; environment-default.tfvars: true)');
    c.notes.push('DEPLOY_NGINX_INGRESS is not in the SCS files: written as the SCS default (ingress-nginx on, see below), not as kaas\'s default for new clusters (off); set deploy_nginx_ingress: false if this cluster runs no ingress-nginx');
  }
  if (!('deploy_gateway' in c.values)) {
    c.set('deploy_gateway', false, 'SCS default (DEPLOY_GATEWAY_API not in the SCS files; environment-default.tfvars: false)');
    c.notes.push('DEPLOY_GATEWAY_API is not in the SCS files: deploy_gateway written as false (the SCS default), not as kaas\'s default for new clusters (true); set deploy_gateway: true to add Envoy Gateway (kaas migrate-ingress moves the Ingresses)');
  }
}

/** Replaces an imported `deploy_nginx_ingress: true` with the version the SCS scripts deployed. */
export function pinScsIngress(c: ImportCollector): void {
  if (c.values.deploy_nginx_ingress !== true) return;
  const from = c.sources.deploy_nginx_ingress;
  c.values.deploy_nginx_ingress = SCS_INGRESS_VERSION;
  c.conversions.push({ name: from?.startsWith('SCS default') ? 'DEPLOY_NGINX_INGRESS' : from?.split(' ')[0] ?? 'DEPLOY_NGINX_INGRESS', key: 'deploy_nginx_ingress', from: 'true', to: SCS_INGRESS_VERSION });
  const bundled = findBundled(SCS_INGRESS_VERSION);
  c.notes.push(
    `deploy_nginx_ingress pinned to ${SCS_INGRESS_VERSION}: with "true" the SCS scripts deployed ingress-nginx ${SCS_INGRESS_VERSION} (kaas's "true" would ` +
      `upgrade it to the bundled release matching kubernetes_version)${bundled ? '' : '; that version is not bundled'}. ` +
      'Check: kubectl -n ingress-nginx get deploy ingress-nginx-controller -o jsonpath="{.spec.template.spec.containers[0].image}"; ' +
      'to upgrade on purpose, set deploy_nginx_ingress: true',
  );
}
