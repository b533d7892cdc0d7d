import { existsSync } from 'node:fs';
import path from 'node:path';
import { PlanError } from '../../errors.js';
import type { ProcessRunner } from '../../exec/runner.js';
import { kubectlFactory } from '../../kube/kubectl.js';
import { loadCapabilitiesFile } from '../../openstack/capabilities-file.js';
import { cloudNotReachable } from '../../openstack/http-error.js';
import { orThrow, type Refusal } from '../../plan/decision.js';
import { planGateway, type GatewayPlan } from '../../plan/gateway.js';
import { planIngress, type IngressPlan } from '../../plan/ingress.js';
import { planOccmLoadBalancer } from '../../plan/occm-loadbalancer.js';
import type { LoadBalancerPlan } from '../../plan/types.js';
import type { CloudConfig } from '../../openstack/cloud-config.js';
import { CA_FILE_IN_POD, renderCloudConf } from '../../render/cloud-conf.js';
import type { KubeObject } from '../../render/documents.js';
import { renderBundledAddon, type AddonContext } from './addons.js';
import { applyCluster, readManagementCluster, type ApplyDeps, type ApplyInput, type CreateTimeouts, type ManagementReads, type StepTime } from './apply.js';
import { readLiveEdge, recreateEdgeServices } from '../live/edge.js';
import { pinProvider, type LiveEdge } from '../../plan/provider-pin.js';
import { edgeKnowledge, localEdgeFacts, withEdgeDefaults } from '../../state/edge-state.js';
import { localKey, workloadKubeconfigPath } from '../../state/local-state.js';
import { workloadAccess } from '../../state/workload-access.js';
import { legacyPaths } from '../../state/legacy-state.js';
import { planCluster, type ClusterPlan } from '../plan.js';
import { reportManagementCluster, servesClusterObjects, type ManagementVerdict } from '../preflight.js';
import { liveConvergence } from '../live/plan.js';
import type { ObjectDiff } from '../live/reconcile.js';
import { prefetchPlanReads, type ClusterCloud } from '../cloud.js';
import { occmClusterName } from '../../plan/cluster-model.js';
import { mutatingRunMode } from '../../settings/cluster-section.js';
import type { Settings } from '../../settings/types.js';
import { writeOutputDir } from '../../fs/output-dir.js';
import { dryRunFiles, stdoutText } from './output.js';
import { clusterTemplateVariables } from '../render.js';
import { checkClusterName, cloudConnection, cloudCredentials, clusterSettings, managementTarget, TOOL_HINTS, type ClusterRunOptions } from '../setup.js';

/**
 * `kaas create-cluster <cluster>`: preflight, plan, render, then either write/print the manifests
 * (--dry-run, touches nothing and needs neither kubectl, clusterctl nor a management cluster) or
 * converge the cluster and its add-ons (create-apply.ts). Running it again converges.
 */

/** Flags of create-cluster beyond the common ones. */
export interface CreateClusterOptions extends ClusterRunOptions {
  outputDir?: string;
  /** false (--no-wait): return once the management-cluster objects are applied. */
  wait?: boolean;
  /** A `kaas detect -o json` file: plan the load balancers without asking Octavia. */
  capabilitiesFile?: string;
  /** Allow a use_ovn_lb_provider switch on a live cluster by re-creating kaas's edge Services (new addresses). */
  recreateEdgeServices?: boolean;
  timeouts?: Partial<CreateTimeouts>;
  /** A floating kubernetes_version (vX.Y.x) moves a live cluster to the newest patch image; without it the live version is kept. */
  upgrade?: boolean;
  /** false (--no-merge-kubeconfig): leave the user's kubeconfig alone; only the cluster's own file is written. */
  mergeKubeconfig?: boolean;
}

/** What create-cluster reports (printed as text, JSON or YAML). */
export interface CreateClusterResult {
  cluster: string;
  dryRun: boolean;
  kubernetesVersion: string;
  checks: { name: string; status: string; detail: string }[];
  reasons: string[];
  addons: string[];
  /** The ingress step: what create-cluster deploys last (as `kaas apply-ingress` would), or why nothing. */
  ingress: string;
  /** The gateway step, after the ingress (as `kaas apply-gateway` would), or why nothing. */
  gateway: string;
  /** dry-run: files written (with --output-dir). */
  files?: string[];
  /** dry-run without --output-dir: the manifests (secrets redacted). */
  manifests?: string;
  /** dry-run against a reachable management cluster: the change per object. */
  live?: { namespace: string; objects: ObjectDiff[] };
  steps?: StepTime[];
  kubeconfig?: string;
  contexts?: string[];
  /** false: --no-wait stopped after the management-cluster objects. */
  waited?: boolean;
}

