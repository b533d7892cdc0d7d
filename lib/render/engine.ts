import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { KaasError, OperationError } from '../errors.js';

/**
 * A small, generic template engine over Handlebars in strict mode (used for the ingress overlays,
 * cloud.conf and the CAPO objects). A template knows which variables it needs (read from its AST,
 * as clusterctl's template.go does); rendering with any of them missing fails with ONE error naming
 * all of them, sorted. Output is not HTML-escaped: use `{{json x}}` to emit a safely quoted YAML
 * scalar (JSON is YAML), `{{yaml x}}` for a flow-style value.
 */

/** Rendering failed: missing variables (all listed) or a Handlebars error. Exit 1 (a kaas bug or a bad template). */
export class RenderError extends KaasError {
  constructor(message: string, problems: string[] = [], hint?: string) {
    super(message, { exitCode: 1, problems, hint });
  }
}

/** A compiled template. */
export interface Template {
  /** Name used in errors (usually the path under templates/). */
  readonly name: string;
  /** The top-level variables the template reads, sorted (helpers and block-local names excluded). */
  readonly variables: string[];
  /** Renders with `vars`; throws RenderError naming every missing variable. */
  render(vars: Record<string, unknown>): string;
}

const hb = Handlebars.create();
hb.registerHelper('json', (v: unknown) => JSON.stringify(v));
hb.registerHelper('yaml', (v: unknown) => JSON.stringify(v));
hb.registerHelper('eq', (a: unknown, b: unknown) => a === b);
const HELPERS = new Set(['json', 'yaml', 'eq', 'if', 'unless', 'each', 'with', 'lookup', 'log']);

type Node = hbs.AST.Node & Record<string, unknown>;

/** Lists the top-level variables a template reads. Paths inside #each/#with bodies are local and skipped. */
export function templateVariables(source: string): string[] {
  const found = new Set<string>();
  const visitExpr = (e: Node | undefined, local: boolean) => {
    if (!e) return;
    if (e.type === 'PathExpression') {
      const p = e as unknown as hbs.AST.PathExpression;
      if (!local && !p.data && p.depth === 0 && p.parts.length > 0 && !/^this\b/.test(p.original)) found.add(p.parts[0]);
    } else if (e.type === 'SubExpression') {
      const s = e as unknown as hbs.AST.SubExpression;
      for (const q of s.params) visitExpr(q as Node, local);
      for (const pair of s.hash?.pairs ?? []) visitExpr(pair.value as Node, local);
    }
  };
  const visitCall = (n: hbs.AST.MustacheStatement | hbs.AST.BlockStatement, local: boolean) => {
    const head = n.path as hbs.AST.PathExpression;
    const isHelper = n.params.length > 0 || (n.hash?.pairs.length ?? 0) > 0 || HELPERS.has(head.original);
    if (!isHelper) visitExpr(n.path as Node, local);
    for (const q of n.params) visitExpr(q as Node, local);
    for (const pair of n.hash?.pairs ?? []) visitExpr(pair.value as Node, local);
  };
  const visitProgram = (prog: hbs.AST.Program | undefined, local: boolean) => {
    for (const st of prog?.body ?? []) {
      if (st.type === 'MustacheStatement') visitCall(st as hbs.AST.MustacheStatement, local);
      else if (st.type === 'BlockStatement') {
        const b = st as hbs.AST.BlockStatement;
        visitCall(b, local);
        const name = (b.path as hbs.AST.PathExpression).original;
        visitProgram(b.program, local || name === 'each' || name === 'with');
        visitProgram(b.inverse, local);
      }
    }
  };
  visitProgram(hb.parse(source), false);
  return [...found].sort();
}

/** Compiles a template from source text; `name` appears in every error about it. */
export function compileTemplate(source: string, name: string): Template {
  let variables: string[];
  try {
    variables = templateVariables(source);
  } catch (e) {
    throw new RenderError(`template ${name} does not parse: ${(e as Error).message}`);
  }
  const fn = hb.compile(source, { strict: true, noEscape: true });
  return {
    name,
    variables,
    render(vars) {
      const missing = variables.filter((v) => vars[v] === undefined);
      if (missing.length) {
        throw new RenderError(`template ${name} needs variables that were not given: ${missing.join(', ')}`, missing);
      }
      try {
        return fn(vars);
      } catch (e) {
        throw new RenderError(`template ${name} failed to render: ${(e as Error).message}`);
      }
    },
  };
}

/** Reads and compiles a template file (absolute path); errors name the file. */
export function loadTemplate(file: string, name = file): Template {
  let source: string;
  try {
    source = readFileSync(file, 'utf8');
  } catch (e) {
    throw new OperationError(`cannot read template ${name}: ${(e as Error).message}`, { hint: 'reinstall kaas: its templates/ folder is incomplete' });
  }
  return compileTemplate(source, name);
}
