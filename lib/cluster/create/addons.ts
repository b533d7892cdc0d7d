import type { ProcessRunner } from '../../exec/runner.js';
import type { Kubectl } from '../../kube/kubectl.js';
import type { Logger } from '../../log.js';
import { addonFlags, addonImages } from '../../plan/addon-table.js';
import { ciliumStep } from '../../plan/cilium-step.js';
import { orThrow } from '../../plan/decision.js';
import { CHART_REPOS, type AddonStep } from '../../plan/addons.js';
import { bundledTemplate } from '../../render/bundled.js';
import { parseDocuments, stringifyDocuments, type KubeObject } from '../../render/documents.js';
import { cloudConfigHash, cloudConfigSecretData } from '../../state/cloud-config-rollout.js';

/**
 * Installs the add-ons of a workload cluster, each idempotently: bundled manifests by server-side
 * apply (re-applying changes nothing), cilium through its CLI (install, or upgrade when present)
 * or `helm upgrade --install`, cert-manager through `helm upgrade --install`.
 */

/** What the bundled templates need besides the version. */
export interface AddonContext {
  cluster: string;
  /** The rendered OCCM cloud.conf (holds a secret). */
  cloudConf: string;
  /** PEM CA bundle put into the Secret as ca.crt; cloud.conf names it (ca-file) exactly when this is set. */
  cacert?: string;
  /** CNI MTU (0 = the CNI's own detection). */
  mtu: number;
  /** Pod network (calico's IP pool). */
  podCidr: string;
}

// The CRDs calico v3.27 declares (group crd.projectcalico.org), as [kind, scope].
const CALICO_CRDS: [string, 'Cluster' | 'Namespaced'][] = [
  ['BGPConfiguration', 'Cluster'], ['BGPFilter', 'Cluster'], ['BGPPeer', 'Cluster'], ['BlockAffinity', 'Cluster'],
  ['CalicoNodeStatus', 'Cluster'], ['ClusterInformation', 'Cluster'], ['FelixConfiguration', 'Cluster'],
  ['GlobalNetworkPolicy', 'Cluster'], ['GlobalNetworkSet', 'Cluster'], ['HostEndpoint', 'Cluster'], ['IPAMBlock', 'Cluster'],
  ['IPAMConfig', 'Cluster'], ['IPAMHandle', 'Cluster'], ['IPPool', 'Cluster'], ['IPReservation', 'Cluster'],
  ['KubeControllersConfiguration', 'Cluster'], ['NetworkPolicy', 'Namespaced'], ['NetworkSet', 'Namespaced'],
];

function calicoVars(ctx: AddonContext): Record<string, unknown> {
  return {
    crds: CALICO_CRDS.map(([kind, scope]) => {
      const singular = kind.toLowerCase();
      return { kind, scope, singular, plural: singular.endsWith('y') ? `${singular.slice(0, -1)}ies` : singular.endsWith('s') ? `${singular}es` : `${singular}s` };
    }),
    vethMtu: String(ctx.mtu),
    podCidr: ctx.podCidr,
  };
}

/** Renders a bundled add-on (templates/addons/<name>.yaml.hbs) to objects. */
export function renderBundledAddon(step: AddonStep, ctx: AddonContext): KubeObject[] {
  const file = `addons/${step.name}.yaml.hbs`;
  const t = bundledTemplate(file);
  // Images and version-dependent flags come from the add-on table (lib/plan/addon-table.ts).
  const images = addonImages(step.name, step.version);
  const vars: Record<string, unknown> = { cluster: ctx.cluster, image: images.main ?? '', images, flags: addonFlags(step.name, step.version), version: step.version, mtu: ctx.mtu };
  if (t.variables.includes('cloudConf')) Object.assign(vars, { cloudConf: ctx.cloudConf, cacert: ctx.cacert ?? '' });
  if (t.variables.includes('cloudConfigHash')) vars.cloudConfigHash = cloudConfigHash(cloudConfigSecretData(ctx.cloudConf, ctx.cacert));
  if (step.name === 'calico') Object.assign(vars, calicoVars(ctx));
  return parseDocuments(t.render(vars), file);
}

