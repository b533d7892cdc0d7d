import { KaasError, PlanError } from '../errors.js';
import type { CloudConfig } from '../openstack/cloud-config.js';
import type { Capabilities } from '../openstack/types.js';
import { planAddons, type AddonStep } from '../plan/addons.js';
import { orThrow, type Decision, type Refusal } from '../plan/decision.js';
import { kubeApiLbFacts, kubeApiMode, planKubeApiAccess, type KubeApiLbFacts, type MgmtHostAddresses } from '../plan/kubeapi.js';
import { chooseExternalNetwork } from '../plan/external-network.js';
import { chooseFlavor, chooseImage } from '../plan/machines.js';
import { planNodePortSources } from '../plan/nodeports.js';
import { registryNodeFiles } from '../plan/registry-hosts.js';
import { planServerGroups, type ServerGroupAction } from '../plan/server-groups.js';
import { checkWorkerCount } from '../plan/cluster-shape.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { KubeObject } from '../render/documents.js';
import type { Settings } from '../settings/types.js';
import { CheckList, lookup } from './checks.js';
import type { ClusterCloud } from './cloud.js';
import { clusterIdentity } from './identity.js';
import { clusterNamespace, type ClusterDecisions } from '../plan/cluster-model.js';
import { renderClusterObjects } from './render.js';

/**
 * Plans one cluster: asks the cloud what it needs (images, flavors, external networks, server
 * groups, Octavia, the management host), takes every decision, renders and validates the objects.
 * Touches nothing. With `strict` false (dry-run) a lookup that cannot run is a skipped check.
 * Every blocking problem is listed at once (image, flavors, external network, server groups,
 * kube-API access, credentials): a first run against a new cloud should not fail in rounds.
 */

/** Inputs of planCluster; the cloud and its config are undefined when not available. */
export interface PlanClusterInput {
  cluster: string;
  settings: Settings;
  cloudConfig?: CloudConfig;
  /** Why the cloud config is unavailable (shown as a skipped check). */
  cloudConfigProblem?: string;
  cloud?: ClusterCloud;
  /** Why the cloud cannot be asked. */
  cloudProblem?: string;
  /** The cloud is configured but did not answer (dry run): the first of the blocking problems, if any. */
  unreachable?: Refusal;
  lb: LoadBalancerPlan;
  /** Detected (or --capabilities) facts; they save the external-network and Octavia lookups. */
  caps?: Capabilities;
  strict: boolean;
  tools: { cilium: boolean; helm: boolean };
  readFile: (p: string) => string;
  /** Directory that relative paths in the settings (registry_mirrors ca_file) are relative to: the environment file's. */
  settingsDir?: string;
  /** Blocking problems found before planning (the load-balancer plan), listed with the others. */
  earlier?: Refusal[];
}

/** Everything decided, rendered and checked. */
export interface ClusterPlan {
  decisions: ClusterDecisions;
  objects: KubeObject[];
  addons: { steps: AddonStep[]; reasons: string[] };
  serverGroups: ServerGroupAction[];
  checks: CheckList;
  reasons: string[];
  /** Things the user should look at (printed as warnings). */
  warnings: string[];
}

/** The OpenStack project behind each catalog type kaas asks for. */
const SERVICE_NAMES: Record<string, string> = { image: 'Glance', compute: 'Nova', network: 'Neutron', 'load-balancer': 'Octavia' };

/** A skipped lookup's reason, saying plainly when the service is simply not in the catalog. */
export function absentService(reason: string): string {
  const m = /^the catalog has no "([\w-]+)" service$/.exec(reason);
  if (!m) return reason;
  return `${reason}: this cloud does not offer ${SERVICE_NAMES[m[1]] ?? m[1]} to your project (or region_name names another region)`;
}

/**
 * The blocking problems with the unreachable cloud first: what follows (auto needs the providers,
 * an image not checked, …) is its consequence. Alone it blocks nothing: a dry run plans offline.
 */
export function unreachableFirst(refusals: Refusal[], unreachable: Refusal | undefined): Refusal[] {
  return unreachable && refusals.length ? [unreachable, ...refusals] : refusals;
}

