import fs from 'node:fs';
import { parse } from 'yaml';
import { readTextCapped } from '../fs/read-capped.js';
import { MAX_YAML_BYTES } from '../settings/yaml-read.js';
import { KaasError, UsageError } from '../errors.js';
import { compareVersions } from './octavia.js';
import { ALLOWED_CIDRS_VERSION, WALLABY_VERSION } from './detect.js';
import type { Capabilities } from './types.js';

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Checks that a parsed document has the shape of Capabilities (as `kaas detect -o json|yaml`
 * prints it; an extra `loadBalancer` key is allowed). Returns every problem, sorted.
 */
export function capabilitiesProblems(doc: unknown): string[] {
  const p: string[] = [];
  if (!isObj(doc)) return ['the document is not a mapping'];
  if (typeof doc.cloud !== 'string') p.push('cloud: must be a string');
  if (typeof doc.detectedAt !== 'string') p.push('detectedAt: must be a string (ISO time)');
  const o = doc.octavia;
  if (!isObj(o)) p.push('octavia: must be a mapping');
  else {
    if (typeof o.present !== 'boolean') p.push('octavia.present: must be true or false');
    if (!Array.isArray(o.providers) || o.providers.some((x) => typeof x !== 'string')) p.push('octavia.providers: must be a list of provider names');
    if (typeof o.wallabyOrLater !== 'boolean') p.push('octavia.wallabyOrLater: must be true or false');
    if (typeof o.allowedCidrs !== 'boolean') p.push('octavia.allowedCidrs: must be true or false');
    if (o.maxVersion !== undefined && (typeof o.maxVersion !== 'string' || !/^\d+\.\d+$/.test(o.maxVersion)))
      p.push('octavia.maxVersion: must be a string like "2.26"');
    if (o.present === true && o.maxVersion === undefined) p.push('octavia.maxVersion: missing although octavia.present is true');
    // The plan reads the booleans; a hand-edited file must not claim OVN health monitors (v2.24)
    // or allowed_cidrs (v2.12) that its own maxVersion lacks, nor deny them.
    if (typeof o.maxVersion === 'string' && /^\d+\.\d+$/.test(o.maxVersion)) {
      for (const [key, min] of [['wallabyOrLater', WALLABY_VERSION], ['allowedCidrs', ALLOWED_CIDRS_VERSION]] as const) {
        const want = compareVersions(o.maxVersion, min) >= 0;
        if (typeof o[key] === 'boolean' && o[key] !== want) p.push(`octavia.${key}: ${o[key]} contradicts maxVersion ${o.maxVersion} (it is ${want} from v${min})`);
      }
    }
  }
  for (const svc of ['neutron', 'nova']) {
    const s = doc[svc];
    if (!isObj(s)) p.push(`${svc}: must be a mapping`);
    else if (typeof s.present !== 'boolean') p.push(`${svc}.present: must be true or false`);
  }
  return p.sort();
}

/**
 * Reads capabilities saved from `kaas detect -o json` (YAML works too) for offline planning
 * (`--capabilities FILE`). A missing file or a wrong shape is a UsageError (exit 2) listing every problem.
 */
export function loadCapabilitiesFile(file: string, readFile: (p: string) => string = (p) => readTextCapped(p, { shown: `--capabilities ${p}`, maxBytes: MAX_YAML_BYTES, expect: 'a capabilities file (kaas detect -o json) is a few KiB' })): Capabilities {
  let text: string;
  try {
    text = readFile(file);
  } catch (err) {
    // The capped reader's errors already name the file: keep them, with this file's hint.
    if (err instanceof KaasError) throw new UsageError(err.message, { hint: err instanceof UsageError && err.hint ? err.hint : 'save one with: kaas detect -o json > capabilities.json' });
    throw new UsageError(`--capabilities ${file} cannot be read: ${(err as Error).message}`, {
      hint: 'save one with: kaas detect -o json > capabilities.json',
    });
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    throw new UsageError(`--capabilities ${file} is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const problems = capabilitiesProblems(doc);
  if (problems.length) {
    throw new UsageError(`--capabilities ${file} is not a capabilities file`, {
      problems,
      hint: 'save one with: kaas detect -o json > capabilities.json',
    });
  }
  const { loadBalancer: _plan, ...caps } = doc as Obj;
  return caps as unknown as Capabilities;
}
