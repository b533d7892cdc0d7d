import { declOf } from '../settings/table.js';
import type { Settings } from '../settings/types.js';
import { ADDONS, defaultAddonVersion, planAddonFlags, type AddonName } from './addon-table.js';
import { decided, refused, type Decision } from './decision.js';

/**
 * Which add-ons go onto a new workload cluster, in which order, which version and how (bundled
 * manifest, a tool's CLI, or helm). Pure; versions come from the add-on table (addon-table.ts).
 * The order is the order they are applied in: the cloud provider first (nodes stay
 * NotReady/uninitialized without it), then the CNI, storage, metrics, cert-manager; the ingress
 * comes last through apply-ingress.
 */

/** How an add-on gets onto the cluster. */
export type AddonMethod = 'bundled' | 'cilium-cli' | 'helm';

/** One add-on to install. */
export interface AddonStep {
  name: AddonName;
  version: string;
  method: AddonMethod;
  /**
   * Where helm or the cilium CLI takes the chart from, when it is not the project's own repository
   * (cilium_chart_repo, cert_manager_chart_repo): an http(s) chart repository or an oci:// reference.
   */
  chart?: string;
}

/** The project's own chart repositories: the defaults of cilium_chart_repo and cert_manager_chart_repo. */
export const CHART_REPOS: Readonly<Record<'cilium' | 'cert-manager', string>> = {
  cilium: declOf('cilium_chart_repo').default as string,
  'cert-manager': declOf('cert_manager_chart_repo').default as string,
};
const mirror = (name: keyof typeof CHART_REPOS, repo: string): { chart?: string } => (repo !== CHART_REPOS[name] ? { chart: repo } : {});

/** cloud-provider-openstack release for a Kubernetes version (same minor, capped at the newest known). */
export function cloudProviderVersion(kubernetesVersion: string): string {
  return defaultAddonVersion('occm', kubernetesVersion);
}

const pinned = (v: boolean | string, dflt: string): string => (typeof v === 'string' ? v : dflt);

/** Decides the add-ons for the settings (kubernetesVersion already resolved to vX.Y.Z). */
export function planAddons(s: Settings, kubernetesVersion: string, helmOrCiliumPresent: { cilium: boolean; helm: boolean }): Decision<AddonStep[]> {
  const steps: AddonStep[] = [];
  const reasons: string[] = [];
  const cpo = cloudProviderVersion(kubernetesVersion);
  const calico = ADDONS.calico.bundledVersions ?? [];
  if (s.deploy_occm !== false) steps.push({ name: 'occm', version: pinned(s.deploy_occm, cpo), method: 'bundled' });
  else reasons.push('deploy_occm is false: no cloud controller manager (nodes keep the uninitialized taint, no LoadBalancer Services)');
  if (s.use_cilium !== false) {
    const version = pinned(s.use_cilium, defaultAddonVersion('cilium', kubernetesVersion));
    // helm and the cilium CLI both take either kind of chart source: the cilium CLI's --repository is an
    // http(s) chart repository or, since cilium-cli v0.14.2 (commit 0fd7bf3, "Handle OCI repositories"), an
    // oci:// chart reference it pulls as the chart itself (internal/helm newChartFromRemoteWithCache).
    const chart = mirror('cilium', s.cilium_chart_repo);
    if (helmOrCiliumPresent.cilium) steps.push({ name: 'cilium', version, method: 'cilium-cli', ...chart });
    else if (helmOrCiliumPresent.helm) steps.push({ name: 'cilium', version, method: 'helm', ...chart });
    else return refused({ message: 'use_cilium needs the cilium CLI or helm on PATH, and neither was found', hint: 'install the cilium CLI (https://github.com/cilium/cilium-cli) or helm, or set use_cilium: false for the bundled calico' }, reasons);
    reasons.push(`CNI: cilium ${version} through ${helmOrCiliumPresent.cilium ? 'the cilium CLI' : 'helm'}${chart.chart ? `, chart from ${chart.chart} (cilium_chart_repo)` : ''}`);
  } else {
    if (!calico.includes(s.calico_version)) {
      return refused({ message: `calico ${s.calico_version} is not bundled`, hint: `bundled calico versions: ${calico.join(', ')}` }, reasons);
    }
    steps.push({ name: 'calico', version: s.calico_version, method: 'bundled' });
    reasons.push(`CNI: calico ${s.calico_version} (bundled manifest)`);
  }
  if (s.deploy_cindercsi !== false) steps.push({ name: 'cinder-csi', version: pinned(s.deploy_cindercsi, defaultAddonVersion('cinder-csi', kubernetesVersion)), method: 'bundled' });
  if (s.deploy_metrics) steps.push({ name: 'metrics-server', version: defaultAddonVersion('metrics-server', kubernetesVersion), method: 'bundled' });
  if (s.deploy_cert_manager !== false) {
    if (!helmOrCiliumPresent.helm) return refused({ message: `deploy_cert_manager needs helm on PATH and access to ${s.cert_manager_chart_repo} (cert_manager_chart_repo; cert-manager is not bundled: its CRDs alone are ~1 MB)`, hint: 'install helm, or set deploy_cert_manager: false' }, reasons);
    const version = pinned(s.deploy_cert_manager, defaultAddonVersion('cert-manager', kubernetesVersion));
    steps.push({ name: 'cert-manager', version, method: 'helm', ...mirror('cert-manager', s.cert_manager_chart_repo) });
    reasons.push(`cert-manager ${version} through helm: the chart is fetched from ${s.cert_manager_chart_repo} at run time (not bundled; air-gapped sites point cert_manager_chart_repo at their mirror)`);
  }
  // Version-dependent container flags (add-on table): a version they cannot be told for is refused here, before rendering.
  for (const step of steps) {
    const flags = planAddonFlags(step.name, step.version);
    if (!flags.ok) return refused(flags.refusals, reasons);
    reasons.push(...flags.reasons);
  }
  return decided(steps, reasons);
}
