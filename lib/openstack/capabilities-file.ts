import fs from 'node:fs';
import { isNode, LineCounter, parseDocument } from 'yaml';
import { readTextCapped } from '../fs/read-capped.js';
import { MAX_YAML_BYTES } from '../fs/yaml-read.js';
import { KaasError, UsageError } from '../errors.js';
import { ALLOWED_CIDRS_VERSION, compareVersions, WALLABY_VERSION } from './api-versions.js';
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
  else if (!/^\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:\d\d)$/.test(doc.detectedAt) || Number.isNaN(Date.parse(doc.detectedAt))) {
    p.push(`detectedAt: "${doc.detectedAt}" is not a timestamp (ISO 8601, as kaas detect writes it: 2026-05-01T12:00:00.000Z)`);
  }
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
    // A present Octavia always offers a provider; an empty list planned as if amphora were there.
    if (o.present === true && Array.isArray(o.providers) && o.providers.length === 0) p.push('octavia.providers: empty although octavia.present is true (an Octavia offers at least one provider)');
    if (o.defaultProvider !== undefined) {
      if (typeof o.defaultProvider !== 'string') p.push('octavia.defaultProvider: must be a provider name');
      else if (Array.isArray(o.providers) && o.providers.length && !o.providers.includes(o.defaultProvider)) {
        p.push(`octavia.defaultProvider: "${o.defaultProvider}" is not among octavia.providers (${o.providers.join(', ')})`);
      }
    }
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
  const lc = new LineCounter();
  const parsed = parseDocument(text, { lineCounter: lc, prettyErrors: false });
  try {
    if (parsed.errors.length) throw parsed.errors[0];
    doc = parsed.toJS({ maxAliasCount: 100 });
  } catch (err) {
    throw new UsageError(`--capabilities ${file} is neither JSON nor YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const problems = capabilitiesProblems(doc);
  if (problems.length) {
    // Where each problem is, in a file of several lines (kaas detect -o json prints one value a line).
    const multiline = text.trim().includes('\n');
    const line = (problem: string) => {
      const at = /^([\w.]+): /.exec(problem)?.[1];
      const node = at && multiline ? parsed.getIn(at.split('.'), true) : undefined;
      return isNode(node) && node.range ? `line ${lc.linePos(node.range[0]).line}: ` : '';
    };
    throw new UsageError(`--capabilities ${file} is not a capabilities file`, {
      problems: problems.map((p) => `${line(p)}${p}`),
      hint: 'save one with: kaas detect -o json > capabilities.json, or fix the values above (a file that claims what the cloud lacks gives a plan that cannot work)',
    });
  }
  const { loadBalancer: _plan, ...caps } = doc as Obj;
  return caps as unknown as Capabilities;
}
