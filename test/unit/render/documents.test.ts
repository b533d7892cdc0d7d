import {
  applyPatches, findObject, mergePatch, objectKey, parseDocuments, rememberDocument, stringifyDocument, stringifyDocuments, type KubeObject,
} from '../../../lib/render/documents.js';
import { RenderError } from '../../../lib/render/template.js';

/** The problems parseDocuments reports for `text` ([] when it accepts it). */
function problemsOf(text: string): string[] {
  try {
    parseDocuments(text, 'x.yaml');
    return [];
  } catch (e) {
    expect(e).toBeInstanceOf(RenderError);
    expect((e as RenderError).message).toBe('x.yaml does not hold valid Kubernetes objects');
    return (e as RenderError).problems;
  }
}

const cm = (name: string, namespace?: string, data: Record<string, string> = {}): KubeObject =>
  ({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(namespace ? { namespace } : {}) }, data });

describe('parsing multi-document YAML into Kubernetes objects', () => {
  it.each<[string, string, number]>([
    ['a leading ---', '---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n', 1],
    ['empty documents between and after', 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\n---\n# only a comment\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n---\n', 2],
    ['nothing at all', '', 0],
    ['a lone ---', '---\n', 0],
  ])('drops empty documents: %s', (_n, text, count) => {
    expect(parseDocuments(text, 'x.yaml')).toHaveLength(count);
  });

  it('keeps the documents in order, as plain data', () => {
    expect(parseDocuments('kind: Namespace\napiVersion: v1\nmetadata: {name: b}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n', 'x.yaml'))
      .toEqual([{ apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'b' } }, { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'a' } }]);
  });

  it.each<[string, string, string[]]>([
    ['a scalar document', 'hello\n', ['x.yaml document 1: is not a mapping']],
    ['an empty apiVersion', 'apiVersion: ""\nkind: Service\nmetadata: {name: s}\n', ['x.yaml document 1 (Service): apiVersion is missing']],
    ['a numeric name', 'apiVersion: v1\nkind: Service\nmetadata: {name: 80}\n', ['x.yaml document 1 (Service): metadata.name is missing']],
    ['no metadata at all', 'apiVersion: v1\nkind: Service\n', ['x.yaml document 1 (Service): metadata.name is missing']],
    ['a kind that is not a string: not named in the message', 'apiVersion: v1\nkind: [Service]\nmetadata: {name: s}\n', ['x.yaml document 1: kind is missing']],
    ['everything missing', '{}\n', ['x.yaml document 1: apiVersion is missing', 'x.yaml document 1: kind is missing', 'x.yaml document 1: metadata.name is missing']],
  ])('names the document and what is wrong: %s', (_n, text, problems) => {
    expect(problemsOf(text)).toEqual(problems);
  });

  it('reports a YAML syntax error as one line per error, naming the document, without judging its half-parsed content', () => {
    const problems = problemsOf('apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\na: 1\n b: 2\n');
    expect(problems.length).toBeGreaterThan(0);
    for (const p of problems) expect(p).toMatch(/^x\.yaml document 2: [^\n]+ at line 5, column 4:$/);
  });

  it('lists the problems in document order (document 2 before document 10)', () => {
    const ok = 'apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n';
    const docs = [ok, 'apiVersion: v1\nkind: Service\nmetadata: {}\n', ...Array<string>(7).fill(ok), 'apiVersion: v1\nmetadata: {name: s}\n'];
    expect(problemsOf(docs.join('---\n'))).toEqual(['x.yaml document 2 (Service): metadata.name is missing', 'x.yaml document 10: kind is missing']);
  });
});

