import { registerSecret } from '../redact.js';
import type { IngressPlan } from '../plan/ingress.js';
import type { LoadBalancerPlan } from '../plan/types.js';

/** Sections of an INI-style cloud.conf, keys lower-cased, values unquoted. */
export type IniSections = Record<string, Record<string, string>>;

/** Parses cloud.conf (gcfg syntax: `[Section]`, `key=value`, `;`/`#` comments, double-quoted values). */
export function parseCloudConf(text: string): IniSections {
  const out: IniSections = {};
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const sec = /^\[\s*([^\]]+?)\s*\]$/.exec(line);
    if (sec) {
      section = sec[1];
      out[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0) continue;
    const key = line.slice(0, eq).trim().toLowerCase();
    let value = line.slice(eq + 1).trim();
    if (value.startsWith('"') && value.endsWith('"') && value.length >= 2) value = value.slice(1, -1).replace(/\\(["\\])/g, '$1');
    // Secrets read back from the cluster never reach output (the whole text is registered by readSecret).
    if (/password|secret/.test(key)) registerSecret(value);
    (out[section] ??= {})[key] = value;
  }
  return out;
}

/**
 * Where the live OCCM cloud config contradicts the plan (empty = consistent). Checked before
 * applying, because OCCM, not the manifest, decides provider, monitors and published hostname:
 * - plan OVN, OCCM not on lb-provider=ovn (or the reverse);
 * - plan PROXY protocol, OCCM without enable-ingress-hostname=true (in-cluster clients would break);
 * - plan relies on create-monitor=true (OVN, or amphora without the annotation), OCCM without it.
 */
export function liveCloudConfProblems(text: string, lb: LoadBalancerPlan, ingress: IngressPlan): string[] {
  const lbs = parseCloudConf(text).LoadBalancer ?? {};
  const provider = (lbs['lb-provider'] ?? 'amphora').toLowerCase();
  const on = (k: string) => (lbs[k] ?? '').toLowerCase() === 'true';
  const problems: string[] = [];
  if (lb.ovn && provider !== 'ovn') problems.push(`the plan uses OVN, but OCCM's cloud.conf has lb-provider=${lbs['lb-provider'] ?? '(unset: amphora)'}`);
  if (!lb.ovn && provider === 'ovn') problems.push(`the plan uses ${lb.provider}, but OCCM's cloud.conf has lb-provider=ovn`);
  if (ingress.proxyProtocol && !on('enable-ingress-hostname')) {
    problems.push('the plan uses PROXY protocol, but OCCM\'s cloud.conf lacks enable-ingress-hostname=true (pods inside the cluster could not reach the ingress)');
  }
  if (ingress.monitor === 'cloud.conf create-monitor' && !on('create-monitor')) {
    problems.push('the plan relies on cloud.conf create-monitor=true for health monitors, but OCCM\'s cloud.conf does not set it');
  }
  return problems;
}
