import type { IngressDecision } from './decide.js';

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
    const trusted = i.trustedProxyCidrs;
    row('real IP', trusted ? `${trusted.join(',')} (node_cidr: the amphorae's own addresses, not the VIP${trusted.length > 1 ? '; pod_cidr: nodes forwarding under externalTrafficPolicy Cluster' : ''})` : 'n/a');
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
