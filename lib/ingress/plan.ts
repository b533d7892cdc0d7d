import { KaasError } from '../errors.js';
import { loadCapabilitiesFile } from '../openstack/capabilities-file.js';
import { loadBalancerSection } from '../render/cloud-conf.js';
import { planIngress, type IngressPlan } from '../plan/ingress.js';
import { offlineLoadBalancerPlan, resolveLoadBalancerPlan } from '../plan/loadbalancer.js';
import type { LoadBalancerPlan } from '../plan/types.js';
import type { Settings } from '../settings/types.js';
import type { IngressCloud } from './cloud.js';

/** Everything apply-ingress decided before touching anything. */
export interface IngressDecision {
  lb: LoadBalancerPlan;
  ingress: IngressPlan;
  /** cloud.conf [LoadBalancer] as the plans require it (conflicts already rejected). */
  loadBalancer: [string, string][];
  /** Where the LB facts came from, for the printed plan. */
  capabilitiesFrom: 'not needed' | 'file' | 'cloud';
}

/**
 * Decides provider, ingress variant and cloud.conf keys. Asks the cloud only when
 * use_ovn_lb_provider is true/auto and no capabilities file is given. Throws PlanError (exit 2)
 * for anything the settings and cloud cannot do together; touches nothing.
 */
export async function decideIngress(s: Settings, opts: { capabilitiesFile?: string; cloud: () => IngressCloud }): Promise<IngressDecision> {
  const { lb, capabilitiesFrom } = await decideLoadBalancer(s, opts);
  const ingress = planIngress(s, lb);
  const loadBalancer = ingress.deploy ? loadBalancerSection(lb, s.occm_loadbalancer, ingress.cloudConf) : [];
  return { lb, ingress, loadBalancer, capabilitiesFrom };
}

/**
 * The load-balancer plan an edge proxy (ingress-nginx, the gateway) is planned against: from a
 * capabilities file, offline for use_ovn_lb_provider false, else from the cloud.
 */
export async function decideLoadBalancer(
  s: Settings, opts: { capabilitiesFile?: string; cloud: () => IngressCloud },
): Promise<{ lb: LoadBalancerPlan; capabilitiesFrom: IngressDecision['capabilitiesFrom'] }> {
  if (opts.capabilitiesFile) return { lb: resolveLoadBalancerPlan(s, loadCapabilitiesFile(opts.capabilitiesFile)), capabilitiesFrom: 'file' };
  if (s.use_ovn_lb_provider === false) return { lb: offlineLoadBalancerPlan(s), capabilitiesFrom: 'not needed' };
  return { lb: resolveLoadBalancerPlan(s, await askCloud(s, opts.cloud)), capabilitiesFrom: 'cloud' };
}

async function askCloud(s: Settings, cloud: () => IngressCloud) {
  try {
    return await cloud().capabilities();
  } catch (e) {
    if (!(e instanceof KaasError)) throw e;
    throw new KaasError(`use_ovn_lb_provider is ${s.use_ovn_lb_provider}, so planning needs the cloud's capabilities: ${e.message}`, {
      exitCode: e.exitCode, problems: e.problems,
      hint: `${e.hint ? `${e.hint}; or ` : ''}plan offline with --capabilities FILE (saved by kaas detect -o json)`,
    });
  }
}

/** The plan as lines for stderr: provider, variant, version, monitor, proxy, trusted CIDR, and why. */
export function formatIngressPlan(cluster: string, env: string, d: IngressDecision): string[] {
  const i = d.ingress;
  const lines = [`ingress plan for cluster ${cluster} (environment ${env}):`];
  const row = (k: string, v: string) => lines.push(`  ${k.padEnd(10)} ${v}`);
  row('deploy', i.deploy ? `yes, ingress-nginx ${i.version!.version}` : 'no');
  row('provider', `${d.lb.provider}${d.capabilitiesFrom === 'not needed' ? '' : ` (capabilities from ${d.capabilitiesFrom})`}`);
  if (i.deploy) {
    row('variant', i.variant!);
    row('monitor', i.monitor);
    row('proxy', i.proxyProtocol ? 'PROXY protocol' : 'off');
    row('real IP', i.realIpCidr ? `${i.realIpCidr} (node_cidr: the amphorae's own addresses, not the VIP)` : 'n/a');
    row('cloud.conf', d.loadBalancer.map(([k, v]) => `${k}=${v}`).join(' '));
  }
  whyLines(lines, [...d.lb.reasons, ...i.reasons]);
  return lines;
}

/** The one explanation format of every edge plan: `  why:` and one indented line per reason. */
export function whyLines(lines: string[], reasons: string[]): string[] {
  lines.push('  why:');
  for (const r of reasons) lines.push(`    - ${r}`);
  return lines;
}
