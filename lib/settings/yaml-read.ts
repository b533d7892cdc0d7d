import { isAlias, isScalar, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';

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
export function parseUserYaml(text: string): { doc: Document.Parsed; lc: LineCounter } | { tooLarge: string } {
  const bytes = Buffer.byteLength(text);
  if (bytes > MAX_YAML_BYTES) return { tooLarge: `the file has ${bytes} bytes; kaas reads at most ${MAX_YAML_BYTES} (1 MiB)` };
  const lc = new LineCounter();
  return { doc: parseDocument(text, { lineCounter: lc, prettyErrors: false, uniqueKeys: false }), lc };
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

/** `node` with an alias replaced by the node it names (undefined when the anchor is unknown). */
export function resolveNode(doc: Document, node: unknown): Node | null | undefined {
  return isAlias(node) ? (node.resolve(doc) as Node | undefined) : (node as Node | null | undefined);
}

/** The plain value of a node, aliases expanded; an alias bomb yields an error sentence. */
export function nodeValue(doc: Document, node: Node | null | undefined): { value: unknown } | { error: string } {
  if (node === null || node === undefined) return { value: null };
  try {
    return { value: (node as Node).toJS(doc, { maxAliasCount: MAX_ALIAS_COUNT }) };
  } catch (e) {
    return { error: /alias/i.test((e as Error).message) ? `its aliases expand to more than ${MAX_ALIAS_COUNT} copies; write the value out` : (e as Error).message };
  }
}

