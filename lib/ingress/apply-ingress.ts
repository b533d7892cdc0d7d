import path from 'node:path';
import { writeOutputDir } from '../fs/output-dir.js';
import { UsageError } from '../errors.js';
import type { ProcessRunner } from '../exec/runner.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { CloudNotNamedError } from '../openstack/cloud-config.js';
import { CA_FILE_IN_POD, renderCloudConf } from '../render/cloud-conf.js';
import { loadSettings } from '../settings/load.js';
import type { ApplyTimeouts } from './apply-steps.js';
import { createIngressCloud, type IngressCloud } from './cloud.js';
import { edgeKnowledge, localEdgeFacts, withEdgeDefaults } from '../state/edge-state.js';
import { localKey, userPath, workloadKubeconfigPath } from '../state/local-state.js';
import { decideIngress } from './decide.js';
import { renderIngress } from './render.js';
import { orThrow } from '../plan/decision.js';
import { floatingNetworkVerdict } from '../plan/loadbalancer.js';
import { planOccmLoadBalancer } from '../plan/occm-loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';
import { mutatingRunMode } from '../settings/cluster-section.js';
import { checkClusterName } from '../settings/cluster-name.js';
import { clusterNames } from '../plan/cluster-model.js';
import { formatIngressPlan } from './text.js';

/** Inputs of `kaas apply-ingress <cluster>` (flags and the process's surroundings). */
export interface ApplyIngressOptions {
  cluster: string;
  settingsDir: string;
  env: string;
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  sets?: string[];
  dryRun?: boolean;
  /** --new-cluster: the cluster need not have a clusters.<name> section (settings/cluster-section.ts). */
  newCluster?: boolean;
  /** With dryRun: write DIR/ingress-nginx.yaml and DIR/cloud.conf (0600) instead of stdout. */
  outputDir?: string;
  /** With dryRun on stdout: `json` prints a kubectl-style `v1 List` (`-o json`), else multi-document YAML. */
  manifestFormat?: 'yaml' | 'json';
  /** A `kaas detect -o json` file: plan without asking the cloud. */
  capabilitiesFile?: string;
  kubeconfig?: string;
  context?: string;
  /** Apply although OCCM's live cloud config contradicts the plan. */
  force?: boolean;
  timeouts?: Partial<ApplyTimeouts>;
  /** After applying, verify the LB against the plan (kaas doctor's checks); exit 1 on a mismatch. */
  verify?: boolean;
}

/** Adapters; everything that reaches outside is injectable. */
export interface ApplyIngressDeps {
  logger: Logger;
  runner: ProcessRunner;
  /** kubectl for the workload cluster; default: the kubectl adapter over `runner`. */
  kubectlFor?: (t: KubeTarget) => Kubectl;
  /** The cloud; default: clouds.yaml / OS_* through lib/openstack, connected on first use. */
  cloud?: IngressCloud;
  sleep?: (ms: number) => Promise<void>;
}

/** What the command hands back: raw manifests (dry-run), a summary text, and data for -o json. */
export interface ApplyIngressResult {
  raw?: string;
  text?: string;
  data: Record<string, unknown>;
}

/**
 * The common start of every edge command (apply-ingress, apply-gateway): the cluster name checked
 * (it becomes file paths, ~/.kube/kaas/env.<env>/<ns>/<cluster>…, and OCCM's LB names: the rule of
 * clusters.<name> sections, so "../x" never escapes ~/.kube/kaas), settings loaded with their
 * warnings printed, and the cloud made on first use.
 */
export function loadEdgeRun(o: ApplyIngressOptions, deps: ApplyIngressDeps): { s: Settings; getCloud: () => IngressCloud } {
  // The name becomes file paths (~/.kube/kaas/env.<env>/<ns>/<cluster>.yaml, …/<cluster>/applied/)
  // and OCCM's LB name: the rule of clusters.<name> sections, so "../x" never escapes ~/.kube/kaas.
  checkClusterName(o.cluster);
  const settings = loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster: o.cluster, missingCluster: mutatingRunMode(o), environ: o.environ, sets: o.sets, cwd: o.cwd });
  settings.warnings.forEach((w) => deps.logger.warn(w));
  // Unset edge switches: new clusters get the Gateway, existing ones keep what kaas's records say runs.
  const key = localKey(o.home, o.env, settings.values.namespace, o.cluster);
  const kubeconfig = o.kubeconfig ? userPath(o.kubeconfig, o.home, o.cwd) : workloadKubeconfigPath(settings.values, key, o.cwd);
  const edge = withEdgeDefaults(settings, o.cluster, () => edgeKnowledge(localEdgeFacts(key, kubeconfig), undefined));
  edge.decided.notes.forEach((n) => deps.logger.info(n));
  const s = edge.values;
  let cloud = deps.cloud;
  const getCloud = () => (cloud ??= createIngressCloud({ environ: o.environ, cwd: o.cwd, home: o.home, cloudSetting: s.cloud, mutating: !o.dryRun, logger: deps.logger }));
  return { s, getCloud };
}

/**
 * external_network that names no external network of the cloud: a real run refuses it (exit 2,
 * nothing applied) as create-cluster does; a dry run says so as a warning (plan/loadbalancer.ts).
 */
