import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Alias, type Document, type Node } from 'yaml';

/**
 * Reading user YAML (settings files, clouds.yaml) safely and in linear time:
 * - a size cap, so a runaway file is refused before parsing;
 * - duplicate keys found with one Set per map (yaml's own `uniqueKeys` compares every key with
 *   every earlier one: 20 000 keys took seconds);
 * - aliases resolved like any YAML reader does, with the expansion capped (an "alias bomb" of
 *   nested *refs would otherwise build a huge value).
 */

/** Largest settings or clouds file kaas reads (the example settings file is about 4 KiB). */
export const MAX_YAML_BYTES = 1024 * 1024;

/** How many alias expansions one document may need (yaml's default is 100). */
export const MAX_ALIAS_COUNT = 1000;

/** A parsed document with a line counter, or the reason the text was refused before parsing. */
export function parseUserYaml(text: string, opts: { merge?: boolean } = {}): { doc: Document.Parsed; lc: LineCounter } | { tooLarge: string } {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_YAML_BYTES) return { tooLarge: `the file has ${bytes} bytes; kaas reads at most ${MAX_YAML_BYTES} (1 MiB)` };
  const lc = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false, merge: opts.merge ?? false });
  const expanded = expandedSize(doc);
  if (expanded > MAX_DOCUMENT_NODES) return { tooLarge: `its aliases expand to more than ${MAX_DOCUMENT_NODES} values (an alias bomb); write the values out` };
  return { doc, lc };
}

/** Most values a whole document may hold once its aliases are expanded (a real settings file: a few hundred). */
export const MAX_DOCUMENT_NODES = 200_000;

/**
 * How many values the document holds with every alias expanded, in one walk: an anchor comes
 * before its aliases, so its expanded size is known when an alias needs it. Stops counting past
 * the limit. 300 clusters each aliasing a 3 000-item list is 900 000 values from 32 KiB of text.
 */
function expandedSize(doc: Document): number {
  const index = aliasIndex(doc);
  const memo = new Map<unknown, number>();
  const size = (n: unknown, depth: number): number => {
    if (n === null || n === undefined || depth > 1000) return 1;
    const known = memo.get(n);
    if (known !== undefined) return known;
    let total = 1;
    if (isAlias(n)) total = memo.get(index.get(n)) ?? 1;
    else if (isMap(n)) for (const p of n.items) total += size(p.key, depth + 1) + size(p.value, depth + 1);
    else if (isSeq(n)) for (const i of n.items) total += size(i, depth + 1);
    total = Math.min(total, MAX_DOCUMENT_NODES + 1);
    memo.set(n, total);
    return total;
  };
  return size(doc.contents, 0);
}

/** The key of a map entry as text (the form duplicate checks and messages use). */
export function keyText(key: unknown): string {
  return isScalar(key) ? String(key.value) : String(key);
}

/** Every duplicate key of every map in the document: its offset and its text. */
export function duplicateKeys(doc: Document): { offset: number; key: string }[] {
  const out: { offset: number; key: string }[] = [];
  visit(doc, {
    Map(_, map) {
      const seen = new Set<string>();
      for (const pair of map.items) {
        const k = keyText(pair.key);
        if (seen.has(k)) out.push({ offset: (pair.key as Node | null)?.range?.[0] ?? map.range?.[0] ?? 0, key: k });
        seen.add(k);
      }
    },
  });
  return out;
}

/**
 * Where every alias of a document points, found in one walk. yaml's Alias.resolve(doc) walks the
 * whole document for each alias it resolves (and Node.toJS starts a fresh walk per call), so a
 * settings file with a few thousand aliases took minutes; this index makes resolution linear.
 */
const aliasIndexes = new WeakMap<Document, Map<Alias, Node>>();

