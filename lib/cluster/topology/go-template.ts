/**
 * The small part of Go's text/template that ClusterClass patches use in `valueFrom.template` and
 * `enabledIf` (Cluster API: core/reconcilers/topology/cluster/patches/inline/json_patch_generator.go
 * renders the template with the variables and `builtin`, then parses the result as YAML; a patch is
 * enabled when its `enabledIf` renders to `true`): `{{ .a.b }}`, `{{ if X }}…{{ else }}…{{ end }}`, the
 * `{{-` / `-}}` trims, and the expressions the Cluster Stacks classes use in them — string, number and
 * boolean literals, parentheses and Go's built-in `eq`, `ne`, `and`, `or` and `not`. Anything else
 * (range, with, pipelines, variables, other functions) is reported as unsupported, so the caller can say
 * it cannot follow that patch instead of guessing. Pure.
 */

/** The template uses something this subset does not evaluate. */
export class UnsupportedTemplate extends Error {}

/** An expression: a field of the data, a literal, or a call of one of Go's built-ins. */
type Expr = { field: string[] } | { lit: string | number | boolean | null } | { call: string; args: Expr[] };
type Node = { text: string } | { expr: Expr } | { cond: Expr; then: Node[]; else: Node[] };

const ACTION = /\{\{(-?)\s*(.*?)\s*(-?)\}\}/gs;
const FUNCS = new Set(['eq', 'ne', 'and', 'or', 'not']);