export function checkFloatingNetwork(lb: LoadBalancerPlan, dryRun: boolean | undefined, logger: Logger): void {
  const v = floatingNetworkVerdict(lb, dryRun ?? false);
  if (v.refusal) throw v.refusal;
  if (v.warning) logger.warn(v.warning);
}

/**
 * A real run asks the cloud after applying (the LB verification, the VIP lookup): a cloud it must
 * not pick by itself (the only clouds.yaml entry, none named) is refused before anything is applied.
 */
export function requireNamedCloud(cloud: IngressCloud): void {
  const { error } = cloud.credentials();
  if (error instanceof CloudNotNamedError) throw error;
}

/** `--dry-run --output-dir DIR`: writes DIR/<manifestName> and DIR/cloud.conf (0600, it holds credentials); returns both paths. */
export function writeDryRun(
  o: Pick<ApplyIngressOptions, 'cwd' | 'outputDir'>, logger: Logger, cloud: IngressCloud,
  conf: { lb: LoadBalancerPlan; occm: Settings['occm_loadbalancer']; required: Record<string, string> }, manifestName: string, manifest: string,
): string[] {
  const creds = cloud.credentials();
  if (!creds.cloud) logger.warn(`cloud.conf written without [Global]: ${creds.problem}`);
  // As create-cluster writes it: the CA goes into the Secret (and ca-file into cloud.conf) only with verify on.
  const caMounted = Boolean(creds.cloud?.cacert && creds.cloud.verify);
  const loadBalancer = orThrow(planOccmLoadBalancer(conf.lb, conf.occm, conf.required));
  const rendered = renderCloudConf({ cloud: creds.cloud, loadBalancer, caFileInPod: caMounted ? CA_FILE_IN_POD : undefined });
  rendered.warnings.forEach((w) => logger.warn(w));
  const [manifestFile, confFile] = writeOutputDir(path.resolve(o.cwd, o.outputDir!), [
    { name: manifestName, text: manifest, secret: false },
    { name: 'cloud.conf', text: rendered.text, secret: true },
  ], manifestName === 'ingress-nginx.yaml' ? 'apply-ingress' : 'apply-gateway', (m) => logger.warn(m));
  logger.info(`wrote ${manifestFile} and ${confFile} (mode 0600)`);
  return [manifestFile, confFile];
}

/**
 * `kaas apply-ingress`: load settings → plan (printed with its reasons on stderr) → render →
 * dry-run output, or apply to the workload cluster and verify. Throws PlanError/UsageError (exit 2)
 * before touching anything when the settings, the cloud or the live OCCM config do not fit.
 */
export async function runApplyIngress(o: ApplyIngressOptions, deps: ApplyIngressDeps): Promise<ApplyIngressResult> {
  const { logger } = deps;
  const { s, getCloud } = loadEdgeRun(o, deps);

  const decision = await decideIngress(s, { capabilitiesFile: o.capabilitiesFile, cloud: getCloud });
  formatIngressPlan(o.cluster, o.env, decision).forEach((l) => logger.info(l));
  decision.ingress.warnings.forEach((w) => logger.warn(w));
  const data: Record<string, unknown> = { cluster: o.cluster, loadBalancer: decision.lb, ingress: decision.ingress };
  if (!decision.ingress.deploy) {
    logger.info('nothing to apply');
    return { text: '', data };
  }
  checkFloatingNetwork(decision.lb, o.dryRun, logger);

  const rendered = await renderIngress(decision.ingress);
  if (o.dryRun && !o.outputDir) {
    const raw = o.manifestFormat === 'json' ? JSON.stringify({ apiVersion: 'v1', kind: 'List', items: rendered.objects }, null, 2) + '\n' : rendered.yaml;
    return { raw, data };
  }
  if (o.dryRun) {
    const files = writeDryRun(o, logger, getCloud(), { lb: decision.lb, occm: s.occm_loadbalancer, required: decision.ingress.cloudConf }, 'ingress-nginx.yaml', rendered.yaml);
    return { text: '', data: { ...data, files } };
  }

  requireNamedCloud(getCloud());
  // The applying half (kubectl, the workload kubeconfig with its lock, the post-apply verification
  // with the HTTP stack and Octavia's answer validators) loads only for a real run: a dry run renders
  // without it (npm run bench: apply-ingress --dry-run against kubectl kustomize).
  const [{ applyToCluster }, { edgeKey, edgeKubeTarget }] = await Promise.all([import('./apply-steps.js'), import('./kubeconfig.js')]);
  const target = await edgeKubeTarget(o, s, deps);
  const kubectl = kubectlFactory(deps)(target);
  const applied = await applyToCluster(
    { names: clusterNames(s.namespace, o.cluster), key: edgeKey(o, s), force: o.force ?? false, nodeCidr: s.node_cidr, timeouts: o.timeouts, verify: o.verify },
    { kubectl, logger, cloud: getCloud, sleep: deps.sleep },
    decision,
    rendered,
  );
  return {
    text: `ingress-nginx ${decision.ingress.version!.version} (${decision.ingress.variant}) applied to cluster ${o.cluster}; address ${applied.address}`,
    data: { ...data, applied },
  };
}