/** Blocking problems, collected so that all of them are reported in one error. */
class Blocking {
  readonly refusals: Refusal[] = [];
  constructor(private readonly checks: CheckList) {}

  /** The decision's value (undefined when refused: recorded as the failed check `name`), and its reasons. */
  must<T>(d: Decision<T>, name: string): { value: T | undefined; reasons: string[] } {
    if (d.ok) return { value: d.value, reasons: d.reasons };
    this.checks.failed(name, d.refusals[0].message);
    this.refusals.push(...d.refusals);
    return { value: undefined, reasons: d.reasons };
  }

  /** Throws one PlanError naming every problem (one problem: as it was, with its own hint); an unreachable cloud first. */
  throwIfAny(cluster: string, unreachable?: Refusal): void {
    const refusals = unreachableFirst(this.refusals, unreachable);
    if (refusals.length === 0) return;
    if (refusals.length === 1) orThrow({ ok: false, refusals, reasons: [] });
    throw new PlanError(`${refusals.length} problems block cluster ${cluster}`, {
      problems: refusals.map((r) => `${r.message}${r.problems?.length ? ` (${r.problems.join('; ')})` : ''}; hint: ${r.hint}`),
      hint: 'fix each of them and run again (--dry-run checks them all without changing anything)',
    });
  }
}