/** Parses the inside of an action (`eq .a "b"`, `(not .x)`, `.a.b`) into an expression. */
function parseExpr(src: string): Expr {
  const tokens: string[] = [];
  const TOKEN = /\s*(\(|\)|"(?:[^"\\]|\\.)*"|`[^`]*`|-?\d+(?:\.\d+)?|\.[A-Za-z_][\w.]*|[A-Za-z_]\w*|\S)/gy;
  for (let m = TOKEN.exec(src); m; m = TOKEN.exec(src)) {
    tokens.push(m[1]);
    if (TOKEN.lastIndex >= src.length) break;
  }
  if (src.slice(TOKEN.lastIndex).trim()) throw new UnsupportedTemplate(`{{ ${src} }}`);
  let i = 0;
  const operand = (): Expr => {
    const t = tokens[i++];
    if (t === undefined) throw new UnsupportedTemplate(`{{ ${src} }} (an argument is missing)`);
    if (t === '(') {
      const e = command();
      if (tokens[i++] !== ')') throw new UnsupportedTemplate(`{{ ${src} }} (unbalanced parentheses)`);
      return e;
    }
    if (t.startsWith('.')) {
      if (t.endsWith('.')) throw new UnsupportedTemplate(`{{ ${src} }}`);
      return { field: t.slice(1).split('.') };
    }
    if (t.startsWith('"')) return { lit: JSON.parse(t) as string };
    if (t.startsWith('`')) return { lit: t.slice(1, -1) };
    if (/^-?\d/.test(t)) return { lit: Number(t) };
    if (t === 'true' || t === 'false') return { lit: t === 'true' };
    if (t === 'nil') return { lit: null };
    throw new UnsupportedTemplate(`{{ ${src} }} (${t})`);
  };
  const command = (): Expr => {
    const t = tokens[i];
    if (t !== undefined && /^[A-Za-z_]/.test(t) && !['true', 'false', 'nil'].includes(t)) {
      if (!FUNCS.has(t)) throw new UnsupportedTemplate(`{{ ${src} }} (the function ${t})`);
      i++;
      const args: Expr[] = [];
      while (i < tokens.length && tokens[i] !== ')') args.push(operand());
      if (!args.length || (t === 'not' && args.length !== 1) || (t === 'ne' && args.length !== 2) || (t === 'eq' && args.length < 2)) {
        throw new UnsupportedTemplate(`{{ ${src} }} (${t} with ${args.length} arguments)`);
      }
      return { call: t, args };
    }
    return operand();
  };
  const e = command();
  if (i !== tokens.length) throw new UnsupportedTemplate(`{{ ${src} }}`);
  return e;
}

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
      const m = /^if\s+(.+)$/s.exec(a);
      if (m) {
        const cond = parseExpr(m[1]);
        const then = block();
        let els: Node[] = [];
        if ((tokens[i] as { action?: string })?.action === 'else') {
          i++;
          els = block();
        }
        if ((tokens[i] as { action?: string })?.action !== 'end') throw new UnsupportedTemplate(`{{ ${a} }} without {{ end }}`);
        i++;
        out.push({ cond, then, else: els });
      } else if (/^(range|with|define|template|block|break|continue)\b|^\$|^\/\*/.test(a) || a.includes('|')) {
        throw new UnsupportedTemplate(`{{ ${a} }}`);
      } else {
        out.push({ expr: parseExpr(a) });
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
const truthy = (v: unknown) =>
  !(v === undefined || v === null || v === false || v === 0 || v === '' || (Array.isArray(v) && !v.length) || (typeof v === 'object' && !Array.isArray(v) && !Object.keys(v as object).length));

/** Go's eq of two values of the data or literals: values of different kinds are an error (as in Go). */
function eq(a: unknown, b: unknown, src: string): boolean {
  if (a === undefined || b === undefined || a === null || b === null) return a === b || (a == null && b == null);
  const kind = (v: unknown) => (Array.isArray(v) ? 'array' : typeof v);
  if (kind(a) !== kind(b) || typeof a === 'object') throw new UnsupportedTemplate(`${src} (eq of ${kind(a)} and ${kind(b)}, which Go refuses to compare)`);
  return a === b;
}

function evaluate(e: Expr, vars: Record<string, unknown>): unknown {
  if ('field' in e) return lookup(vars, e.field);
  if ('lit' in e) return e.lit;
  const src = `${e.call} …`;
  switch (e.call) {
    case 'eq': {
      const a = evaluate(e.args[0], vars);
      return e.args.slice(1).some((x) => eq(a, evaluate(x, vars), src));
    }
    case 'ne':
      return !eq(evaluate(e.args[0], vars), evaluate(e.args[1], vars), src);
    case 'not':
      return !truthy(evaluate(e.args[0], vars));
    case 'and': {
      // Go returns the first empty argument, else the last (and evaluates no further).
      let v: unknown;
      for (const x of e.args) if (!truthy((v = evaluate(x, vars)))) return v;
      return v;
    }
    default: {
      let v: unknown;
      for (const x of e.args) if (truthy((v = evaluate(x, vars)))) return v;
      return v;
    }
  }
}

/** Renders `src` with `vars` (a value missing prints `<no value>`, as Go does). Throws UnsupportedTemplate. */
export function renderTemplate(src: string, vars: Record<string, unknown>): string {
  const run = (nodes: Node[]): string =>
    nodes
      .map((n) => {
        if ('text' in n) return n.text;
        if ('expr' in n) {
          const v = evaluate(n.expr, vars);
          return v === undefined ? '<no value>' : v === null ? '<nil>' : typeof v === 'object' ? JSON.stringify(v) : String(v);
        }
        return run(truthy(evaluate(n.cond, vars)) ? n.then : n.else);
      })
      .join('');
  return run(parse(src));
}

/** The variable names a template reads (first path element; `builtin` left out). Throws UnsupportedTemplate. */
export function templateVariables(src: string): string[] {
  const names = new Set<string>();
  const expr = (e: Expr) => {
    if ('field' in e) names.add(e.field[0]);
    else if ('call' in e) e.args.forEach(expr);
  };
  const walk = (nodes: Node[]) => {
    for (const n of nodes) {
      if ('expr' in n) expr(n.expr);
      else if ('cond' in n) {
        expr(n.cond);
        walk(n.then);
        walk(n.else);
      }
    }
  };
  walk(parse(src));
  names.delete('builtin');
  return [...names];
}

/**
 * Whether a ClusterClass patch with this `enabledIf` applies, given the variables: Cluster API enables
 * it when the rendered template is the YAML `true` (an empty `enabledIf` always applies). Throws
 * UnsupportedTemplate.
 */
export function patchEnabled(enabledIf: string | undefined, vars: Record<string, unknown>): boolean {
  if (!enabledIf) return true;
  const out = renderTemplate(enabledIf, vars).trim();
  return out === 'true' || out === 'True' || out === 'TRUE';
}
