import { readFileSync } from 'node:fs';
import Handlebars from 'handlebars';
import { OperationError } from '../errors.js';
import { COMPILE_OPTIONS, HELPER_NAMES, HELPERS, makeTemplate, RenderError, type Template } from './template.js';

/**
 * A small, generic template engine over Handlebars in strict mode (used for the ingress overlays,
 * cloud.conf and the CAPO objects). A template knows which variables it needs (read from its AST,
 * as clusterctl's template.go does); rendering with any of them missing fails with ONE error naming
 * all of them, sorted. Output is not HTML-escaped: use `{{json x}}` to emit a safely quoted YAML
 * scalar (JSON is YAML), `{{yaml x}}` for a flow-style value.
 */

export { RenderError, type Template } from './template.js';

const hb = Handlebars.create();
for (const [name, fn] of Object.entries(HELPERS)) hb.registerHelper(name, fn);

type Node = hbs.AST.Node & Record<string, unknown>;

/**
 * Lists the top-level variables a template reads. Inside #each/#with bodies names are local, but a
 * path that climbs out of every such body (`{{#each xs}}{{../prefix}}{{/each}}`) reads the top level:
 * Handlebars counts only the blocks that change the context (#if and #unless do not).
 */
export function templateVariables(source: string): string[] {
  const found = new Set<string>();
  // `level`: how many #each/#with bodies enclose the expression.
  const visitExpr = (e: Node, level: number) => {
    if (e.type === 'PathExpression') {
      const p = e as unknown as hbs.AST.PathExpression;
      if (!p.data && p.depth === level && p.parts.length > 0) found.add(p.parts[0]);
    } else if (e.type === 'SubExpression') {
      const s = e as unknown as hbs.AST.SubExpression;
      for (const q of s.params) visitExpr(q as Node, level);
      for (const pair of s.hash?.pairs ?? []) visitExpr(pair.value as Node, level);
    }
  };
  const visitCall = (n: hbs.AST.MustacheStatement | hbs.AST.BlockStatement, level: number) => {
    const head = n.path as hbs.AST.PathExpression;
    const isHelper = n.params.length > 0 || (n.hash?.pairs.length ?? 0) > 0 || HELPER_NAMES.has(head.original);
    if (!isHelper) visitExpr(n.path as Node, level);
    for (const q of n.params) visitExpr(q as Node, level);
    for (const pair of n.hash?.pairs ?? []) visitExpr(pair.value as Node, level);
  };
  const visitProgram = (prog: hbs.AST.Program, level: number) => {
    for (const st of prog.body) {
      if (st.type === 'MustacheStatement') visitCall(st as hbs.AST.MustacheStatement, level);
      else if (st.type === 'BlockStatement') {
        const b = st as hbs.AST.BlockStatement;
        visitCall(b, level);
        const name = (b.path as hbs.AST.PathExpression).original;
        visitProgram(b.program, name === 'each' || name === 'with' ? level + 1 : level);
        if (b.inverse) visitProgram(b.inverse, level);
      }
    }
  };
  visitProgram(hb.parse(source), 0);
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
  return makeTemplate(name, variables, hb.compile(source, COMPILE_OPTIONS));
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
