import { existsSync } from 'node:fs';
import path from 'node:path';
import { stringify } from 'yaml';
import { SettingsError, UsageError } from '../errors.js';
import { packageFilePath } from '../assets.js';
import { parseSettingsFile } from './file.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { checkEnvName, displayPath, settingsFilePath } from './load.js';
import { GROUP_TITLES } from './docs.js';
import { SETTINGS, type SettingGroup } from './table.js';

/** `kaas settings init`: which file to start and what to put into it. */
export interface InitOptions {
  settingsDir: string;
  env: string;
  cwd: string;
  /** clouds.yaml entry written as `cloud:`; else a commented placeholder. */
  cloud?: string;
  /** Adds an empty `clusters.<name>` section. */
  cluster?: string;
  /** Overwrite an existing file. */
  force: boolean;
  /** Print the file instead of writing it. */
  dryRun: boolean;
}

/** What init wrote (the -o json shape). */
export interface InitResult {
  env: string;
  file: string;
  written: boolean;
  schema: string;
}

// The settings a newcomer sets first; the rest stay commented out with their defaults. The edge is
// written out too: the file then says which edge its clusters run, whatever later defaults say.
const FIRST = new Set(['cloud', 'kubernetes_version', 'worker_count', 'use_ovn_lb_provider', 'deploy_nginx_ingress', 'deploy_gateway']);

/** `# `-prefixed lines of at most 80 columns. */
function comment(text: string): string {
  const lines: string[] = [];
  let cur = '';
  for (const word of text.split(/\s+/)) {
    if (cur && cur.length + word.length + 1 > 78) {
      lines.push(cur);
      cur = word;
    } else cur = cur ? `${cur} ${word}` : word;
  }
  lines.push(cur);
  return lines.map((l) => `# ${l}`).join('\n');
}
const line = (key: string, value: unknown) => stringify({ [key]: value }, { collectionStyle: 'flow' }).trimEnd().replace(/^\{ (.*) \}$/, '$1');

/**
 * The commented starter file: every setting with its description, grouped as in docs/reference/settings.md; the
 * defaults commented out (uncomment to change), the cloud and an optional cluster section set.
 * Pure: the same input gives the same text, which always passes `settings validate`.
 */
export function starterText(o: { env: string; cloud?: string; cluster?: string; schema: string }): string {
  const out = [
    `# yaml-language-server: $schema=${o.schema}`,
    '#',
    `# kaas environment "${o.env}" (written by kaas settings init).`,
    '# Layers, lowest first: built-in defaults < this file < clusters.<name>',
    '#   < KAAS_<KEY> environment variables < --set key=value.',
    '# Every setting below shows its default; uncomment a line to change it.',
    '# `kaas settings show <cluster>` prints the effective values and where each',
    '# came from; `kaas settings validate` checks this file.',
  ];
  for (const group of Object.keys(GROUP_TITLES) as SettingGroup[]) {
    out.push('', `# --- ${GROUP_TITLES[group]}`);
    for (const d of SETTINGS.filter((s) => s.group === group)) {
      out.push(comment(d.description));
      if (d.key === 'cloud') out.push(o.cloud ? line('cloud', o.cloud) : '# cloud: mycloud            # an entry of your clouds.yaml (else OS_CLOUD)');
      else if (FIRST.has(d.key) && d.default !== undefined) out.push(line(d.key, d.default));
      else out.push(d.default === undefined ? `# ${d.key}:` : comment(line(d.key, d.default)));
    }
  }
  out.push('', '# Per-cluster overrides: any setting above, under clusters.<name>.');
  if (o.cluster) out.push('clusters:', `  ${o.cluster}: {}`);
  else out.push('clusters: {}', '#  demo:', '#    worker_count: 2');
  return out.join('\n') + '\n';
}

/** Writes the starter file (refusing to overwrite without --force); checks it parses cleanly first. */
export function initSettings(o: InitOptions): { data: InitResult; text: string; raw?: string } {
  checkEnvName(o.env);
  if (o.cluster !== undefined && !/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/.test(o.cluster)) {
    throw new UsageError(`--cluster ${o.cluster}: a cluster name must be lower-case letters, digits and '-'`, { hint: 'e.g. --cluster demo' });
  }
  const file = settingsFilePath(o.settingsDir, o.env, o.cwd);
  const shown = displayPath(file, o.cwd);
  // The single-file executable has no schema file to point at: the line names one beside the settings file, which `kaas settings schema` writes.
  const installed = packageFilePath('settings/schema.json');
  const schema = installed ?? './schema.json';
  const text = starterText({ env: o.env, cloud: o.cloud, cluster: o.cluster, schema });
  const parsed = parseSettingsFile(text, shown);
  if (parsed.problems.length) throw new SettingsError('kaas wrote an invalid starter file (a bug)', parsed.problems);
  if (o.dryRun) return { data: { env: o.env, file, written: false, schema }, text, raw: text };
  if (existsSync(file) && !o.force) {
    throw new UsageError(`${shown} already exists; nothing was written`, { hint: `edit it, pick another --env, or overwrite it with --force` });
  }
  writeFileAtomic(file, text);
  const next = o.cluster ? `kaas settings show ${o.cluster}${o.env === 'default' ? '' : ` --env ${o.env}`}` : `kaas settings validate${o.env === 'default' ? '' : ` --env ${o.env}`}`;
  const editors = installed ? '' : `; for editors: kaas settings schema > ${displayPath(path.join(path.dirname(file), 'schema.json'), o.cwd)}`;
  return { data: { env: o.env, file, written: true, schema }, text: `wrote ${shown} (environment ${o.env}); edit it, then: ${next}${editors}` };
}