describe('writing Kubernetes objects as multi-document YAML', () => {
  it('starts every document with ---, and writes nothing for no objects', () => {
    expect(stringifyDocuments([cm('a'), cm('b')])).toBe('---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata: {}\n---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: b\ndata: {}\n');
    expect(stringifyDocuments([])).toBe('');
  });

  it('does not fold long values (a certificate or a long annotation stays on one line)', () => {
    const long = 'word '.repeat(40).trim();
    expect(stringifyDocument(cm('a', undefined, { long }))).toContain(`  long: ${long}\n`);
  });

  it('writes an object used twice in full both times (no YAML anchors and aliases)', () => {
    const labels = { app: 'x' };
    const text = stringifyDocument({ ...cm('a'), metadata: { name: 'a', labels }, spec: { selector: labels } });
    expect(text).not.toMatch(/[&*]a1/);
    expect(text).toContain('spec:\n  selector:\n    app: x\n');
  });

  it('writes a remembered document as it was remembered while the object is unchanged, and anew once it changes', () => {
    const o = cm('a', 'n', { k: 'v' });
    const remembered = '---\n# as the build wrote it\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: n}\ndata: {k: v}\n';
    // a JSON copy, as bundled.bundle.ts makes it (structuredClone would copy from outside jest's realm: never deep-equal)
    rememberDocument(o, JSON.parse(JSON.stringify(o)), remembered);
    expect(stringifyDocuments([o, 'plain', null])).toBe(`${remembered}---\nplain\n---\nnull\n`);
    (o.data as Record<string, string>).k = 'changed';
    expect(stringifyDocuments([o])).toBe(stringifyDocument(o));
    expect(stringifyDocuments([o])).toContain('k: changed');
  });
});

describe('finding and patching objects', () => {
  it.each<[string, string, string | undefined, string | undefined]>([
    ['by kind and name, in any namespace', 'x', undefined, 'ConfigMap/a/x'],
    ['by kind, name and namespace', 'x', 'b', 'ConfigMap/b/x'],
    ['not in another namespace', 'x', 'c', undefined],
    ['not under another name', 'y', undefined, undefined],
  ])('finds %s', (_n, name, namespace, key) => {
    const found = findObject([{ ...cm('x', 'a'), kind: 'Secret' }, cm('x', 'a'), cm('x', 'b')], 'ConfigMap', name, namespace);
    expect(found && objectKey(found)).toBe(key);
  });

  it.each<[string, unknown, unknown, unknown]>([
    ['a scalar patch replaces', { a: 1 }, 2, 2],
    ['a list replaces a map', { a: { x: 1 } }, { a: [1] }, { a: [1] }],
    ['a map replaces a scalar', { a: 1 }, { a: { x: 1 } }, { a: { x: 1 } }],
    ['a map replaces a list', { a: [1] }, { a: { x: 1 } }, { a: { x: 1 } }],
    ['null replaces', { a: { x: 1 } }, { a: null }, { a: null }],
    ['a map merges into nothing', undefined, { a: { x: 1 } }, { a: { x: 1 } }],
  ])('merge: %s', (_n, target, patch, merged) => {
    const copy = structuredClone(target);
    expect(mergePatch(target, patch)).toEqual(merged);
    expect(target).toEqual(copy);
  });

  it('applies every patch of an object in order, only to the object of its kind, name and namespace', () => {
    const out = applyPatches([cm('x', 'a', { k: 'a' }), cm('x', 'b', { k: 'b' }), { ...cm('x', 'b', { k: 's' }), kind: 'Secret' }, cm('y', 'b', { k: 'y' })], [
      { ...cm('x', 'b'), data: { k: 'first', l: 'first' } },
      { ...cm('x', 'b'), data: { k: 'second' } },
    ], 'p.yaml');
    expect(out.map((o) => o.data)).toEqual([{ k: 'a' }, { k: 'second', l: 'first' }, { k: 's' }, { k: 'y' }]);
  });

  it('names every patch whose target is missing, sorted, and the patch file', () => {
    const patches = [cm('z', 'n'), cm('x', 'a'), { ...cm('x', 'n'), kind: 'Secret' }, cm('y', 'other')];
    let err: RenderError | undefined;
    try {
      applyPatches([cm('x', 'a'), cm('y', 'n')], patches, 'ingress/patch.yaml.hbs');
    } catch (e) {
      err = e as RenderError;
    }
    expect(err?.message).toBe('ingress/patch.yaml.hbs: patch targets not found in the manifest');
    expect(err?.problems).toEqual(['ConfigMap/n/z', 'ConfigMap/other/y', 'Secret/n/x']);
  });

  it.each<[string, KubeObject, string]>([
    ['namespaced', cm('x', 'n'), 'ConfigMap/n/x'],
    ['cluster-scoped', { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'n' } }, 'Namespace/n'],
  ])('keys a %s object', (_n, o, key) => {
    expect(objectKey(o)).toBe(key);
  });
});