/** `--list-variables`: what each template reads, as clusterctl generate cluster --list-variables. */
export function listVariables(): { file: string; variables: string[] }[] {
  return clusterTemplateVariables();
}

/** The bundled add-on objects and cloud.conf of a plan (also what dry-run writes). */
export function renderAddons(plan: ClusterPlan, cloud: CloudConfig | undefined, lb: LoadBalancerPlan) {
  const s = plan.decisions.settings;
  const ingress = orThrow(planIngress({ ...s, kubernetes_version: plan.decisions.image.kubernetesVersion }, lb));
  const gateway = orThrow(planGateway({ ...s, kubernetes_version: plan.decisions.image.kubernetesVersion }, lb));
  // ca-file exactly when the CA goes into the Secret (identity reads it only with verify on).
  const cacert = plan.decisions.identity?.cacert;
  const loadBalancer = orThrow(planOccmLoadBalancer(lb, s.occm_loadbalancer, { ...ingress.cloudConf, ...gateway.cloudConf }));
  const cc = renderCloudConf({ cloud, loadBalancer, caFileInPod: cacert ? CA_FILE_IN_POD : undefined });
  const ctx: AddonContext = { cluster: occmClusterName(plan.decisions.namespace, plan.decisions.cluster), cloudConf: cc.text, cacert, mtu: s.mtu, podCidr: s.pod_cidr };
  // Rendered when asked: for the dry-run's files, and by a real run while its management preflight's
  // kubectl runs (parsing the upstream manifests, calico's 0.3 MB, took the CPU before it).
  const bundled = (): { name: string; objects: KubeObject[] }[] => plan.addons.steps
    .filter((a) => a.method === 'bundled')
    .map((a) => ({ name: a.name, objects: renderBundledAddon(a, ctx) }));
  return { ctx, bundled, cloudConf: cc, ingress, gateway };
}

/** One line for the ingress step: version, variant and provider, or that nothing is deployed. */
export function ingressStep(i: IngressPlan): string {
  if (!i.deploy) return `none: ${i.reasons[0] ?? 'deploy_nginx_ingress is false'}`;
  return `ingress-nginx ${i.version!.version} (${i.variant}${i.proxyProtocol ? ', PROXY protocol' : ''}), applied last as kaas apply-ingress does`;
}

/** One line for the gateway step: version, provider and PROXY, or that nothing is deployed. */
export function gatewayStep(g: GatewayPlan): string {
  if (!g.deploy) return 'none: deploy_gateway is false';
  return `Envoy Gateway ${g.version!.version} (Gateway API ${g.version!.gatewayApi}, ${g.provider}${g.clientTrafficPolicyProxy ? ', PROXY protocol' : ''}), applied after the ingress as kaas apply-gateway does`;
}

/**
 * A dry-run with a reachable management cluster (the preflight's verdict; undefined = not reached)
 * also shows what would change per object (and refuses what CAPO would refuse); without one, or
 * without Cluster API/CAPO on it, it stays offline.
 */
async function dryRunLive(o: CreateClusterOptions, deps: ApplyDeps, plan: ClusterPlan, verdict: ManagementVerdict | undefined, cloud?: ClusterCloud): Promise<(CreateClusterResult['live'] & { kubernetesVersion: string; topologyObjects?: KubeObject[] }) | undefined> {
  const s = plan.decisions.settings;
  const mgmt = kubectlFactory(deps)(managementTarget(o, s));
  if (!verdict) {
    deps.logger.info('- management cluster: not reachable, the dry-run stays offline (no per-object diff)');
    return undefined;
  }
  if (!servesClusterObjects(verdict)) {
    deps.logger.info('- management cluster: Cluster API or CAPO not installed, the dry-run stays offline (no per-object diff)');
    return undefined;
  }
  const live = await liveConvergence(mgmt, plan, deps.logger, { upgrade: o.upgrade, loadBalancerProvider: cloud ? (id) => cloud.loadBalancerProvider(id) : undefined });
  return { namespace: live.namespace, objects: live.converge.diffs, kubernetesVersion: live.kubernetesVersion, topologyObjects: live.topology ? live.converge.objects : undefined };
}

/**
 * The management preflight's reads, started ahead (apply.ts readManagementCluster), and a way to end
 * the kubectl runs still under way when the run stops before it needs them.
 */
