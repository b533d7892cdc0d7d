import { isAlias, isMap, isScalar, isSeq, visit, type Document, type LineCounter, type Node, type Pair, type YAMLError } from 'yaml';
import { checkValue, parseScsList, show } from './check.js';
import { declOf, isSettingKey, LEGACY, SETTINGS } from './table.js';
import { didYouMeanIn } from './suggest.js';
import { duplicateKeys, keyText, nodeValue, parseUserYaml, resolveNode } from '../fs/yaml-read.js';
import type { Origin, SettingKey } from './types.js';
import { CLUSTER_NAME_RULE, isClusterName } from './cluster-name.js';
import { hiddenNote, visibleName } from '../visible.js';

/** One layer of settings: values with where each came from. */
export interface Layer {
  values: Partial<Record<SettingKey, unknown>>;
  origins: Partial<Record<SettingKey, Origin>>;
}

/** A parsed environment file: its top level, each `clusters.<name>` section, and what was wrong. */
export interface ParsedFile {
  environment: Layer;
  clusters: Map<string, Layer>;
  problems: string[];
  warnings: string[];
}

/** A file with thousands of problems is listed up to here; then a count. */
const MAX_PROBLEMS = 100;
const MAX_SUGGESTIONS = 20;

const ALL_NAMES = [...SETTINGS.map((d) => d.key), ...LEGACY.keys(), 'clusters'];

/** Suggests the closest setting name for a typo (see suggest.ts). */
export function didYouMean(name: string, candidates: string[] = ALL_NAMES): string {
  return didYouMeanIn(name, candidates);
}

/**
 * Parses the text of settings/<env>.yaml. Never throws: every problem (syntax, unknown key, wrong
 * type or value, legacy/new conflict) is collected as `file:line:col: path: message`.
 */