/** Takes every decision for the cluster (see the module comment). */
export async function planCluster(i: PlanClusterInput): Promise<ClusterPlan> {
  const s = i.settings;
  const checks = new CheckList();
  const reasons: string[] = [...i.lb.reasons];
  const why = i.cloudProblem ?? 'the cloud is not asked';
  const ask = <T>(name: string, fn: (c: ClusterCloud) => Promise<T>) => lookup(checks, name, i.cloud ? () => fn(i.cloud!) : undefined, why, i.strict);

  const block = new Blocking(checks);
  for (const r of i.earlier ?? []) block.refusals.push(r);
  const skippedWhy = (name: string) => absentService(checks.items.filter((c) => c.name === name && c.status === 'skipped').pop()?.detail ?? why);
  reasons.push(...block.must(checkWorkerCount(s), 'cluster shape').reasons);
  const images = await ask('image', (c) => c.imageNames());
  const imageDecision = block.must(chooseImage(s.kubernetes_version, s.image, images, images ? undefined : skippedWhy('image')), 'image');
  const image = imageDecision.value;
  if (images && image) checks.ok('image', `${image.image} exists`);
  reasons.push(...imageDecision.reasons);

  const flavors = await ask('flavors', (c) => c.flavors());
  const controller = block.must(chooseFlavor('controller', s.controller_flavor, s.controller_root_disk, flavors), 'flavors');
  const worker = block.must(chooseFlavor('worker', s.worker_flavor, s.worker_root_disk, flavors), 'flavors');
  if (flavors && controller.value && worker.value) checks.ok('flavors', `${s.controller_flavor}, ${s.worker_flavor} exist`);
  reasons.push(...controller.reasons, ...worker.reasons);

  const nets = i.caps?.neutron.externalNetworks ?? (await ask('external network', (c) => c.externalNetworks()));
  if (nets) {
    const net = block.must(chooseExternalNetwork(s.external_network, nets), 'external network').value;
    if (net) checks.ok('external network', `${net.name} (${net.id})`);
  }

  const existing = await ask('server groups', (c) => c.serverGroups());
  const sg = block.must(planServerGroups({ cluster: i.cluster, prefix: s.prefix, antiAffinity: s.anti_affinity, softController: s.soft_anti_affinity_controller, existing: existing ?? [] }), 'server groups');
  reasons.push(...sg.reasons);

  // Both a CIDR list and ["none"] allow the management host: its address is needed either way.
  const restricted = kubeApiMode(s.restrict_kubeapi) !== 'open';
  let mgmtHost: MgmtHostAddresses = { found: false, reason: 'not needed' };
  let lbFacts: KubeApiLbFacts | undefined;
  let mgmtUnknown = false;
  if (restricted) {
    if (s.mgmt_host_cidrs.length) mgmtHost = { found: true, cidrs: s.mgmt_host_cidrs, source: 'mgmt_host_cidrs' };
    else if (!s.mgmt_server_name) mgmtHost = { found: false, reason: 'mgmt_server_name is not set' };
    else {
      const found = await ask('management host address', (c) => c.serverAddresses(s.mgmt_server_name));
      if (found) mgmtHost = found;
      else {
        mgmtUnknown = true;
        mgmtHost = { found: true, cidrs: [], source: 'not known: the rendered allowedCIDRs lack it' };
      }
    }
    if (mgmtHost.found && mgmtHost.cidrs.length) checks.ok('management host address', `${mgmtHost.cidrs.join(', ')} (${mgmtHost.source})`);
    if (i.caps) lbFacts = kubeApiLbFacts(i.caps.octavia);
    else {
      const octaviaVersion = await ask('octavia', (c) => c.octaviaVersion());
      if (octaviaVersion !== undefined) lbFacts = { octaviaVersion };
    }
  }
  const apiDecision = planKubeApiAccess({ restrict: s.restrict_kubeapi, mgmtHost, lb: lbFacts });
  const api = block.must(apiDecision, 'kube-API access').value;
  if (mgmtUnknown) reasons.push('management host address not known (dry-run without the cloud): allowedCIDRs lack it');
  reasons.push(...apiDecision.reasons);
  if (apiDecision.ok) reasons.push(...apiDecision.warnings.map((w) => `warning: ${w}`));

  let identity;
  if (i.cloudConfig) {
    try {
      identity = clusterIdentity(i.cloudConfig, 'openstack', i.readFile);
      checks.ok('credentials', `application credential of cloud ${i.cloudConfig.name}`);
    } catch (e) {
      if (!(e instanceof KaasError) || e.exitCode !== 2) throw e;
      checks.failed('credentials', e.message);
      block.refusals.push({ message: e.message, hint: e.hint ?? 'fix the cloud entry in clouds.yaml' });
    }
  } else if (i.strict) {
    block.refusals.push({ message: `no cloud credentials: ${i.cloudConfigProblem ?? 'unknown'}`, hint: 'set the cloud setting (or OS_CLOUD) to a clouds.yaml entry with an application credential' });
  } else {
    checks.skipped('credentials', `${i.cloudConfigProblem ?? 'no cloud configured'}; the cloud-config Secret is not rendered`);
  }
  // Before the first throw: an unreadable CA is listed with the other blocking problems.
  const registry = registryNodeFiles(s.registry_mirrors, i.settingsDir ?? process.cwd(), i.readFile);
  reasons.push(...registry.reasons);
  if (!registry.ok) block.refusals.push(...registry.refusals);
  block.throwIfAny(i.cluster, i.unreachable);

  const addonDecision = planAddons(s, image!.kubernetesVersion, i.tools);
  const addons = { steps: orThrow(addonDecision), reasons: addonDecision.reasons };
  reasons.push(...addons.reasons);
  const nodePorts = planNodePortSources({
    ovn: i.lb.ovn, nodeCidr: s.node_cidr, extra: s.ovn_nodeport_cidrs, occm: s.occm_loadbalancer,
    occmVersion: addons.steps.find((a) => a.name === 'occm')?.version,
  });
  reasons.push(...nodePorts.reasons);

  const decisions: ClusterDecisions = {
    cluster: i.cluster,
    namespace: clusterNamespace(s.namespace, i.cluster),
    settings: s,
    image: image!,
    controller: controller.value!,
    worker: worker.value!,
    kubeApi: { allowedCIDRs: api!.allowedCIDRs, provider: api!.provider },
    serverGroups: sg.value!,
    identity,
    nodePortSources: orThrow(nodePorts),
    nodeFiles: orThrow(registry),
  };
  const warnings = nodePorts.ok ? nodePorts.warnings : [];
  return { decisions, objects: renderClusterObjects(decisions), addons, serverGroups: sg.value!, checks, reasons, warnings };
}
