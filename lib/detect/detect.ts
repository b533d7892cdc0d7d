import type { Logger } from '../log.js';
import { resolveCloudConfig } from '../openstack/cloud-config.js';
import { loadCapabilitiesFile } from '../openstack/capabilities-file.js';
import { connect } from '../openstack/connection.js';
import { detectCapabilities } from '../openstack/detect.js';
import type { HttpClient } from '../openstack/http.js';
import type { Capabilities } from '../openstack/types.js';
import { orThrow } from '../plan/decision.js';
import { checkKubeApiLb, kubeApiLbFacts } from '../plan/kubeapi.js';
import { planLoadBalancer } from '../plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import { loadSettings } from '../settings/load.js';
import { formatDetectText } from './text.js';

/** Inputs of `kaas detect`; everything from the outside world is passed in. */
export interface DetectOptions {
  settingsDir: string;
  env: string;
  cluster?: string;
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  sets?: string[];
  /** --cloud: beats the `cloud` setting and OS_CLOUD. */
  cloud?: string;
  /** --capabilities FILE: plan from saved capabilities, without asking the cloud. */
  capabilitiesFile?: string;
  timeoutMs?: number;
}

/** What `kaas detect` works through. */
export interface DetectDeps {
  logger: Logger;
  /** Injected HTTP client (tests); otherwise one is built from the cloud's TLS settings. */
  http?: HttpClient;
}

/** What `kaas detect -o json` prints: the capabilities, the Service load-balancer plan and the kube-API LB check. */
export type DetectReport = Capabilities & { loadBalancer: LoadBalancerPlan; kubeApi: { provider?: string; reasons: string[] } };

/** Asks the cloud (one token, ≤ 3 requests after it) for its capabilities. */
export async function detectCloud(opts: DetectOptions, deps: DetectDeps, cloudSetting?: string): Promise<{ capabilities: Capabilities; requests: number }> {
  const cloud = resolveCloudConfig({ environ: opts.environ, cwd: opts.cwd, home: opts.home, cloudFlag: opts.cloud, cloudSetting, note: (m) => deps.logger.info(m) });
  deps.logger.debug(`cloud "${cloud.name}" from ${cloud.source}, region ${cloud.regionName ?? '(any)'}, interface ${cloud.interface}`);
  const conn = await connect(cloud, { logger: deps.logger, timeoutMs: opts.timeoutMs, http: deps.http });
  const capabilities = await detectCapabilities(conn);
  return { capabilities, requests: conn.http.stats.requests };
}

/**
 * `kaas detect [<cluster>]`: loads the environment's settings (with the cluster's overrides),
 * detects the cloud's capabilities (or reads them from --capabilities FILE) and resolves the
 * load-balancer plan and whether restrict_kubeapi can be enforced. Returns the report as data and
 * as text; throws PlanError (exit 2) when the settings ask for what the cloud cannot do.
 */
export async function runDetect(opts: DetectOptions, deps: DetectDeps): Promise<{ data: DetectReport; text: string }> {
  const settings = loadSettings({
    settingsDir: opts.settingsDir, env: opts.env, cluster: opts.cluster, environ: opts.environ, sets: opts.sets, cwd: opts.cwd,
  });
  settings.warnings.forEach((w) => deps.logger.warn(w));
  // Loaded while the cloud answers (the edge plans are explained after it has).
  const explaining = import('../gateway/explain.js');
  explaining.catch(() => undefined); // awaited below; a failure then is the one reported
  let capabilities: Capabilities;
  if (opts.capabilitiesFile) {
    capabilities = loadCapabilitiesFile(opts.capabilitiesFile);
  } else {
    // A spinner on a terminal only: piped output (detect -o json > caps.json) keeps stderr clean.
    const step = deps.logger.interactive ? deps.logger.step('asking the cloud for its capabilities (Keystone, Octavia, Neutron, Nova)') : undefined;
    let r: Awaited<ReturnType<typeof detectCloud>>;
    try {
      r = await detectCloud(opts, deps, settings.values.cloud || undefined);
    } catch (e) {
      step?.fail();
      throw e;
    }
    step?.succeed(`capabilities of cloud ${r.capabilities.cloud} (${r.requests} requests)`);
    capabilities = r.capabilities;
    // The bench and curious users read this line (kaas detect --verbose).
    deps.logger.debug(`openstack: ${r.requests} HTTP requests`);
  }
  const loadBalancer = orThrow(planLoadBalancer(settings.values, capabilities));
  const api = checkKubeApiLb(settings.values.restrict_kubeapi, kubeApiLbFacts(capabilities.octavia));
  const kubeApi = { ...orThrow(api), reasons: api.reasons };
  const data: DetectReport = { ...capabilities, loadBalancer, kubeApi };
  const { explainEdgePlans } = await explaining;
  const edge = explainEdgePlans(opts.cluster ?? '(none)', opts.env, settings.values, loadBalancer, opts.capabilitiesFile ? 'file' : 'cloud');
  return { data, text: [formatDetectText(data), '', ...edge].join('\n') };
}
