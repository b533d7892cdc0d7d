import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { UsageError } from '../errors.js';
import { MAX_ALIAS_COUNT, MAX_YAML_BYTES } from '../fs/yaml-read.js';
import { readTextCapped } from '../fs/read-capped.js';

/** Where to look for clouds.yaml / secure.yaml. Passed in explicitly: nothing is read implicitly. */
export interface CloudsFilesContext {
  environ: NodeJS.ProcessEnv;
  cwd: string;
  home: string;
  /** Site config dir; /etc/openstack unless a test says otherwise. */
  etcDir?: string;
  /** Injectable for tests; defaults to fs.existsSync/readFileSync. */
  exists?: (p: string) => boolean;
  readFile?: (p: string) => string;
}

/** The clouds file that was read, the secure file merged over it, and the merged content. */
export interface CloudsFiles {
  cloudsFile?: string;
  secureFile?: string;
  /** `clouds:` map after secure.yaml was deep-merged over clouds.yaml. */
  clouds: Record<string, Record<string, unknown>>;
  /** The top-level `cache.auth` (openstacksdk's switch for keeping tokens between runs, see auth-cache.ts). */
  cacheAuth: boolean;
}

const EXTENSIONS = ['.yaml', '.yml', '.json'];

/**
 * Candidate paths in openstacksdk's order (openstack/config/loader.py): the file named by the
 * override variable, then ./, ~/.config/openstack/, /etc/openstack/, each with .yaml/.yml/.json.
 */
export function candidatePaths(base: 'clouds' | 'secure', ctx: CloudsFilesContext): string[] {
  const override = ctx.environ[base === 'clouds' ? 'OS_CLIENT_CONFIG_FILE' : 'OS_CLIENT_SECURE_FILE'];
  const dirs = [ctx.cwd, path.join(ctx.home, '.config', 'openstack'), ctx.etcDir ?? '/etc/openstack'];
  const files = dirs.flatMap((d) => EXTENSIONS.map((ext) => path.join(d, base + ext)));
  return override ? [override, ...files] : files;
}

/** Nested maps merge key by key; scalars and lists from `over` replace (openstacksdk _util.merge_clouds). */
export function deepMerge(base: Record<string, unknown>, over: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = { ...base };
  for (const [k, v] of Object.entries(over)) {
    const b = out[k];
    out[k] = isMap(b) && isMap(v) ? deepMerge(b, v) : v;
  }
  return out;
}

function isMap(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function readDoc(file: string, read: (p: string) => string): Record<string, unknown> {
  let doc: unknown;
  const text = read(file);
  if (Buffer.byteLength(text) > MAX_YAML_BYTES) {
    throw new UsageError(`${file} has ${Buffer.byteLength(text)} bytes; kaas reads at most ${MAX_YAML_BYTES} (1 MiB)`, { hint: 'is this the right file? a clouds.yaml is a few KiB' });
  }
  try {
    // Later duplicate keys win, as in openstacksdk (PyYAML); checking them would be quadratic.
    // An empty file (or only comments) parses to null: no clouds.
    // merge: openstacksdk (PyYAML) honours `<<: *base`; without it the merged keys (region_name, …) were dropped.
    doc = parse(text, { uniqueKeys: false, maxAliasCount: MAX_ALIAS_COUNT, merge: true }) ?? {};
  } catch (err) {
    // Only the first line: the rest quotes the file, which may hold a password.
    throw new UsageError(`cannot read ${file}: ${(err as Error).message.split('\n')[0]}`, {
      hint: 'fix the YAML syntax of the clouds file',
    });
  }
  if (!isMap(doc)) throw new UsageError(`${file}: expected a mapping with a "clouds:" key`);
  return doc;
}

/**
 * Finds the first clouds file and the first secure file (first found wins, as in openstacksdk)
 * and returns their `clouds:` maps deep-merged. No file at all is not an error here: plain OS_*
 * variables may still describe a cloud.
 */
export function readCloudsFiles(ctx: CloudsFilesContext): CloudsFiles {
  const exists = ctx.exists ?? ((p: string) => fs.existsSync(p));
  const read = ctx.readFile ?? ((p: string) => readTextCapped(p, { maxBytes: MAX_YAML_BYTES, expect: 'a clouds.yaml is a few KiB' }));
  const cloudsFile = candidatePaths('clouds', ctx).find(exists);
  const secureFile = candidatePaths('secure', ctx).find(exists);
  const cloudsDoc = cloudsFile ? readDoc(cloudsFile, read) : undefined;
  const secureDoc = secureFile ? readDoc(secureFile, read) : undefined;
  const clouds = cloudsDoc?.clouds;
  const secure = secureDoc?.clouds;
  if (clouds !== undefined && !isMap(clouds)) throw new UsageError(`${cloudsFile}: "clouds" must be a mapping`);
  if (secure !== undefined && !isMap(secure)) throw new UsageError(`${secureFile}: "clouds" must be a mapping`);
  const merged = deepMerge(clouds ?? {}, secure ?? {});
  // The whole secure file is merged over the clouds file in openstacksdk (loader.py), its `cache:` too.
  const [cache, cacheSource] = isMap(cloudsDoc?.cache) && isMap(secureDoc?.cache)
    ? [deepMerge(cloudsDoc.cache, secureDoc.cache), `${cloudsFile} + ${secureFile}`]
    : secureDoc?.cache !== undefined ? [secureDoc.cache, secureFile] : [cloudsDoc?.cache, cloudsFile];
  const cacheAuth = cacheAuthSetting(cache, cacheSource ?? 'clouds.yaml');
  return { cloudsFile, secureFile, clouds: merged as Record<string, Record<string, unknown>>, cacheAuth };
}

/** The booleans of PyYAML's resolver (openstacksdk reads clouds.yaml with it): `auth: yes` is true there, `y` and `yEs` are text. */
const YAML11_TRUE = /^(yes|Yes|YES|true|True|TRUE|on|On|ON)$/;
const YAML11_FALSE = /^(no|No|NO|false|False|FALSE|off|Off|OFF)$/;

/**
 * `cache.auth` of the clouds files' top level (secure.yaml merged over clouds.yaml), as openstacksdk
 * reads it: true, false, or absent (false). Anything else is an error naming the file. Pure.
 */
export function cacheAuthSetting(cache: unknown, source: string): boolean {
  if (cache === undefined || cache === null) return false;
  if (typeof cache !== 'object' || Array.isArray(cache)) {
    throw new UsageError(`${source}: "cache" must be a mapping (e.g. cache: {auth: true}), found ${Array.isArray(cache) ? 'a list' : typeof cache}`, {
      hint: 'write the cache settings as a mapping, or remove the cache key',
    });
  }
  const v = (cache as Record<string, unknown>).auth;
  if (v === undefined || v === null || typeof v === 'boolean') return v === true;
  if (typeof v === 'string' && YAML11_TRUE.test(v)) return true;
  if (typeof v === 'string' && YAML11_FALSE.test(v)) return false;
  throw new UsageError(`${source}: cache.auth must be true or false, found ${JSON.stringify(v)}`, {
    hint: 'cache.auth: true keeps Keystone tokens between runs (in ~/.cache/kaas/auth); false or no key asks for a token on every run',
  });
}

