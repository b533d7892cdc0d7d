import { CAPI_SUPPORTED, CAPO_SUPPORTED, compareMinor, managementUpgradeSteps, minorOf } from '../plan/management-versions.js';
import type { RawValue } from './convert.js';

/**
 * The warning `settings import` owes when the SCS environment file shows management-cluster
 * providers older than kaas supports: the SCS scripts installed Cluster API and CAPO themselves
 * (tfvars `clusterapi_version`, `capi_openstack_version`; defaults 1.6.3 and 0.9.0 in
 * SovereignCloudStack/k8s-cluster-api-provider terraform/environments/environment-default.tfvars,
 * later 1.7–1.8 and 0.10–0.11), and kaas needs Cluster API v1.12–v1.14 with CAPO v0.14. The steps
 * come from lib/plan/management-versions.ts, in order (ORC before CAPO v0.12). Undefined when the
 * file names no version, only placeholders, or supported ones.
 */
export function scsProviderWarning(raws: readonly RawValue[]): string | undefined {
  const find = (name: string) => raws.find((r) => r.name === name && typeof r.value === 'string' && minorOf(r.value as string));
  const capi = find('clusterapi_version');
  const capo = find('capi_openstack_version');
  if (!capi && !capo) return undefined;
  const old = (raw: RawValue | undefined, oldest: readonly (readonly [number, number])[]) => raw !== undefined && compareMinor(minorOf(raw.value as string)!, oldest[0]) < 0;
  const oldCapi = old(capi, CAPI_SUPPORTED);
  const oldCapo = old(capo, CAPO_SUPPORTED);
  if (!oldCapi && !oldCapo) return undefined;
  const shown = [capi && `Cluster API ${capi.value} (clusterapi_version, ${capi.where})`, capo && `CAPO ${capo.value} (capi_openstack_version, ${capo.where})`].filter(Boolean).join(' and ');
  // ORC cannot be seen in the SCS files: it is installed only from CAPO v0.12 on, which the scripts never did.
  const steps = managementUpgradeSteps({ capi: capi?.value as string | undefined, capo: capo?.value as string | undefined });
  return `the SCS files show ${shown}, older than kaas supports (Cluster API v1.12–v1.14 with CAPO v0.14): create-cluster refuses that management cluster. `
    + `Upgrade it first, in this order: ${steps.map((s, i) => `(${i + 1}) ${s}`).join('; ')}. See docs/guides/management-cluster-versions.md`;
}