function aliasIndex(doc: Document): Map<Alias, Node> {
  let index = aliasIndexes.get(doc);
  if (index) return index;
  index = new Map();
  const latest = new Map<string, Node>();
  const found = index;
  // The anchor an alias names is the last one of that name before it, in document order (YAML 1.2 §3.2.2.2).
  visit(doc, {
    Node(_, node) {
      if (isAlias(node)) {
        const target = latest.get(node.source);
        if (target) found.set(node, target);
      } else if ((node as { anchor?: string }).anchor) latest.set((node as { anchor: string }).anchor, node as Node);
    },
  });
  aliasIndexes.set(doc, index);
  return index;
}

/** `node` with an alias replaced by the node it names (undefined when the anchor is unknown). */
export function resolveNode(doc: Document, node: unknown): Node | null | undefined {
  return isAlias(node) ? aliasIndex(doc).get(node) : (node as Node | null | undefined);
}

/**
 * Most nodes a whole document may gain through its aliases (a real settings file: a few hundred).
 * Counted per document, not per value: 300 clusters each aliasing a 3 000-item list is an
 * amplification attack even though every single value is modest.
 */
export const MAX_EXPANDED_NODES = 100_000;
const expandedNodes = new WeakMap<Document, { n: number }>();

class AliasBomb extends Error {}

/** The plain value of a node, aliases expanded; an alias bomb yields an error sentence. */
export function nodeValue(doc: Document, node: Node | null | undefined): { value: unknown } | { error: string } {
  if (node === null || node === undefined) return { value: null };
  const index = aliasIndex(doc);
  let budget = expandedNodes.get(doc);
  if (!budget) expandedNodes.set(doc, (budget = { n: 0 }));
  const spent = budget;
  let aliases = 0;
  let inAlias = 0;
  // The anchored nodes being expanded: an alias to one of them is inside its own anchor (`&a [*a]`).
  const expanding = new Set<Node>();
  const plain = (n: unknown, depth: number): unknown => {
    if (depth > 1000 || (inAlias > 0 && ++spent.n > MAX_EXPANDED_NODES)) throw new AliasBomb();
    if (isAlias(n)) {
      const target = index.get(n);
      if (!target) throw new Error(`the alias *${n.source} names no anchor (define &${n.source} before it, or write the value out)`);
      if (expanding.has(target)) throw new Error(`the alias *${n.source} is inside its own anchor &${n.source}: a value cannot contain itself; write the value out`);
      // A scalar cannot amplify; copies of collections can.
      if ((isMap(target) || isSeq(target)) && ++aliases > MAX_ALIAS_COUNT) throw new AliasBomb();
      inAlias++;
      expanding.add(target);
      try {
        return plain(target, depth + 1);
      } finally {
        inAlias--;
        expanding.delete(target);
      }
    }
    const anchored = (isMap(n) || isSeq(n)) && (n as Node & { anchor?: string }).anchor ? (n as Node) : undefined;
    if (anchored) expanding.add(anchored);
    try {
      return collection(n, depth);
    } finally {
      if (anchored) expanding.delete(anchored);
    }
  };
  const collection = (n: unknown, depth: number): unknown => {
    if (isMap(n)) {
      const out: Record<string, unknown> = {};
      for (const pair of n.items) {
        const k = plain(pair.key, depth + 1);
        const key = typeof k === 'object' && k !== null ? JSON.stringify(k) : String(k);
        // __proto__ as a key is data, not the object's prototype.
        Object.defineProperty(out, key, { value: plain(pair.value, depth + 1), enumerable: true, writable: true, configurable: true });
      }
      return out;
    }
    if (isSeq(n)) return n.items.map((i) => plain(i, depth + 1));
    if (isScalar(n)) return (n as Node).toJS(doc);
    return n ?? null;
  };
  try {
    return { value: plain(node, 0) };
  } catch (e) {
    return { error: e instanceof AliasBomb ? `its aliases expand to more than ${MAX_ALIAS_COUNT} copies; write the value out` : (e as Error).message };
  }
}