/** How add-ons reach the workload cluster. */
export interface AddonTarget {
  kubectl: Kubectl;
  runner: ProcessRunner;
  /** Path of the workload kubeconfig (for cilium and helm). */
  kubeconfig: string;
  logger: Logger;
}

const ciliumValues = (ctx: AddonContext) => ['ipam.mode=kubernetes', ...(ctx.mtu > 0 ? [`MTU=${ctx.mtu}`] : [])];

interface DaemonSetJson {
  spec?: { template?: { spec?: { containers?: { name: string; image?: string }[] } } };
}

/** The cilium version the cluster runs: the tag of the cilium DaemonSet's agent image (`…:v1.17.6@sha256:…`). */
export function ciliumImageVersion(ds: DaemonSetJson): string {
  const containers = ds.spec?.template?.spec?.containers ?? [];
  const image = (containers.find((c) => c.name === 'cilium-agent') ?? containers[0])?.image ?? '';
  return /:(v?\d+\.\d+\.\d+[^@]*)(@.*)?$/.exec(image)?.[1] ?? image;
}

/**
 * The cilium version this run applies: at most one minor from the running one (lib/plan/cilium-step.ts,
 * review 2026-11-27 N5); the remaining steps are logged and named in the summary.
 */
async function ciliumTarget(wanted: string, t: AddonTarget): Promise<{ present: boolean; version: string; later: string }> {
  const ds = await t.kubectl.getJson<DaemonSetJson>('daemonset', 'cilium', { namespace: 'kube-system' });
  const d = ciliumStep(ds === undefined ? undefined : ciliumImageVersion(ds), wanted);
  const step = orThrow(d);
  if (d.ok) for (const w of d.warnings) t.logger.warn(w);
  return { present: ds !== undefined, version: step.version, later: step.remaining.length ? `; later runs: ${step.remaining.join(', then ')}` : '' };
}

/** Installs one add-on; returns a one-line summary. */
export async function installAddon(step: AddonStep, ctx: AddonContext, t: AddonTarget): Promise<string> {
  const env = { KUBECONFIG: t.kubeconfig };
  switch (step.method) {
    case 'bundled': {
      const out = await t.kubectl.apply(stringifyDocuments(renderBundledAddon(step, ctx)), { forceConflicts: true });
      const changed = out.split('\n').filter((l) => /serverside-applied|created|configured/.test(l) && !/unchanged/.test(l)).length;
      return `${step.name} ${step.version} applied (${changed} object${changed === 1 ? '' : 's'})`;
    }
    case 'cilium-cli': {
      const cilium = await ciliumTarget(step.version, t);
      // --repository takes an http(s) chart repository or an oci:// chart reference (cilium-cli v0.14.2 and later).
      const args = [cilium.present ? 'upgrade' : 'install', '--version', cilium.version.replace(/^v/, ''), ...(step.chart ? ['--repository', step.chart] : []), ...ciliumValues(ctx).flatMap((v) => ['--set', v])];
      await t.runner.run('cilium', args, { env, timeoutMs: 600_000 });
      return `cilium ${cilium.version} ${cilium.present ? 'upgraded' : 'installed'} (cilium CLI)${cilium.later}`;
    }
    case 'helm': {
      const cilium = step.name === 'cilium' ? await ciliumTarget(step.version, t) : undefined;
      const chart = cilium
        ? { release: 'cilium', repo: step.chart ?? CHART_REPOS.cilium, ns: 'kube-system', values: ciliumValues(ctx), version: cilium.version.replace(/^v/, '') }
        : { release: 'cert-manager', repo: step.chart ?? CHART_REPOS['cert-manager'], ns: 'cert-manager', values: ['crds.enabled=true'], version: step.version };
      // An oci:// reference names the chart itself; a repository URL is searched for the release's chart name.
      const source = chart.repo.startsWith('oci://') ? [chart.release, chart.repo] : [chart.release, chart.release, '--repo', chart.repo];
      const args = ['upgrade', '--install', ...source, '--version', chart.version,
        '--namespace', chart.ns, '--create-namespace', '--kubeconfig', t.kubeconfig, ...chart.values.flatMap((v) => ['--set', v])];
      await t.runner.run('helm', args, { timeoutMs: 600_000 });
      return `${step.name} ${cilium?.version ?? step.version} installed (helm)${cilium?.later ?? ''}`;
    }
  }
}
