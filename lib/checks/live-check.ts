import { registerSecret } from '../redact.js';
import { gcfgSection, gcfgTrue, gcfgValue } from '../render/gcfg.js';
import type { MonitorSource } from '../plan/edge.js';
import type { LoadBalancerPlan } from '../plan/types.js';

/** Sections of an INI-style cloud.conf, keys lower-cased, values unquoted. */
export type IniSections = Record<string, Record<string, string>>;

/**
 * Parses cloud.conf as gcfg does: `[Section]` and keys case-insensitive (sections keep the first
 * spelling seen, keys are lower-cased), `;`/`#` comments (also after a value), double-quoted values,
 * and a bare `key` without `=` meaning true.
 */
export function parseCloudConf(text: string): IniSections {
  const out: IniSections = {};
  const spelling = new Map<string, string>();
  let section = '';
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith('#') || line.startsWith(';')) continue;
    const sec = gcfgSection(line);
    if (sec) {
      const canon = sec.toLowerCase();
      if (!spelling.has(canon)) spelling.set(canon, sec);
      section = spelling.get(canon)!;
      out[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    const key = (eq < 0 ? gcfgValue(line) : line.slice(0, eq)).trim().toLowerCase();
    if (!key) continue;
    const value = eq < 0 ? 'true' : gcfgValue(line.slice(eq + 1));
    // Secrets read back from the cluster never reach output (the whole text is registered by readSecret).
    if (/password|secret/.test(key)) registerSecret(value);
    (out[section] ??= {})[key] = value;
  }
  return out;
}

/** What the live check needs of an edge plan (ingress-nginx's or the gateway's). */
export interface EdgeTraits {
  proxyProtocol: boolean;
  monitor: MonitorSource;
}

/**
 * Where the live OCCM cloud config contradicts the plan (empty = consistent). Checked before
 * applying, because OCCM, not the manifest, decides provider, monitors and published hostname:
 * - plan OVN, OCCM not on lb-provider=ovn (or the reverse), or OVN without lb-method=SOURCE_IP_PORT,
 *   or amphora with OVN's SOURCE_IP_PORT left behind;
 * - plan PROXY protocol, OCCM without enable-ingress-hostname=true (in-cluster clients would break);
 * - plan relies on create-monitor=true (OVN, or amphora without the annotation), OCCM without it.
 */
export function liveCloudConfProblems(text: string, lb: LoadBalancerPlan, ingress: EdgeTraits): string[] {
  const sections = parseCloudConf(text);
  const lbs = Object.entries(sections).find(([name]) => name.toLowerCase() === 'loadbalancer')?.[1] ?? {};
  const provider = (lbs['lb-provider'] ?? 'amphora').toLowerCase();
  const on = (k: string) => gcfgTrue(lbs[k]);
  const problems: string[] = [];
  if (lb.ovn && provider !== 'ovn') problems.push(`the plan uses OVN, but OCCM's cloud.conf has lb-provider=${lbs['lb-provider'] ?? '(unset: amphora)'}`);
  // OCCM does not switch the algorithm for OVN; its default ROUND_ROBIN makes the ovn provider reject the pool.
  const method = lbs['lb-method'] ?? ''; // passed to Octavia as written: its enum is upper-case
  if (lb.ovn && provider === 'ovn' && method !== 'SOURCE_IP_PORT') {
    problems.push(`the plan uses OVN, but OCCM's cloud.conf has lb-method=${lbs['lb-method'] ?? '(unset: ROUND_ROBIN)'}; the ovn provider only accepts SOURCE_IP_PORT`);
  }
  if (!lb.ovn && lb.provider === 'amphora' && provider !== 'ovn' && method === 'SOURCE_IP_PORT') {
    problems.push(`the plan uses amphora, but OCCM's cloud.conf keeps OVN's lb-method=SOURCE_IP_PORT, which the amphora provider rejects`);
  }
  if (!lb.ovn && provider === 'ovn') problems.push(`the plan uses ${lb.provider}, but OCCM's cloud.conf has lb-provider=ovn`);
  if (ingress.proxyProtocol && !on('enable-ingress-hostname')) {
    problems.push('the plan uses PROXY protocol, but OCCM\'s cloud.conf lacks enable-ingress-hostname=true (pods inside the cluster could not reach the ingress)');
  }
  if (ingress.monitor === 'cloud.conf create-monitor' && !on('create-monitor')) {
    problems.push('the plan relies on cloud.conf create-monitor=true for health monitors, but OCCM\'s cloud.conf does not set it');
  }
  return problems;
}
