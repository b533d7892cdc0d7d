import type { Settings } from '../settings/types.js';

/**
 * Which add-ons go onto a new workload cluster, in which order, which version and how (bundled
 * manifest, a tool's CLI, or helm). Pure; the order is the order they are applied in: the cloud
 * provider first (nodes stay NotReady/uninitialized without it), then the CNI, storage, metrics,
 * cert-manager; the ingress comes last through apply-ingress.
 */

/** How an add-on gets onto the cluster. */
export type AddonMethod = 'bundled' | 'cilium-cli' | 'helm';

/** One add-on to install. */
export interface AddonStep {
  name: 'occm' | 'cilium' | 'calico' | 'cinder-csi' | 'metrics-server' | 'cert-manager';
  version: string;
  method: AddonMethod;
}

/** The add-on plan with its reasons. */
export interface AddonPlan {
  steps: AddonStep[];
  reasons: string[];
}

/** Versions kaas bundles (templates/addons/) or installs by default. */
export const ADDON_DEFAULTS = {
  cilium: 'v1.17.6',
  metricsServer: 'v0.7.2',
  certManager: 'v1.17.2',
  /** Newest cloud-provider-openstack release known to kaas (occm-loadbalancer-facts.md). */
  occmNewestMinor: 36,
} as const;

/** Calico versions the bundled manifest (templates/addons/calico.yaml.hbs) is written for. */
export const BUNDLED_CALICO: readonly string[] = ['v3.27.3'];

/** cloud-provider-openstack release for a Kubernetes version (same minor, capped at the newest). */
export function cloudProviderVersion(kubernetesVersion: string): string {
  const m = /^v1\.(\d+)\./.exec(kubernetesVersion);
  const minor = Math.min(m ? Number(m[1]) : ADDON_DEFAULTS.occmNewestMinor, ADDON_DEFAULTS.occmNewestMinor);
  return `v1.${minor}.0`;
}

const pinned = (v: boolean | string, dflt: string): string => (typeof v === 'string' ? v : dflt);

/** Decides the add-ons for the settings (kubernetesVersion already resolved to vX.Y.Z). */
export function planAddons(s: Settings, kubernetesVersion: string, helmOrCiliumPresent: { cilium: boolean; helm: boolean }): AddonPlan | { error: string; hint: string } {
  const steps: AddonStep[] = [];
  const reasons: string[] = [];
  const cpo = cloudProviderVersion(kubernetesVersion);
  if (s.deploy_occm !== false) steps.push({ name: 'occm', version: pinned(s.deploy_occm, cpo), method: 'bundled' });
  else reasons.push('deploy_occm is false: no cloud controller manager (nodes keep the uninitialized taint, no LoadBalancer Services)');
  if (s.use_cilium !== false) {
    const version = pinned(s.use_cilium, ADDON_DEFAULTS.cilium);
    if (helmOrCiliumPresent.cilium) steps.push({ name: 'cilium', version, method: 'cilium-cli' });
    else if (helmOrCiliumPresent.helm) steps.push({ name: 'cilium', version, method: 'helm' });
    else return { error: 'use_cilium needs the cilium CLI or helm on PATH, and neither was found', hint: 'install the cilium CLI (https://github.com/cilium/cilium-cli) or helm, or set use_cilium: false for the bundled calico' };
    reasons.push(`CNI: cilium ${version} through ${helmOrCiliumPresent.cilium ? 'the cilium CLI' : 'helm'}`);
  } else {
    if (!BUNDLED_CALICO.includes(s.calico_version)) {
      return { error: `calico ${s.calico_version} is not bundled`, hint: `bundled calico versions: ${BUNDLED_CALICO.join(', ')}` };
    }
    steps.push({ name: 'calico', version: s.calico_version, method: 'bundled' });
    reasons.push(`CNI: calico ${s.calico_version} (bundled manifest)`);
  }
  if (s.deploy_cindercsi !== false) steps.push({ name: 'cinder-csi', version: pinned(s.deploy_cindercsi, cpo), method: 'bundled' });
  if (s.deploy_metrics) steps.push({ name: 'metrics-server', version: ADDON_DEFAULTS.metricsServer, method: 'bundled' });
  if (s.deploy_cert_manager !== false) {
    if (!helmOrCiliumPresent.helm) return { error: 'deploy_cert_manager needs helm on PATH (cert-manager is not bundled: its CRDs alone are ~1 MB)', hint: 'install helm, or set deploy_cert_manager: false' };
    const version = pinned(s.deploy_cert_manager, ADDON_DEFAULTS.certManager);
    steps.push({ name: 'cert-manager', version, method: 'helm' });
    reasons.push(`cert-manager ${version} through helm (chart fetched from charts.jetstack.io at run time)`);
  }
  return { steps, reasons };
}
