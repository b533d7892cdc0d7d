import { KaasError } from '../errors.js';

/**
 * What every template is, however it was compiled: at run time from its source (engine.ts, tests and
 * the tsc-built CLI) or ahead of time by the build (bundled.bundle.ts). Free of the Handlebars compiler,
 * so that modules needing only RenderError or a precompiled template never load it.
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

/** The options every kaas template is compiled with (output is YAML/INI, never HTML). */
export const COMPILE_OPTIONS = { strict: true, noEscape: true } as const;

/** The helpers every template may call. */
export const HELPERS: Record<string, (...args: unknown[]) => unknown> = {
  json: (v) => JSON.stringify(v),
  yaml: (v) => JSON.stringify(v),
  eq: (a, b) => a === b,
};

/** Names a template may call without them being variables: kaas's helpers and Handlebars' built-ins. */
export const HELPER_NAMES = new Set([...Object.keys(HELPERS), 'if', 'unless', 'each', 'with', 'lookup', 'log']);

/** Wraps a compiled Handlebars function: checks for missing variables first, names the template in every error. */
export function makeTemplate(name: string, variables: string[], fn: (vars: Record<string, unknown>) => string): Template {
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
