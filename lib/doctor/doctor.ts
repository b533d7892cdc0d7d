import { existsSync } from 'node:fs';
import { KaasError, UsageError } from '../errors.js';
import { hiddenNote, visibleName } from '../visible.js';
import type { ProcessRunner } from '../exec/runner.js';
import type { ApplyIngressOptions } from '../ingress/apply-ingress.js';
import { ingressKubeTarget } from '../ingress/kubeconfig.js';
import { type Kubectl, kubectlFactory, type KubeTarget } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { resolveCloudConfig, type CloudConfig } from '../openstack/cloud-config.js';
import type { Connection } from '../openstack/connection.js';
import { planIngress } from '../plan/ingress.js';
import { planGateway } from '../plan/gateway.js';
import { planLoadBalancer, planLoadBalancerOffline } from '../plan/loadbalancer.js';
import { orThrow } from '../plan/decision.js';
import { planOccmLoadBalancer } from '../plan/occm-loadbalancer.js';
import { renderCloudConf } from '../render/cloud-conf.js';
import { gcfgTrue } from '../render/gcfg.js';
import { loadSettings } from '../settings/load.js';
import type { ResolvedSettings } from '../settings/types.js';
import { edgeKnowledge, localEdgeFacts, withEdgeDefaults } from '../state/edge-state.js';
import { localKey, userPath, workloadKubeconfigPath } from '../state/local-state.js';
import type { Settings } from '../settings/types.js';
import { runChecks, type Check, type CheckInput } from '../checks/check.js';
import { DOCTOR_CHECKS } from '../checks/catalogue.js';
import { fetchCloudSnapshot } from '../checks/fetch-cloud.js';
import { fetchClusterSnapshot } from '../checks/fetch-cluster.js';
import { formatReport, hasErrors, incomplete, incompleteError, sortFindings, type DoctorReport } from '../checks/findings.js';
import { ownedBy } from '../checks/names.js';
import { ownerNames } from '../checks/check.js';
import { clusterNames } from '../plan/cluster-model.js';
import { quotaNeeds } from '../checks/quota-needs.js';
import type { ClusterSnapshot, CloudSnapshot } from '../openstack/snapshot.js';


/** Inputs of `kaas doctor [<cluster>]`. */
export interface DoctorOptions extends Pick<ApplyIngressOptions, 'settingsDir' | 'env' | 'environ' | 'cwd' | 'home' | 'sets' | 'kubeconfig' | 'context'> {
  /** Undefined: every OCCM/CAPO load balancer of the project, cloud side only. */
  cluster?: string;
  /** --cloud: a clouds.yaml entry (beats the `cloud` setting and OS_CLOUD). */
  cloud?: string;
  cloudOnly?: boolean;
  /** PENDING_* longer than this counts as stuck (default 600 s). */
  stuckAfterSec?: number;
}

/** Adapters (injectable for tests). */
export interface DoctorDeps {
  logger: Logger;
  runner: ProcessRunner;
  kubectlFor?: (t: KubeTarget) => Kubectl;
  connect?: (cfg: CloudConfig, logger: Logger) => Promise<Connection>;
  now?: () => number;
}

/** Default --stuck-after: amphorae boot in a few minutes; ten is clearly stuck. */
export const DEFAULT_STUCK_AFTER_SEC = 600;

async function cloudSide(o: DoctorOptions, deps: DoctorDeps, s: Settings, cfg: CloudConfig) {
  const open = deps.connect ?? (async (c: CloudConfig, logger: Logger) => (await import('../openstack/connection.js')).connect(c, { logger }));
  const conn = await open(cfg, deps.logger);
  // Asked even with use_ovn_lb_provider: false: the plan's cloud.conf pins floating-network-id from the
  // cloud's external networks (as create-cluster renders it); planned offline it lacked it, and every
  // doctor run warned of a drift that was not there (found on the testbed's workload side).
  const { detectCapabilities } = await import('../openstack/detect.js');
  const caps = await detectCapabilities(conn);
  const octaviaVersion = caps.octavia.maxVersion;
  const lb = orThrow(planLoadBalancer(s, caps));
  const fetched = await fetchCloudSnapshot(conn, octaviaVersion);
  deps.logger.debug(`openstack: ${conn.http.stats.requests} HTTP requests`);
  return { lb, ...fetched };
}

