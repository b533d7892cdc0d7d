import { RenderError, compileTemplate, templateVariables } from '../../../lib/render/engine.js';
import { applyPatches, mergePatch, parseDocuments, stringifyDocuments } from '../../../lib/render/documents.js';
import { validateObjects } from '../../../lib/render/schema.js';

describe('template engine', () => {
  it.each([
    ['plain', 'a: {{x}}\nb: {{json y.z}}', ['x', 'y']],
    ['if/else', '{{#if on}}{{a}}{{else}}{{b}}{{/if}}', ['a', 'b', 'on']],
    ['each body is local', '{{#each items}}{{key}}={{value}}{{/each}}', ['items']],
    ['helpers are not variables', '{{json name}} {{eq kind "x"}}', ['kind', 'name']],
    ['@data and this are not variables', '{{#each xs}}{{@index}} {{this}}{{/each}}', ['xs']],
    ['comments', '{{!-- {{nope}} --}}{{yes}}', ['yes']],
    ['../ climbs out of #each to the top level', '{{#each xs}}{{../prefix}}{{name}}{{/each}}', ['prefix', 'xs']],
    ['#if inside #each is no level of its own', '{{#each xs}}{{#if ../on}}{{../p}}{{/if}}{{/each}}', ['on', 'p', 'xs']],
    ['nested #each: ../../ is the top level, ../ the outer item', '{{#each a}}{{#each b}}{{../x}}{{../../y}}{{/each}}{{/each}}', ['a', 'y']],
    ['#with body is local, its else is not', '{{#with a}}{{b}}{{else}}{{c}}{{/with}}', ['a', 'c']],
    ['#each else runs in the outer context', '{{#each xs}}{{x}}{{else}}{{none}}{{/each}}', ['none', 'xs']],
    ['#unless and its else', '{{#unless a}}{{b}}{{else}}{{c}}{{/unless}}', ['a', 'b', 'c']],
    ['block params are local', '{{#each xs as |x|}}{{x.n}}{{/each}}', ['xs']],
    ['this.x at the top level is x', '{{this.x}}{{this}}', ['x']],
    ['subexpressions and hash arguments', '{{json (lookup m k) a=(eq b "c")}}', ['b', 'k', 'm']],
    ['a name with arguments or hash is a helper call', '{{upper name}} {{fmt width=w}}', ['name', 'w']],
    ['literals are not variables', '{{json "x"}} {{eq 1 true}}', []],
  ])('knows its variables: %s', (_n, src, vars) => {
    expect(templateVariables(src)).toStrictEqual(vars);
    expect(compileTemplate(src, 't').variables).toStrictEqual(vars);
  });

  it('names every missing variable in one error, sorted', () => {
    const t = compileTemplate('{{zeta}} {{alpha}} {{given}} {{#if beta}}x{{/if}}', 'ingress/x.yaml.hbs');
    let err: unknown;
    try {
      t.render({ given: 1 });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(RenderError);
    expect((err as RenderError).message).toBe('template ingress/x.yaml.hbs needs variables that were not given: alpha, beta, zeta');
    expect((err as RenderError).problems).toEqual(['alpha', 'beta', 'zeta']);
  });

  it('names a variable read from inside #each in the one error too', () => {
    expect(() => compileTemplate('{{#each xs}}{{../prefix}}{{this}}{{/each}}', 't.hbs').render({ xs: [1] }))
      .toThrow('template t.hbs needs variables that were not given: prefix');
  });

  it('takes null as given (a template may print or test it), only undefined as missing', () => {
    expect(compileTemplate('a: {{json x}}{{#if y}}!{{/if}}', 't').render({ x: null, y: null })).toBe('a: null');
  });

  it('names the template when Handlebars fails while rendering', () => {
    const t = compileTemplate('{{upper name}}', 'addons/x.yaml.hbs');
    expect(() => t.render({ name: 'n' })).toThrow(RenderError);
    expect(() => t.render({ name: 'n' })).toThrow(/^template addons\/x\.yaml\.hbs failed to render: "upper" not defined/);
  });

  it.each<[string, unknown, string]>([
    ['json', 'on', '"on"'],
    ['yaml', { a: [1, 'b'] }, '{"a":[1,"b"]}'],
    ['yaml', '1.10', '"1.10"'],
  ])('helper %s writes %j as %s', (helper, value, out) => {
    expect(compileTemplate(`{{${helper} v}}`, 't').render({ v: value })).toBe(out);
  });

  it.each<[unknown, unknown, string]>([['ovn', 'ovn', 'yes'], ['ovn', 'amphora', 'no'], [1, '1', 'no']])('eq %j %j: %s', (a, b, out) => {
    expect(compileTemplate('{{#if (eq a b)}}yes{{else}}no{{/if}}', 't').render({ a, b })).toBe(out);
  });

  it('does not HTML-escape, and json quotes safely for YAML', () => {
    expect(compileTemplate('a: {{x}}\nb: {{json y}}', 't').render({ x: '<&>', y: 'yes: "no"' })).toBe('a: <&>\nb: "yes: \\"no\\""');
  });

  it('reports a template that does not parse, naming it', () => {
    expect(() => compileTemplate('{{#if x}}', 'broken.hbs')).toThrow(/template broken.hbs does not parse/);
    expect(() => compileTemplate('{{#if x}}', 'broken.hbs')).toThrow(expect.objectContaining({ problems: [], exitCode: 1 }));
  });
});

describe('documents', () => {
  it('collects every problem of every document', () => {
    const text = 'apiVersion: v1\nkind: ConfigMap\nmetadata: {}\n---\nkind: Service\nmetadata: {name: s}\n---\n---\n[1, 2]\n';
    let err: RenderError | undefined;
    try {
      parseDocuments(text, 'x.yaml');
    } catch (e) {
      err = e as RenderError;
    }
    expect(err?.problems).toEqual([
      'x.yaml document 1 (ConfigMap): metadata.name is missing',
      'x.yaml document 2 (Service): apiVersion is missing',
      'x.yaml document 4: is not a mapping',
    ]);
  });

  it('reports YAML syntax errors with the document number', () => {
    expect(() => parseDocuments('a: [\n', 'bad.yaml')).toThrow(RenderError);
  });

  it('merges a patch into a data: null ConfigMap (ingress-nginx v1.14+)', () => {
    const cm = { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: null };
    const out = applyPatches([cm as never], [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c', namespace: 'n' }, data: { a: 'b' } }], 'p');
    expect(out[0].data).toEqual({ a: 'b' });
    expect(cm.data).toBeNull();
  });

  it('merges maps key by key and replaces lists and scalars', () => {
    expect(mergePatch({ a: { x: 1, y: [1] }, b: 1 }, { a: { y: [2], z: 3 } })).toEqual({ a: { x: 1, y: [2], z: 3 }, b: 1 });
  });

  it('refuses a patch whose target is not in the manifest', () => {
    expect(() => applyPatches([], [{ apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' } }], 'p.yaml')).toThrow(/patch targets not found/);
  });

  it('round-trips through stringifyDocuments, quoting strings that look like booleans', () => {
    const objs = [{ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { on: 'true' } }];
    const text = stringifyDocuments(objs);
    expect(text).toContain('on: "true"');
    expect(parseDocuments(text, 't')).toEqual(objs);
  });
});

describe('schema validation of core kinds', () => {
  it('accepts valid objects and skips unknown kinds', async () => {
    const r = await validateObjects(
      [
        { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: 'c' }, data: { a: 'b' } },
        { apiVersion: 'cluster.x-k8s.io/v1beta1', kind: 'Cluster', metadata: { name: 'x' } },
      ],
      't',
    );
    expect(r).toEqual({ validated: ['ConfigMap/c'], skipped: ['Cluster/x'] });
  });

  it('lists every violation', async () => {
    const bad = { apiVersion: 'v1', kind: 'Service', metadata: { name: 's', namespace: 'n' }, spec: { ports: [{ port: '80' }] } };
    await expect(validateObjects([bad], 'svc.yaml')).rejects.toMatchObject({ problems: [expect.stringMatching(/^Service\/n\/s: .*port must be integer/)] });
  });
});
