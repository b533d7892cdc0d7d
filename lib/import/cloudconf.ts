import { registerSecret } from '../redact.js';
import { gcfgSection, gcfgValue } from '../render/gcfg.js';
import type { ImportCollector, RawValue } from './convert.js';
import { isSecretKey } from './clusterctl.js';

/** One `key=value` line of an INI file, with its section. */
export interface IniEntry extends RawValue {
  section: string;
}

/**
 * Reads an OCCM cloud.conf as OCCM's gcfg does: case-insensitive `[Global]`/`[LoadBalancer]` and
 * key names (lower-cased), quoted values, `#`/`;` comments also after a value (`create-monitor=true
 * ; OVN` is `true`, not the string "true ; OVN").
 */
export function readIni(text: string, file: string): { entries: IniEntry[]; problems: string[] } {
  const entries: IniEntry[] = [];
  const problems: string[] = [];
  let section = '';
  text.split(/\r?\n/).forEach((line, i) => {
    const s = line.trim();
    if (s === '' || s.startsWith('#') || s.startsWith(';')) return;
    const head = gcfgSection(s);
    if (head) {
      section = CANONICAL_SECTIONS[head.toLowerCase()] ?? head;
      return;
    }
    const eq = s.indexOf('=');
    if (eq <= 0) {
      problems.push(`${file}:${i + 1}: expected key=value or [Section]`);
      return;
    }
    const name = s.slice(0, eq).trim().toLowerCase();
    const text = unquote(gcfgValue(s.slice(eq + 1)));
    entries.push({ section, name, where: `${file}:${i + 1}`, value: text, text });
  });
  return { entries, problems };
}

const CANONICAL_SECTIONS: Record<string, string> = { global: 'Global', loadbalancer: 'LoadBalancer' };

/** Strips one pair of matching quotes ("x" or 'x'). */
export function unquote(s: string): string {
  return /^(["']).*\1$/.test(s) && s.length >= 2 ? s.slice(1, -1) : s;
}

/** The OVN block SCS's handle_ovn_lb.sh inserts; kaas writes it itself from use_ovn_lb_provider. */
const OVN_BLOCK: Record<string, string> = { 'lb-provider': 'ovn', 'lb-method': 'SOURCE_IP_PORT', 'create-monitor': 'true' };

/** [LoadBalancer] options that kaas always decides itself, whatever their value. */
const DECIDED: Record<string, string> = {
  'use-octavia': 'derived by kaas: removed from OCCM in v1.26 (Octavia is the only LB backend); kaas never writes it',
  'enable-ingress-hostname': 'derived by kaas: it enables it together with PROXY protocol (nginx_use_proxy)',
  'lb-provider': 'derived by kaas from use_ovn_lb_provider (ovn or the cloud default amphora)',
};

/**
 * Takes the cloud.conf extras: [LoadBalancer] options kaas does not decide go to
 * occm_loadbalancer ("true"/"false" → booleans, digits → integers); [Global] (auth, region,
 * application credentials) is dropped unseen; other sections are not supported.
 */
export function importCloudConf(entries: IniEntry[], c: ImportCollector): void {
  const lb = entries.filter((e) => e.section === 'LoadBalancer');
  const ovn = lb.some((e) => e.name === 'lb-provider' && e.text === 'ovn');
  const extras: Record<string, string | number | boolean> = {};
  const from: string[] = [];
  for (const e of entries) {
    if (e.section === 'Global') {
      if (isSecretKey(e.name) || /credential|password|token/i.test(e.name)) {
        registerSecret(e.value);
        c.drop(e, 'secret', 'secret: [Global] credentials come from clouds.yaml (setting cloud); never copied');
      } else c.drop(e, 'derived', 'derived by kaas: it writes [Global] from the clouds.yaml entry (setting cloud)');
      continue;
    }
    if (e.section !== 'LoadBalancer') {
      c.drop(e, 'unsupported', `not supported: kaas writes only [Global] and [LoadBalancer] (found [${e.section || 'no section'}])`);
      continue;
    }
    if (isSecretKey(e.name)) {
      registerSecret(e.value);
      c.drop(e, 'secret', 'secret: never copied into settings files');
      continue;
    }
    if (DECIDED[e.name]) {
      c.drop(e, 'derived', DECIDED[e.name]);
      continue;
    }
    if (ovn && OVN_BLOCK[e.name] === e.text) {
      c.drop(e, 'derived', `derived by kaas: part of the OVN block it writes when use_ovn_lb_provider picks OVN`);
      continue;
    }
    const typed = e.text === 'true' || e.text === 'false' ? e.text === 'true' : /^\d+$/.test(e.text) ? Number(e.text) : e.text;
    if (typed !== e.text) c.conversions.push({ name: `[LoadBalancer] ${e.name}`, key: 'occm_loadbalancer', from: e.text, to: typed });
    extras[e.name] = typed;
    from.push(e.where);
  }
  if (ovn && c.values.use_ovn_lb_provider === false) {
    c.notes.push('cloud.conf uses lb-provider=ovn but USE_OVN_LB_PROVIDER is false: kept use_ovn_lb_provider false (set it to auto or true to keep OVN)');
  }
  if (Object.keys(extras).length) {
    c.set('occm_loadbalancer', extras, `cloud.conf [LoadBalancer] (${from.join(', ')})`);
  }
}
