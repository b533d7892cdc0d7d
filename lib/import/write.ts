import { Document, isMap, isScalar, isSeq, parseDocument, Scalar, type Node, type Pair } from 'yaml';

/** What merging an imported section into an environment file did. */
export type MergeStatus = 'created' | 'added' | 'replaced' | 'unchanged';

/** The new file text, or why the section was not replaced. */
export type MergeResult = { text: string; status: MergeStatus } | { conflict: string };

/** JSON with sorted keys, so that a section equal up to key order counts as identical. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).join(',')}]`;
  if (v && typeof v === 'object') {
    return `{${Object.keys(v).sort().map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`).join(',')}}`;
  }
  return JSON.stringify(v);
}

function sectionNode(doc: Document, values: Record<string, unknown>): Node {
  const node = doc.createNode(values) as Node;
  // Lists of addresses read best on one line, as the example file writes them.
  if (isMap(node)) for (const p of node.items) if (isSeq(p.value)) p.value.flow = true;
  return node;
}

/**
 * Puts `clusters.<cluster>` into an environment file's text (or a new file when `existing` is
 * undefined), keeping every comment and other section. An existing, different section is only
 * replaced with `force`; an identical one leaves the file unchanged.
 */
export function mergeClusterSection(
  existing: string | undefined,
  cluster: string,
  values: Record<string, unknown>,
  opts: { force: boolean; comment: string; header: string },
): MergeResult {
  const doc = existing === undefined ? new Document({}) : parseDocument(existing);
  if (existing === undefined) doc.commentBefore = opts.header;
  if (doc.contents === null || (isScalar(doc.contents) && doc.contents.value === null)) doc.contents = doc.createNode({}) as never;
  const root = doc.contents;
  if (!isMap(root)) return { conflict: 'the environment file is not a map of settings' };
  let clusters = root.get('clusters', true) as Node | undefined;
  if (clusters === undefined || (isScalar(clusters) && clusters.value === null)) {
    clusters = doc.createNode({}) as Node;
    root.set('clusters', clusters);
  }
  if (!isMap(clusters)) return { conflict: 'clusters: is not a map' };
  clusters.flow = false; // a section is added in block style, even to `clusters: {}`
  const pair = (clusters.items as Pair[]).find((p) => (isScalar(p.key) ? p.key.value : p.key) === cluster);
  let status: MergeStatus = existing === undefined ? 'created' : 'added';
  if (pair) {
    const old = (pair.value as Node | null)?.toJSON() ?? {};
    if (canonical(old) === canonical(values)) return { text: existing ?? doc.toString(), status: 'unchanged' };
    if (!opts.force) return { conflict: `clusters.${cluster} already exists with other values` };
    pair.value = sectionNode(doc, values);
    status = 'replaced';
  } else {
    const key = new Scalar(cluster);
    key.commentBefore = opts.comment;
    clusters.items.push(doc.createPair(key, sectionNode(doc, values)) as Pair);
  }
  return { text: doc.toString({ lineWidth: 0 }), status };
}
