import { NGINX } from './annotations.js';

/**
 * Translations of single ingress-nginx features (facts from the ingress-nginx annotation
 * reference; targets from the bundled Gateway API / Envoy Gateway CRDs).
 */

type Obj = Record<string, unknown>;

/** An HTTPRoute/GRPCRoute rule while it is being built. */
export interface RouteRule {
  matches?: Obj[];
  filters?: Obj[];
  backendRefs?: Obj[];
  timeouts?: Obj;
}

/** nginx proxy timeouts are seconds ("60", also "60s"); undefined when it is not one. */
export function durationOf(v: string | undefined): number | undefined {
  const m = /^\s*(\d+)s?\s*$/.exec(v ?? '');
  return m ? Number(m[1]) : undefined;
}

/** nginx sizes (bytes, k, m, g) as a Kubernetes quantity ("8m" → "8Mi"); "0" means no limit. */
export function quantityOf(v: string): string | undefined {
  const m = /^\s*(\d+)([kKmMgG]?)\s*$/.exec(v);
  if (!m) return undefined;
  if (Number(m[1]) === 0) return '0';
  return `${Number(m[1])}${m[2] ? `${m[2].toUpperCase()}i` : ''}`;
}

/** Seconds as an Envoy Gateway duration (each part at most 5 digits): 1728000 → "480h". */
export function gatewayDuration(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}

const list = (v: string | undefined, dflt: string) => (v ?? dflt).split(',').map((x) => x.trim()).filter(Boolean);

/** ingress-nginx's CORS annotations (with its defaults) as an Envoy Gateway SecurityPolicy `cors`. */
export function corsPolicy(a: Record<string, string>): Obj {
  const get = (k: string) => a[`${NGINX}${k}`];
  const expose = list(get('cors-expose-headers'), '');
  return {
    allowOrigins: list(get('cors-allow-origin'), '*'),
    allowMethods: list(get('cors-allow-methods'), 'GET, PUT, POST, DELETE, PATCH, OPTIONS'),
    allowHeaders: list(get('cors-allow-headers'), 'DNT,Keep-Alive,User-Agent,X-Requested-With,If-Modified-Since,Cache-Control,Content-Type,Range,Authorization'),
    ...(expose.length ? { exposeHeaders: expose } : {}),
    allowCredentials: !/^false$/i.test(get('cors-allow-credentials') ?? 'true'),
    maxAge: gatewayDuration(durationOf(get('cors-max-age')) ?? 1728000),
  };
}

/** What a rewrite does to one rule: its filter, a new path match, an extra object (HTTPRouteFilter). */
export interface RuleRewrite {
  filter?: Obj;
  path?: Obj;
  object?: Obj;
  /** The target names a group the path does not have: nothing converted, this says why and how to fix it. */
  missingGroup?: string;
}

/** Capture groups of a path read as ingress-nginx's regular expression: `(` not escaped, not `(?…)`. */
export function captureGroups(path: string): number {
  return (path.match(/(?<!\\)\((?!\?)/g) ?? []).length;
}

const REGEX_CHARS = /[()[\]{}|$^*+?\\]/;

/** The path without a trailing slash (the stem the documented idiom appends its groups to). */
const literalStem = (path: string) => path.replace(/\/+$/, '') || '/app';

/**
 * rewrite-target. ingress-nginx turns paths into regular expressions when it is set and replaces
 * the whole path by the target (with `$n` from the path's groups):
 * - no groups: URLRewrite ReplaceFullPath;
 * - the documented idioms `/x(/|$)(.*)` → `/$2` and `/x/(.*)` → `/$1`: PathPrefix + ReplacePrefixMatch "/";
 * - anything else: an Envoy Gateway HTTPRouteFilter with urlRewrite.path.replaceRegexMatch.
 */
export function rewriteFor(a: Record<string, string>): { regexPaths: boolean; filter?: (path: string, routeName: string) => RuleRewrite } {
  const target = a[`${NGINX}rewrite-target`];
  if (target === undefined) return { regexPaths: false };
  return {
    regexPaths: false,
    filter(path, routeName) {
      const literal = !REGEX_CHARS.test(path);
      if (!/\$\d/.test(target)) {
        return {
          path: literal ? { type: 'PathPrefix', value: path } : { type: 'RegularExpression', value: `${path}.*` },
          filter: { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplaceFullPath', replaceFullPath: target } } },
        };
      }
      // ingress-nginx fills a missing $n with nothing: every request under the path went to what is left
      // (usually "/"). Almost always a copied idiom whose path lost its groups: said, not carried over.
      const wanted = Math.max(...[...target.matchAll(/\$(\d)/g)].map((m) => Number(m[1])));
      const groups = captureGroups(path);
      if (wanted > groups) {
        return {
          missingGroup: `rewrite-target "${target}" names group $${wanted}, but path "${path}" has ${groups === 0 ? 'no regex groups' : `only ${groups} group${groups === 1 ? '' : 's'}`}; `
            + `ingress-nginx replaced $${wanted} with nothing, sending every request under the path to "${target.replace(/\$\d/g, '')}". `
            + `Fix the Ingress: give the path the groups (e.g. path "${literalStem(path)}(/|$)(.*)" with rewrite-target "/$2"), or set the target you mean without $n`,
        };
      }
      const idiom = /^(\/.*?)\(\/\|\$\)\(\.\*\)$/.exec(path);
      if (idiom && target === '/$2' && !REGEX_CHARS.test(idiom[1])) {
        return { path: { type: 'PathPrefix', value: idiom[1] }, filter: { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } } };
      }
      const slash = /^(\/.*\/)\(\.\*\)$/.exec(path);
      if (slash && target === '/$1' && !REGEX_CHARS.test(slash[1])) {
        return { path: { type: 'PathPrefix', value: slash[1].replace(/\/$/, '') || '/' }, filter: { type: 'URLRewrite', urlRewrite: { path: { type: 'ReplacePrefixMatch', replacePrefixMatch: '/' } } } };
      }
      const name = `${routeName}-rewrite`;
      return {
        path: { type: 'RegularExpression', value: `${path}.*` },
        filter: { type: 'ExtensionRef', extensionRef: { group: 'gateway.envoyproxy.io', kind: 'HTTPRouteFilter', name } },
        object: {
          apiVersion: 'gateway.envoyproxy.io/v1alpha1', kind: 'HTTPRouteFilter', metadata: { name },
          spec: { urlRewrite: { path: { type: 'ReplaceRegexMatch', replaceRegexMatch: { pattern: `^${path}.*`, substitution: target.replace(/\$(\d)/g, '\\$1') } } } },
        },
      };
    },
  };
}