export function parseSettingsFile(text: string, file: string): ParsedFile {
  const out: ParsedFile = { environment: emptyLayer(), clusters: new Map(), problems: [], warnings: [] };
  const parsed = parseUserYaml(text);
  if ('tooLarge' in parsed) {
    out.problems.push(`${file}:1:1: ${parsed.tooLarge}`);
    return out;
  }
  const { doc, lc } = parsed;
  const at = (node: Node | null | undefined) => {
    const p = lc.linePos(node?.range?.[0] ?? 0);
    return { line: p.line, col: p.col };
  };
  const loc = (node: Node | null | undefined) => {
    const p = at(node);
    return `${file}:${p.line}:${p.col}`;
  };
  out.problems.push(...yamlErrors(doc.errors, text, lc, file));
  for (const d of duplicateKeys(doc)) {
    const p = lc.linePos(d.offset);
    out.problems.push(`${file}:${p.line}:${p.col}: YAML syntax error: duplicate key ${visibleName(d.key)} (each key may appear once per map)`);
  }
  if (out.problems.length) return out;
  out.problems.push(...scalarProblems(doc, loc));
  const root = resolveNode(doc, doc.contents) ?? null;
  if (root === null || (isScalar(root) && root.value === null)) return out; // an empty file is a valid (empty) layer
  if (!isMap(root)) {
    out.problems.push(`${loc(root)}: the settings file must be a map of setting: value (found ${isSeq(root) ? 'a list' : 'a scalar'})`);
    return out;
  }

  let unknown = 0;
  const readLevel = (pairs: Pair[], prefix: string, layer: Layer, section: 'environment' | 'cluster') => {
    const seen = new Map<SettingKey, { name: string; value: unknown; raw: string }>();
    for (const pair of pairs) {
      const keyNode = pair.key as Node;
      const name = keyText(keyNode);
      const shown = visibleName(name);
      const valueNode = resolveNode(doc, pair.value) ?? null;
      if (isAlias(pair.value) && !valueNode) {
        out.problems.push(`${loc(pair.value as Node)}: ${prefix}${shown}: the alias *${pair.value.source} names no anchor (&${pair.value.source} must come before it)`);
        continue;
      }
      if (name === 'clusters' && section === 'environment') {
        readClusters(valueNode);
        continue;
      }
      const key: SettingKey | undefined = isSettingKey(name) ? name : LEGACY.get(name);
      if (!key) {
        // Suggestions cost an edit distance against every setting: the first few are what helps.
        const hint = name === 'clusters' ? ' (clusters sections cannot be nested)' : ++unknown <= MAX_SUGGESTIONS ? didYouMean(name) : '';
        out.problems.push(`${loc(keyNode)}: ${prefix}${shown}: unknown setting${hint}${hiddenNote(name)}`);
        continue;
      }
      const decl = declOf(key);
      const path = `${prefix}${name}`;
      const read = nodeValue(doc, valueNode);
      if ('error' in read) {
        out.problems.push(`${loc((pair.value as Node | null) ?? keyNode)}: ${path}: ${read.error}`);
        continue;
      }
      let value: unknown = read.value;
      const raw = valueNode?.range ? text.slice(valueNode.range[0], valueNode.range[1]) : '';
      // YAML 1.2 reads True/TRUE as booleans; the SCS scripts compared with the literal "true".
      if (typeof value === 'boolean' && raw !== 'true' && raw !== 'false') {
        out.problems.push(`${loc(valueNode)}: ${path}: ${raw} is not a boolean here; write ${value} (lower case)`);
        continue;
      }
      if (typeof value === 'string' && (decl.type.kind === 'cidrList' || decl.type.kind === 'ipList') && /^\s*\[/.test(value)) {
        value = parseScsList(value);
      }
      if (value === null) {
        out.problems.push(`${loc(valueNode ?? keyNode)}: ${path}: has no value; remove the line to use the default${decl.default !== undefined ? ` (${show(decl.default)})` : ''}`);
        continue;
      }
      const bad = checkValue(decl, value, path);
      if (bad.length) {
        out.problems.push(...bad.map((b) => `${loc(valueNode)}: ${b}`));
        continue;
      }
      if (name !== key) out.warnings.push(`${loc(keyNode)}: ${path} is the legacy SCS name; use ${prefix}${key} instead`);
      const prev = seen.get(key);
      if (prev) {
        if (JSON.stringify(prev.value) !== JSON.stringify(value)) {
          out.problems.push(`${loc(keyNode)}: ${path}: conflicts with ${prefix}${prev.name} (${show(prev.value)} vs ${show(value)}); keep only ${prefix}${key}`);
        }
        continue;
      }
      seen.set(key, { name, value, raw });
      layer.values[key] = value;
      layer.origins[key] = { kind: 'file', file, line: at(keyNode).line, section };
    }
  };

  const readClusters = (aliased: Node | null) => {
    const node = resolveNode(doc, aliased) ?? null;
    if (node === null || (isScalar(node) && node.value === null)) return;
    if (!isMap(node)) {
      out.problems.push(`${loc(node)}: clusters: must be a map of cluster name to settings`);
      return;
    }
    for (const pair of node.items) {
      const name = keyText(pair.key);
      const body = resolveNode(doc, pair.value) ?? null;
      const k = pair.key;
      if (isScalar(k) && typeof k.value !== 'string') {
        // `null:`, `~:`, `true:`, `1:` are YAML null, booleans and numbers, not names.
        const kind = k.value === null ? 'null' : typeof k.value === 'boolean' ? 'a boolean' : 'a number';
        out.problems.push(`${loc(k as Node)}: clusters.${k.source ?? name}: the key is ${kind} in YAML, not a cluster name; quote it ("${k.source ?? name}") if a cluster is meant to have that name, else rename the section`);
        continue;
      }
      if (!isClusterName(name)) {
        out.problems.push(`${loc(pair.key as Node)}: clusters.${visibleName(name)}: ${CLUSTER_NAME_RULE}${hiddenNote(name)}`);
        continue;
      }
      const layer = emptyLayer();
      out.clusters.set(name, layer);
      if (body === null || (isScalar(body) && body.value === null)) continue;
      if (!isMap(body)) {
        out.problems.push(`${loc(body)}: clusters.${name}: must be a map of setting: value`);
        continue;
      }
      readLevel(body.items as Pair[], `clusters.${name}.`, layer, 'cluster');
    }
  };

  readLevel(root.items as Pair[], '', out.environment, 'environment');
  if (out.problems.length > MAX_PROBLEMS) {
    const more = out.problems.length - MAX_PROBLEMS;
    out.problems.splice(MAX_PROBLEMS, more, `${file}: … and ${more} more problems (fix the ones above first)`);
  }
  return out;
}

/** The tags of YAML 1.2's core schema; anything else (`!!binary`, `!!timestamp`, `!custom`) is refused. */
const CORE_TAGS = new Set(['str', 'int', 'float', 'bool', 'null', 'map', 'seq'].map((t) => `tag:yaml.org,2002:${t}`));

/**
 * Scalars that other YAML readers take differently, and tags kaas does not read: a plain `0755`
 * is 755 in YAML 1.2 (kaas) but octal 493 in YAML 1.1 (PyYAML, the SCS tools), `0o14` 12 here but a
 * string there; `!!binary` became a Buffer and `!foo` fell back to a string, silently.
 */
function scalarProblems(doc: Document, loc: (n: Node | null | undefined) => string): string[] {
  const out: string[] = [];
  const tagged = (n: Node) => {
    const tag = (n as Node & { tag?: string }).tag;
    if (tag && !CORE_TAGS.has(tag)) out.push(`${loc(n)}: unknown YAML tag ${tag.replace(/^tag:yaml\.org,2002:/, '!!')}: kaas reads plain YAML 1.2 values (strings, numbers, booleans, lists, maps); remove the tag and write the value`);
  };
  visit(doc, {
    Map: (_k, n) => void tagged(n),
    Seq: (_k, n) => void tagged(n),
    Scalar: (_k, n) => {
      tagged(n);
      const src = n.source;
      if (n.type !== 'PLAIN' || typeof src !== 'string') return;
      if (/^[-+]?0[0-9]+$/.test(src)) {
        const octal = /^[-+]?0[0-7]+$/.test(src) ? `octal (${parseInt(src, 8)})` : 'a string (8 and 9 are no octal digits)';
        out.push(`${loc(n)}: ${src} has a leading zero: YAML 1.2 (kaas) reads ${Number(src)}, YAML 1.1 readers (PyYAML, the SCS tools) ${octal}; write ${Number(src)}, or "${src}" in quotes for text`);
      } else if (/^[-+]?0o[0-7]+$/.test(src)) {
        out.push(`${loc(n)}: ${src} is YAML 1.2 octal (${parseInt(src.replace('0o', ''), 8)}), which YAML 1.1 readers take as text; write the decimal ${parseInt(src.replace('0o', ''), 8)}, or "${src}" in quotes for text`);
      }
    },
  });
  return out;
}

/**
 * YAML errors as `file:line:col: YAML syntax error: …`. With prettyErrors off, yaml leaves
 * linePos unset, so the position comes from the error's offset; duplicate keys are named.
 */
export function yamlErrors(errors: YAMLError[], text: string, lc: LineCounter, file: string): string[] {
  return errors.map((e) => {
    // Errors found at the end of input (unclosed quote or bracket) point at the last written line.
    const p = lc.linePos(Math.min(e.pos[0], Math.max(0, text.trimEnd().length - 1)));
    const key = e.code === 'DUPLICATE_KEY' ? /^[^:\n]+/.exec(text.slice(e.pos[0]))?.[0].trim() : undefined;
    const msg = key
      ? `duplicate key ${key} (each key may appear once per map)`
      : e.code === 'MULTIPLE_DOCS'
        ? 'a settings file holds one YAML document; remove the "---" separator and merge the parts'
        : e.message.split('\n')[0];
    return `${file}:${p.line}:${p.col}: YAML syntax error: ${msg}`;
  });
}

function emptyLayer(): Layer {
  return { values: {}, origins: {} };
}