function startManagementReads(o: CreateClusterOptions, deps: ApplyDeps, s: Pick<Settings, 'mgmt_kubeconfig' | 'mgmt_context'>, cluster: string): { reads: ManagementReads; abort: () => void } {
  const ac = new AbortController();
  const target = managementTarget(o, s);
  const runner: ProcessRunner = { run: (cmd, args, opts) => deps.runner.run(cmd, args, { ...opts, signal: ac.signal }) };
  const mgmt = kubectlFactory({ runner, kubectlFor: deps.kubectlFor })(target);
  return { reads: readManagementCluster(mgmt, cluster), abort: () => ac.abort() };
}

/** Runs create-cluster. */
export async function createCluster(o: CreateClusterOptions, deps: ApplyDeps): Promise<CreateClusterResult> {
  const cluster = checkClusterName(o.cluster);
  const resolved = clusterSettings(o, mutatingRunMode(o));
  for (const w of resolved.warnings) deps.logger.warn(w);
  let s = resolved.values;
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

  const creds = cloudCredentials(o, s, tolerant, deps.logger);
  const connected = await cloudConnection(deps, creds.config, creds.problem, tolerant);
  // The plan's cloud reads go out together with the capabilities (cloud.ts prefetchPlanReads).
  const conn = connected.cloud ? { ...connected, cloud: prefetchPlanReads(connected.cloud) } : connected;
  // A real run asks the management cluster (read-only) once the cloud answered, while it plans: its
  // preflight's reads run beside the cloud's and are judged at the preflight step, after the plan passed.
  // When the plan stops the run first, the reads still under way are ended.
  const early = !o.dryRun && conn.cloud ? startManagementReads(o, deps, resolved.values, cluster) : undefined;
  try {
    // A dry run goes on without the cloud, but a cloud that did not answer heads its blocking problems.
    let unreachable = conn.unreachable;
    const caps = o.capabilitiesFile
      ? loadCapabilitiesFile(path.resolve(o.cwd, o.capabilitiesFile), deps.readFile)
      : conn.cloud ? await conn.cloud.capabilities().catch((e: Error) => {
        if (!tolerant) return Promise.reject(e);
        unreachable = cloudNotReachable(creds.config!.name, e);
        return undefined;
      }) : undefined;
    // A dry-run lists every blocking problem at once: a load-balancer plan that cannot work is one of them.
    const earlier: Refusal[] = [];
    let lb = await deps.resolveLbPlan(s, caps).catch(async (e: unknown) => {
      if (!o.dryRun || !(e instanceof PlanError)) throw e;
      earlier.push({ message: e.message, hint: e.hint ?? 'see kaas detect', problems: e.problems });
      return deps.resolveLbPlan({ ...s, use_ovn_lb_provider: false }, undefined);
    });
    // A running cluster keeps its Service LB provider unless a switch is safe or asked for (plan/provider-pin.ts).
    let edge: ApplyInput['edge'];
    const key = localKey(o.home, o.env, s.namespace, cluster);
    const recorded = workloadKubeconfigPath(s, key, o.cwd);
    let live: LiveEdge | undefined;
    if (!o.dryRun) {
      // The live cluster as get kubeconfig reaches it (the Secret first: a recorded file with an expired
      // certificate must not hide the live provider); a file of another cluster is ignored, not read.
      // Without a recorded file (or a legacy one to move) nothing of the workload cluster is read: a first
      // create asks the management cluster only the preflight's reads (started above, once the cloud answered).
      const kubectlFor = kubectlFactory(deps);
      const access = existsSync(recorded) || existsSync(legacyPaths(o.home, cluster).kubeconfig)
        ? await workloadAccess({ key, recorded, mgmt: kubectlFor(managementTarget(o, s)), namespaceSetting: s.namespace, refuse: false, envFlag: `--env ${o.env}` }, deps)
        : {};
      live = 'target' in access && access.target ? await readLiveEdge(kubectlFor(access.target), deps.logger) : undefined;
      const pin = pinProvider(s.use_ovn_lb_provider, lb.provider, live, o.recreateEdgeServices ?? false, caps?.octavia.present ? caps.octavia.providers : undefined);
      const v = orThrow(pin);
      if (v.useOvn !== s.use_ovn_lb_provider) lb = await deps.resolveLbPlan({ ...s, use_ovn_lb_provider: v.useOvn }, caps);
      lb = { ...lb, reasons: [...lb.reasons, ...pin.reasons] };
      edge = {
        sets: v.useOvn !== s.use_ovn_lb_provider ? [`use_ovn_lb_provider=${v.useOvn}`] : [],
        recreate: v.recreate.length ? (workload) => recreateEdgeServices(workload, v.recreate, deps.logger, deps.clock) : undefined,
      };
    }
    // Unset edge switches: the Gateway for a new cluster, what runs for an existing one (plan/edge-default.ts);
    // the edge steps get the decision as --set values, since they resolve the settings again.
    const edgeDefaults = withEdgeDefaults(resolved, cluster, () => edgeKnowledge(localEdgeFacts(key, recorded), live));
    s = edgeDefaults.values;
    if (edge) edge.sets.push(...edgeDefaults.sets);
    const plan = await planCluster({
      cluster, settings: s, cloudConfig: creds.config, cloudConfigProblem: creds.problem, cloud: conn.cloud, cloudProblem: conn.problem, unreachable,
      lb, caps, strict: !o.dryRun, tools: addonTools, readFile: deps.readFile, earlier, settingsDir: path.dirname(resolved.file),
    });
    const addons = renderAddons(plan, creds.config, lb);
    let verdict: ManagementVerdict | undefined;
    if (o.dryRun) {
      // Read-only: the same preflight as a real run, reported as checks instead of stopping the dry-run.
      const mgmt = tools.kubectl ? kubectlFactory(deps)(managementTarget(o, s)) : undefined;
      verdict = await reportManagementCluster(mgmt, 'kubectl is not on PATH', plan.checks);
    }
    for (const w of [...plan.warnings, ...addons.cloudConf.warnings]) deps.logger.warn(w);
    for (const l of plan.checks.lines()) deps.logger.info(l);
    const reasons = [...plan.reasons, ...edgeDefaults.decided.notes];
    for (const r of reasons) deps.logger.info(`  ${r}`);

    const base: CreateClusterResult = {
      cluster,
      dryRun: o.dryRun,
      kubernetesVersion: plan.decisions.image.kubernetesVersion,
      checks: plan.checks.items,
      reasons,
      addons: plan.addons.steps.map((a) => `${a.name} ${a.version} (${a.method})`),
      ingress: ingressStep(addons.ingress),
      gateway: gatewayStep(addons.gateway),
    };
    deps.logger.info(`ingress step: ${base.ingress}`);
    deps.logger.info(`gateway step: ${base.gateway}`);
    if (o.dryRun) {
      const live = await dryRunLive(o, deps, plan, verdict, conn.cloud);
      if (live) {
        base.live = { namespace: live.namespace, objects: live.objects };
        base.kubernetesVersion = live.kubernetesVersion;
      }
      // A ClusterClass cluster: what would be applied is the topology plan (new template generations, the
      // class and Cluster changes), not kaas's own objects, which the topology controller owns there.
      const files = dryRunFiles(live?.topologyObjects ?? plan.objects, addons.bundled(), addons.cloudConf.text);
      if (live?.topologyObjects) {
        files[0] = { ...files[0], text: `# Cluster ${cluster} is made from a ClusterClass: these are the only cluster objects a run would apply (${live.topologyObjects.length}; none when the topology and the class match the settings).\n${files[0].text}` };
      }
      if (addons.ingress.deploy) {
        // The ingress goes in last; its manifests sit before cloud.conf, as the apply order has it.
        const { renderIngress } = await import('../../ingress/render.js');
        files.splice(files.length - 1, 0, { name: 'ingress-nginx.yaml', text: (await renderIngress(addons.ingress)).yaml, secret: false });
      }
      let gatewayCrds = '';
      if (addons.gateway.deploy) {
        // Then the gateway (CRDs, control plane, kaas's edge objects), as apply-gateway renders it.
        const { renderGateway } = await import('../../gateway/render.js');
        const g = await renderGateway(addons.gateway);
        files.splice(files.length - 1, 0, { name: 'envoy-gateway.yaml', text: g.yaml, secret: false });
        gatewayCrds = g.crdsYaml;
      }
      if (o.outputDir) return { ...base, files: writeOutputDir(path.resolve(o.cwd, o.outputDir), files, 'create-cluster', (m) => deps.logger.warn(m)) };
      // On stdout the gateway's verbatim upstream CRDs (3.7 MB) are named, not printed; --output-dir writes them.
      const shown = files.map((f) => (f.name === 'envoy-gateway.yaml' && gatewayCrds
        ? { ...f, text: `# (the Gateway API and Envoy Gateway CRDs, ${Math.round(gatewayCrds.length / 1e5) / 10} MB, are left out here: --output-dir DIR writes them)\n${f.text.slice(gatewayCrds.length)}` }
        : f));
      return { ...base, manifests: stdoutText(shown) };
    }
    const applied = await applyCluster(o, deps, { plan, cloud: conn.cloud!, addonCtx: addons.ctx, ingressDeploy: addons.ingress.deploy, gatewayDeploy: addons.gateway.deploy, tools, edge, renderAddons: addons.bundled, managementReads: early?.reads });
    return { ...base, ...applied };
  } catch (e) {
    early?.abort();
    throw e;
  }
}
