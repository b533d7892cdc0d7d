import path from 'node:path';
import { PlanError } from '../errors.js';
import { loadCapabilitiesFile } from '../openstack/capabilities-file.js';
import { orThrow } from '../plan/decision.js';
import { planIngress } from '../plan/ingress.js';
import { renderCloudConf } from '../render/cloud-conf.js';
import type { KubeObject } from '../render/documents.js';
import { renderBundledAddon, type AddonContext } from './addons.js';
import { applyCluster, type ApplyDeps, type CreateTimeouts, type StepTime } from './create-apply.js';
import { planCluster, type ClusterPlan } from './plan.js';
import { dryRunFiles, stdoutText, writeOutputDir } from './output.js';
import { clusterTemplateVariables } from './render.js';
import { checkClusterName, cloudConnection, cloudCredentials, clusterSettings, TOOL_HINTS, type ClusterRunOptions } from './setup.js';

/**
 * `kaas create-cluster <cluster>`: preflight, plan, render, then either write/print the manifests
 * (--dry-run, touches nothing and needs neither kubectl, clusterctl nor a management cluster) or
 * converge the cluster and its add-ons (create-apply.ts). Running it again converges.
 */

/** Flags of create-cluster beyond the common ones. */
export interface CreateClusterOptions extends ClusterRunOptions {
  outputDir?: string;
  /** A `kaas detect -o json` file: plan the load balancers without asking Octavia. */
  capabilitiesFile?: string;
  timeouts?: Partial<CreateTimeouts>;
}

/** What create-cluster reports (printed as text, JSON or YAML). */
export interface CreateClusterResult {
  cluster: string;
  dryRun: boolean;
  kubernetesVersion: string;
  checks: { name: string; status: string; detail: string }[];
  reasons: string[];
  addons: string[];
  /** dry-run: files written (with --output-dir). */
  files?: string[];
  /** dry-run without --output-dir: the manifests (secrets redacted). */
  manifests?: string;
  steps?: StepTime[];
  kubeconfig?: string;
  contexts?: string[];
}

/** `--list-variables`: what each template reads, as clusterctl generate cluster --list-variables. */
export function listVariables(): { file: string; variables: string[] }[] {
  return clusterTemplateVariables();
}

/** The bundled add-on objects and cloud.conf of a plan (also what dry-run writes). */
export function renderAddons(plan: ClusterPlan, cloud: Parameters<typeof renderCloudConf>[0]['cloud'], lb: Parameters<typeof renderCloudConf>[0]['lb']) {
  const s = plan.decisions.settings;
  const ingress = orThrow(planIngress({ ...s, kubernetes_version: plan.decisions.image.kubernetesVersion }, lb));
  const cc = renderCloudConf({ cloud, lb, occm: s.occm_loadbalancer, required: ingress.cloudConf, caFileInPod: '/etc/config/ca.crt' });
  const ctx: AddonContext = { cluster: plan.decisions.cluster, cloudConf: cc.text, cacert: plan.decisions.identity?.cacert, mtu: s.mtu, podCidr: s.pod_cidr };
  const bundled: { name: string; objects: KubeObject[] }[] = plan.addons.steps
    .filter((a) => a.method === 'bundled')
    .map((a) => ({ name: a.name, objects: renderBundledAddon(a, ctx) }));
  return { ctx, bundled, cloudConf: cc, ingress };
}

/** Runs create-cluster. */
export async function createCluster(o: CreateClusterOptions, deps: ApplyDeps): Promise<CreateClusterResult> {
  const cluster = checkClusterName(o.cluster);
  const resolved = clusterSettings(o);
  for (const w of resolved.warnings) deps.logger.warn(w);
  const s = resolved.values;
  const tolerant = o.dryRun;

  const tools: Record<string, boolean> = {};
  for (const t of ['kubectl', 'clusterctl', 'cilium', 'helm']) tools[t] = await deps.which(t);
  if (!o.dryRun) {
    const missing = ['kubectl', 'clusterctl'].filter((t) => !tools[t]);
    if (missing.length) {
      throw new PlanError(`${missing.join(' and ')} not found on PATH`, { problems: missing.map((t) => TOOL_HINTS[t]), hint: 'install them, or use --dry-run to only render' });
    }
  }

  // A dry-run plans as if the tools were there (it runs none of them) and says which are missing.
  const addonTools = o.dryRun ? { cilium: tools.cilium || !tools.helm, helm: true } : { cilium: tools.cilium, helm: tools.helm };
  if (o.dryRun) {
    for (const t of ['kubectl', 'clusterctl', 'cilium', 'helm'].filter((x) => !tools[x])) deps.logger.info(`- ${t}: not on PATH (not needed for --dry-run; ${TOOL_HINTS[t]})`);
  }

  const creds = cloudCredentials(o, s, tolerant);
  const conn = await cloudConnection(deps, creds.config, creds.problem, tolerant);
  const caps = o.capabilitiesFile
    ? loadCapabilitiesFile(path.resolve(o.cwd, o.capabilitiesFile), deps.readFile)
    : conn.cloud ? await conn.cloud.capabilities().catch((e: Error) => (tolerant ? undefined : Promise.reject(e))) : undefined;
  const lb = await deps.resolveLbPlan(s, caps);
  const plan = await planCluster({
    cluster, settings: s, cloudConfig: creds.config, cloudConfigProblem: creds.problem, cloud: conn.cloud, cloudProblem: conn.problem,
    lb, caps, strict: !o.dryRun, tools: addonTools, readFile: deps.readFile,
  });
  const addons = renderAddons(plan, creds.config, lb);
  for (const w of addons.cloudConf.warnings) deps.logger.warn(w);
  for (const l of plan.checks.lines()) deps.logger.info(l);
  for (const r of plan.reasons) deps.logger.info(`  ${r}`);

  const base: CreateClusterResult = {
    cluster,
    dryRun: o.dryRun,
    kubernetesVersion: plan.decisions.image.kubernetesVersion,
    checks: plan.checks.items,
    reasons: plan.reasons,
    addons: plan.addons.steps.map((a) => `${a.name} ${a.version} (${a.method})`),
  };
  if (o.dryRun) {
    const files = dryRunFiles(plan.objects, addons.bundled, addons.cloudConf.text);
    if (o.outputDir) return { ...base, files: writeOutputDir(path.resolve(o.cwd, o.outputDir), files) };
    return { ...base, manifests: stdoutText(files) };
  }
  const applied = await applyCluster(o, deps, { plan, cloud: conn.cloud!, addonCtx: addons.ctx, ingressDeploy: addons.ingress.deploy, tools });
  return { ...base, ...applied };
}
