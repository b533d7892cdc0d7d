import type { DetectReport } from './detect.js';

const yes = (b: boolean) => (b ? 'yes' : 'no');

/** The human-readable form of `kaas detect`: one line per service, then the plan and its reasons. */
export function formatDetectText(r: DetectReport): string {
  const o = r.octavia;
  const lines = [`cloud ${r.cloud}${r.region ? ` (region ${r.region})` : ''}, detected ${r.detectedAt}`];
  lines.push(
    o.present
      ? `  Octavia  v${o.maxVersion ?? '?'} at ${o.endpoint ?? '?'}; providers: ${o.providers.join(', ') || 'none'}; ` +
          `Wallaby or later: ${yes(o.wallabyOrLater)}; allowed_cidrs: ${yes(o.allowedCidrs)}`
      : `  Octavia  not available: ${o.reason ?? 'unknown reason'}`,
  );
  const n = r.neutron;
  lines.push(
    n.present
      ? `  Neutron  ${n.endpoint ?? '?'}; external networks: ${(n.externalNetworks ?? []).map((x) => x.name || x.id).join(', ') || 'none'}`
      : `  Neutron  not available: ${n.reason ?? 'unknown reason'}`,
  );
  lines.push(r.nova.present ? `  Nova     ${r.nova.endpoint ?? '?'}` : `  Nova     not available: ${r.nova.reason ?? 'unknown reason'}`);
  const p = r.loadBalancer;
  lines.push('', `load balancers: provider ${p.provider}${p.ovn ? ' (OVN)' : ''}; PROXY protocol possible: ${yes(p.proxyProtocolPossible)}; kube-API allowed CIDRs: ${yes(p.kubeApiAllowedCidrs)}`);
  const conf = Object.entries(p.cloudConf);
  if (conf.length) lines.push(`  cloud.conf [LoadBalancer]: ${conf.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  for (const reason of p.reasons) lines.push(`  - ${reason}`);
  lines.push(`kube-API load balancer: ${r.kubeApi.provider ? `pinned to ${r.kubeApi.provider}` : 'Octavia\'s default provider'}`);
  for (const reason of r.kubeApi.reasons) lines.push(`  - ${reason}`);
  return lines.join('\n');
}
