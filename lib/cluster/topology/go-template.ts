/**
 * The small part of Go's text/template that ClusterClass patches use in `valueFrom.template`
 * (Cluster API: internal/controllers/topology/cluster/patches/inline/json_patch_generator.go renders
 * the template with the variables and `builtin`, then parses the result as YAML): `{{ .a.b }}`,
 * `{{ if .x }}…{{ else }}…{{ end }}` and the `{{-` / `-}}` trims. Anything else (range, functions,
 * pipelines) is reported as unsupported, so the caller can say it cannot follow that patch instead of
 * guessing. Pure.
 */

/** The template uses something this subset does not evaluate. */
export class UnsupportedTemplate extends Error {}

type Node = { text: string } | { field: string[] } | { cond: string[]; then: Node[]; else: Node[] };

const ACTION = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/gs;

function parse(src: string): Node[] {
  // Apply the trim markers first: `{{-` eats the whitespace before, `-}}` the whitespace after.
  const tokens: ({ text: string } | { action: string })[] = [];
  let last = 0;
  for (const m of src.matchAll(ACTION)) {
    let text = src.slice(last, m.index);
    if (m[1] === '-') text = text.replace(/\s+$/, '');
    if (tokens.length && 'action' in tokens[tokens.length - 1] && (tokens[tokens.length - 1] as { trimAfter?: boolean }).trimAfter) text = text.replace(/^\s+/, '');
    tokens.push({ text });
    tokens.push(Object.assign({ action: m[2] }, m[3] === '-' ? { trimAfter: true } : {}));
    last = m.index + m[0].length;
  }
  let tail = src.slice(last);
  if (tokens.length && (tokens[tokens.length - 1] as { trimAfter?: boolean }).trimAfter) tail = tail.replace(/^\s+/, '');
  tokens.push({ text: tail });

  const field = (s: string): string[] => {
    if (!/^\.[A-Za-z_][\w.]*$/.test(s)) throw new UnsupportedTemplate(`{{ ${s} }}`);
    return s.slice(1).split('.');
  };
  let i = 0;
  const block = (): Node[] => {
    const out: Node[] = [];
    while (i < tokens.length) {
      const t = tokens[i];
      if ('text' in t) {
        if (t.text) out.push({ text: t.text });
        i++;
        continue;
      }
      const a = t.action;
      if (a === 'else' || a === 'end') return out;
      i++;
      const m = /^if\s+(\S+)$/.exec(a);
      if (m) {
        const then = block();
        let els: Node[] = [];
        if ((tokens[i] as { action?: string })?.action === 'else') {
          i++;
          els = block();
        }
        if ((tokens[i] as { action?: string })?.action !== 'end') throw new UnsupportedTemplate(`{{ ${a} }} without {{ end }}`);
        i++;
        out.push({ cond: field(m[1]), then, else: els });
      } else {
        out.push({ field: field(a) });
      }
    }
    return out;
  };
  const nodes = block();
  if (i < tokens.length) throw new UnsupportedTemplate(`a stray {{ ${(tokens[i] as { action: string }).action} }}`);
  return nodes;
}

const lookup = (vars: Record<string, unknown>, path: string[]): unknown =>
  path.reduce<unknown>((x, k) => (x && typeof x === 'object' ? (x as Record<string, unknown>)[k] : undefined), vars);
const truthy = (v: unknown) => !(v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && !v.length));

/** Renders `src` with `vars` (a value missing prints `<no value>`, as Go does). Throws UnsupportedTemplate. */
export function renderTemplate(src: string, vars: Record<string, unknown>): string {
  const run = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        if ('text' in n) return n.text;
        if ('field' in n) {
          const v = lookup(vars, n.field);
          return v === undefined ? '<no value>' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        }
        return run(truthy(lookup(vars, n.cond)) ? n.then : n.else);
      })
      .join('');
  return run(parse(src));
}

/** The variable names a template reads (first path element; `builtin` left out). Throws UnsupportedTemplate. */
export function templateVariables(src: string): string[] {
  const names = new Set<string>();
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if ('field' in n) names.add(n.field[0]);
      else if ('cond' in n) {
        names.add(n.cond[0]);
        walk(n.then);
        walk(n.else);
      }
    }
  };
  walk(parse(src));
  names.delete('builtin');
  return [...names];
}