/** The settings with the unset edge switches decided from kaas's records of the cluster (cluster/edge-state.ts). */
function clusterEdge(o: DoctorOptions, cluster: string, settings: ResolvedSettings): Settings {
  const key = localKey(o.home, o.env, settings.values.namespace, cluster);
  const kubeconfig = o.kubeconfig ? userPath(o.kubeconfig, o.home, o.cwd) : workloadKubeconfigPath(settings.values, key, o.cwd);
  return withEdgeDefaults(settings, cluster, () => edgeKnowledge(localEdgeFacts(key, kubeconfig), undefined)).values;
}

/**
 * `kaas doctor`: reads the cloud (Octavia, Neutron, quotas) with the cluster's credentials and,
 * unless --cloud-only, the workload cluster through kubectl; runs every check whose data is there.
 * A side left out on purpose (--cloud-only, no cluster named) is a skip; a check that could not run
 * (cloud or cluster unreadable, a quota forbidden) is listed as "could not run: <why>", never a
 * crash. Exit code 1 when there is an error finding or a check could not run (issue 23).
 */
export async function runDoctor(o: DoctorOptions, deps: DoctorDeps): Promise<{ data: DoctorReport; text: string; stderr?: string; exitCode: 0 | 1 }> {
  if (o.cluster !== undefined && (!/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.cluster) || o.cluster.length > 40)) {
    throw new UsageError(`cluster name "${visibleName(o.cluster)}" is not valid${hiddenNote(o.cluster)}`, { hint: "use lower-case letters, digits and '-' (at most 40), as in clusters.<name>" });
  }
  const stuckAfterSec = o.stuckAfterSec ?? DEFAULT_STUCK_AFTER_SEC;
  const settings = loadSettings({ settingsDir: o.settingsDir, env: o.env, cluster: o.cluster, environ: o.environ, sets: o.sets, cwd: o.cwd, flags: o.cloud ? { cloud: o.cloud } : undefined });
  settings.warnings.forEach((w) => deps.logger.warn(w));
  // Unset edge switches as the edge commands decide them (new clusters: the Gateway; existing: what runs).
  const s = o.cluster ? clusterEdge(o, o.cluster, settings) : settings.values;
  const cfg = resolveCloudConfig({ cloudFlag: o.cloud, cloudSetting: s.cloud || undefined, environ: o.environ, cwd: o.cwd, home: o.home, note: (m) => deps.logger.info(m) });

  const unavailable: { cloud?: string; cluster?: string } = {};
  let cloud: CloudSnapshot | undefined;
  let lb = s.use_ovn_lb_provider === false ? orThrow(planLoadBalancerOffline(s)) : undefined;
  const notRunByFetch: DoctorReport['couldNotRun'] = [];
  // The hints of what made checks not run: printed with the error line on stderr.
  const hints: string[] = [];
  try {
    const r = await cloudSide(o, deps, s, cfg);
    cloud = r.snapshot;
    lb = r.lb;
    notRunByFetch.push(...r.couldNotRun);
  } catch (e) {
    unavailable.cloud = `cloud ${cfg.name} not readable: ${(e as Error).message.split('\n')[0]}`;
    if (e instanceof KaasError && e.hint) hints.push(e.hint);
  }
  // Without the cloud's capabilities the plan assumes the default provider (amphora).
  lb ??= { ...orThrow(planLoadBalancerOffline({ use_ovn_lb_provider: false })), reasons: ['provider unknown: the cloud could not be read'] };
  const ingress = orThrow(planIngress(s, lb));
  const gateway = orThrow(planGateway(s, lb));
  // The edge OCCM serves: ingress-nginx's plan, else the gateway's (the same planEdgeLb decision).
  const edge = ingress.deploy || !gateway.deploy ? ingress : gateway.edge!;

  let kube: ClusterSnapshot | undefined;
  const byChoice = { cluster: o.cloudOnly || !o.cluster };
  if (o.cloudOnly) unavailable.cluster = '--cloud-only';
  else if (!o.cluster) unavailable.cluster = 'no cluster named (kaas doctor <cluster>)';
  else {
    const target = ingressKubeTarget({ ...o, cluster: o.cluster }, s);
    if (target.kubeconfig && !existsSync(target.kubeconfig)) {
      unavailable.cluster = `the workload kubeconfig ${target.kubeconfig} does not exist (kaas create-cluster writes it; or pass --kubeconfig)`;
    } else {
      const kubectl = kubectlFactory(deps)(target);
      try {
        kube = await fetchClusterSnapshot(kubectl);
      } catch (e) {
        const lines = (e as Error).message.split('\n').filter((l) => l.trim() && !/^E\d{4} /.test(l));
        unavailable.cluster = `cluster ${o.cluster} not reachable: ${lines.at(-1) ?? lines[0] ?? 'kubectl failed'}`;
        if (e instanceof KaasError && e.hint) hints.push(e.hint);
      }
    }
  }

  const names = o.cluster === undefined ? undefined : clusterNames(s.namespace, o.cluster);
  const owner = ownerNames({ cluster: o.cluster, names, kube });
  const exists = (cloud?.loadBalancers ?? []).some((l) => ownedBy(l, owner));
  const occm = { ...lb.cloudConf, ...Object.fromEntries(Object.entries(s.occm_loadbalancer).map(([k, v]) => [k, String(v)])) };
  const input: CheckInput = {
    cluster: o.cluster, names, now: (deps.now ?? Date.now)(), stuckAfterSec, lb, edge, cloud, kube,
    expectedCloudConf: renderCloudConf({ cloud: cfg, loadBalancer: orThrow(planOccmLoadBalancer(lb, s.occm_loadbalancer, { ...gateway.cloudConf, ...ingress.cloudConf })), caFileInPod: '/etc/config/ca.crt' }).text,
    needs: quotaNeeds({
      exists: exists || o.cluster === undefined, controllers: s.controller_count, workers: s.worker_count,
      edges: [
        // ingress-nginx's controller Service: ports 80 and 443.
        ...(ingress.deploy ? [{ name: 'ingress-nginx', ports: 2, monitored: ingress.monitor !== 'none' }] : []),
        // The envoy Service of kaas's default Gateway: its one HTTP listener (templates/gateway/kaas/edge.yaml.hbs).
        ...(gateway.deploy ? [{ name: 'gateway', ports: 1, monitored: gateway.edge!.monitor !== 'none' }] : []),
      ],
      apiFloatingIp: !(s.restrict_kubeapi ?? []).includes('none'),
      occmSecurityGroups: occm['manage-security-groups'] === undefined ? true : gcfgTrue(occm['manage-security-groups']),
    }),
  };
  const notRun = new Set(notRunByFetch.map((x) => x.check));
  const report = runChecks(DOCTOR_CHECKS.filter((c) => !notRun.has(c.id)), input, unavailable, byChoice);
  const data: DoctorReport = { findings: sortFindings(report.findings), checked: report.checked, skipped: report.skipped, couldNotRun: [...notRunByFetch, ...report.couldNotRun] };
  const title = `kaas doctor ${o.cluster ?? '(all clusters of the project)'}: provider ${lb.provider}, project ${cloud?.projectId ?? '?'}`;
  // Issue 23: a check that could not run (cloud down, 403, 5xx, not JSON, revoked token; cluster
  // unreachable; a quota forbidden) is not health: "no findings" with exit 0 said so when nothing had been checked.
  return { data, text: formatReport(data, title), stderr: incompleteError(data, hints), exitCode: hasErrors(data.findings) || incomplete(data) ? 1 : 0 };
}
