import { registerSecret } from '../redact.js';
import { unquote } from './cloudconf.js';
import type { ImportCollector, RawValue } from './convert.js';
import { isSecretKey } from './clusterctl.js';
import type { SettingKey } from '../settings/types.js';

/**
 * Reads SCS's harbor-settings, a shell file the scripts source (written from
 * harbor-settings.tmpl: `DEPLOY_HARBOR=…` and `HARBOR_<OPTION>=…` per harbor_config entry).
 */
export function readShellVars(text: string, file: string): { raws: RawValue[]; problems: string[] } {
  const raws: RawValue[] = [];
  const problems: string[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    const s = line.trim();
    if (s === '' || s.startsWith('#')) return;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(s);
    if (!m) {
      problems.push(`${file}:${i + 1}: expected NAME=value`);
      return;
    }
    const value = unquote(m[2].replace(/\s+#.*$/, '').trim());
    raws.push({ name: m[1], where: `${file}:${i + 1}`, value, text: value });
  });
  return { raws, problems };
}

/** harbor-settings variables kaas maps; the other HARBOR_* options shape the Harbor deployment itself. */
const HARBOR_KEYS: Record<string, SettingKey> = { DEPLOY_HARBOR: 'deploy_harbor', HARBOR_DOMAIN_NAME: 'harbor_domain_name' };

/** Takes deploy_harbor and harbor_domain_name; drops the rest with the reason. */
export function importHarbor(raws: RawValue[], c: ImportCollector): void {
  for (const raw of raws) {
    const key = HARBOR_KEYS[raw.name];
    if (key) {
      c.take(key, raw);
    } else if (isSecretKey(raw.name)) {
      registerSecret(raw.value);
      c.drop(raw, 'secret', 'secret: never copied into settings files');
    } else if (raw.name.startsWith('HARBOR_')) {
      c.drop(raw, 'unsupported', 'not supported: kaas does not deploy Harbor; it only routes the ingress for harbor_domain_name');
    } else {
      c.drop(raw, 'unknown', 'unknown to kaas: not a harbor-settings variable');
    }
  }
}
