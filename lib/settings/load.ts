import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { SettingsError } from '../errors.js';
import { withFsErrors } from '../fs/errors.js';
import { packageFilePath, packageText } from '../assets.js';
import { MAX_YAML_BYTES } from '../fs/yaml-read.js';
import { readTextCapped } from '../fs/read-capped.js';
import { parseSettingsFile, type Layer, type ParsedFile } from './file.js';
import { missingClusterVerdict, type MissingClusterMode } from './cluster-section.js';
import { overlapProblems } from './semantics.js';
import { defaultsLayer, envLayer, flagLayer } from './sources.js';
import type { Origin, ResolvedSettings, SettingKey, Settings } from './types.js';

export interface LoadOptions {
  settingsDir: string;
  env: string;
  /** Apply `clusters.<cluster>` from the file. */
  cluster?: string;
  /** A cluster without a section in a file that lists clusters: warn (default), refuse (exit 2) or accept (cluster-section.ts). */
  missingCluster?: MissingClusterMode;
  /** The process environment (passed in; never read implicitly). */
  environ: NodeJS.ProcessEnv;
  /** `--set key=value` flags. */
  sets?: string[];
  /** Typed flags of a command (e.g. --cloud) that override everything. */
  flags?: Partial<Record<SettingKey, unknown>>;
  cwd?: string;
}

/** The path of an environment's settings file. */
export function settingsFilePath(settingsDir: string, env: string, cwd = process.cwd()): string {
  return path.resolve(cwd, settingsDir, `${env}.yaml`);
}

/** A path as users should see it: relative to cwd when inside it, else absolute. */
export function displayPath(file: string, cwd = process.cwd()): string {
  const rel = path.relative(cwd, file);
  return rel && !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : file;
}

/** Throws (exit 2) unless `env` can name a file <settings-dir>/<env>.yaml. */
export function checkEnvName(env: string): void {
  if (!/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(env)) {
    throw new SettingsError(`invalid environment name "${env}"`, [], 'use letters, digits, ".", "_" and "-" (the file is <settings-dir>/<env>.yaml)');
  }
}

/**
 * Environment "example" is kaas's own settings/example.yaml wherever kaas is installed (the npm
 * package, the single-file executable), unless the settings directory has an example.yaml: the
 * quick start works outside a checkout.
 */
export const BUNDLED_EXAMPLE_ENV = 'example';
/** The file name of the bundled example where it is no file (the single-file executable's asset). */
const BUNDLED_EXAMPLE_ASSET = 'kaas:settings/example.yaml';

function bundledExample(cwd?: string): { file: string; parsed: ParsedFile } {
  const rel = 'settings/example.yaml';
  const file = packageFilePath(rel) ?? BUNDLED_EXAMPLE_ASSET;
  return { file, parsed: parseSettingsFile(packageText(rel), file === BUNDLED_EXAMPLE_ASSET ? file : displayPath(file, cwd)) };
}

/** Whether an environment's file (as readEnvironmentFile returned it) exists: the bundled example's asset does. */
export function environmentFileExists(file: string): boolean {
  return file === BUNDLED_EXAMPLE_ASSET || existsSync(file);
}

/** Reads and parses an environment file; a missing file is an error except for env "default" (and "example", see BUNDLED_EXAMPLE_ENV). */
export function readEnvironmentFile(opts: LoadOptions): { file: string; parsed: ParsedFile } {
  checkEnvName(opts.env);
  const file = settingsFilePath(opts.settingsDir, opts.env, opts.cwd);
  const dir = path.dirname(file);
  if (existsSync(dir) && !statSync(dir).isDirectory()) {
    throw new SettingsError(`--settings-dir ${opts.settingsDir} is not a directory`, [], 'point --settings-dir / KAAS_SETTINGS_DIR at the directory holding <env>.yaml files');
  }
  if (!existsSync(file)) {
    if (opts.env === 'default') return { file, parsed: { environment: { values: {}, origins: {} }, clusters: new Map(), problems: [], warnings: [] } };
    if (opts.env === BUNDLED_EXAMPLE_ENV) return bundledExample(opts.cwd);
    const envs = existsSync(dir) ? readdirSync(dir).filter((f) => f.endsWith('.yaml')).map((f) => f.slice(0, -5)) : [];
    throw new SettingsError(`settings file ${file} not found`, [], envs.length
      ? `environments in ${dir}: ${envs.sort().join(', ')}; choose one with --env, or create ${path.basename(file)} (kaas settings import can convert an SCS clusterctl.yaml)`
      : `create it (see settings/example.yaml), or point --settings-dir / KAAS_SETTINGS_DIR at your settings directory`);
  }
  const shown = displayPath(file, opts.cwd);
  // Capped while reading, whatever the file is (a link to /dev/zero has size 0 and no end).
  return { file, parsed: parseSettingsFile(readTextCapped(file, { shown, maxBytes: MAX_YAML_BYTES, expect: 'a settings file is a few KiB' }), shown) };
}

/** Merges layers in order; a later layer's value wins, an unset value never overwrites. */
export function mergeLayers(layers: Layer[]): { values: Partial<Settings>; origins: Partial<Record<SettingKey, Origin>> } {
  const values: Record<string, unknown> = {};
  const origins: Partial<Record<SettingKey, Origin>> = {};
  for (const l of layers) {
    for (const [k, v] of Object.entries(l.values)) {
      if (v === undefined) continue;
      values[k] = v;
      origins[k as SettingKey] = l.origins[k as SettingKey];
    }
  }
  return { values: values as Partial<Settings>, origins };
}

/**
 * The effective settings: defaults < environment file < clusters.<name> < KAAS_* env < flags.
 * Throws SettingsError (exit 2) listing every problem of every layer at once.
 */
export function loadSettings(opts: LoadOptions): ResolvedSettings {
  const { file, parsed } = readEnvironmentFile(opts);
  const env = envLayer(opts.environ);
  const flags = flagLayer(opts.sets ?? [], opts.flags);
  const warnings = [...parsed.warnings, ...env.warnings];
  const clusterLayer = opts.cluster ? parsed.clusters.get(opts.cluster) : undefined;
  if (opts.cluster && !clusterLayer && !parsed.problems.length && environmentFileExists(file)) {
    const verdict = missingClusterVerdict(opts.cluster, [...parsed.clusters.keys()], path.basename(file), opts.missingCluster ?? 'warn');
    if (verdict.refusal) throw verdict.refusal;
    if (verdict.warning) warnings.push(verdict.warning);
  }
  const problems = [...parsed.problems, ...env.problems, ...flags.problems];
  if (problems.length) {
    throw new SettingsError(`invalid settings (${problems.length} problem${problems.length > 1 ? 's' : ''})`, problems, 'fix the values above; `kaas settings schema` prints the allowed values, docs/reference/settings.md lists every setting');
  }
  const layers = [defaultsLayer(), parsed.environment, ...(clusterLayer ? [clusterLayer] : []), env.layer, flags.layer];
  const merged = mergeLayers(layers);
  const overlapping = overlapProblems(merged.values, merged.origins);
  if (overlapping.length) {
    throw new SettingsError(`invalid settings (${overlapping.length} problem${overlapping.length > 1 ? 's' : ''})`, overlapping, 'give the node, pod and Service networks ranges that do not overlap');
  }
  return {
    env: opts.env,
    cluster: opts.cluster,
    file,
    values: merged.values as Settings,
    origins: merged.origins as Record<SettingKey, Origin>,
    warnings,
  };
}

/** Validates the whole file (every cluster section) plus env and flags; returns the problems. */
export function validateAll(opts: LoadOptions): { file: string; clusters: string[]; problems: string[]; warnings: string[] } {
  const { file, parsed } = readEnvironmentFile(opts);
  const env = envLayer(opts.environ);
  const flags = flagLayer(opts.sets ?? [], opts.flags);
  const problems = [...parsed.problems, ...env.problems, ...flags.problems];
  if (opts.cluster && !parsed.clusters.has(opts.cluster) && existsSync(file)) {
    problems.push(`${path.basename(file)}: clusters.${opts.cluster}: no such cluster section${parsed.clusters.size ? ` (it has: ${[...parsed.clusters.keys()].join(', ')})` : ''}`);
  }
  if (!problems.length) {
    // Ranges that overlap only once the layers are merged: each cluster as it would be loaded.
    const sections: [string, Layer[]][] = parsed.clusters.size
      ? [...parsed.clusters].filter(([name]) => !opts.cluster || name === opts.cluster).map(([name, layer]) => [`clusters.${name}: `, [layer]])
      : [['', []]];
    const seen = new Set<string>();
    for (const [where, layer] of sections) {
      const merged = mergeLayers([defaultsLayer(), parsed.environment, ...layer, env.layer, flags.layer]);
      for (const p of overlapProblems(merged.values, merged.origins)) {
        if (!seen.has(p)) problems.push(`${where}${p}`);
        seen.add(p);
      }
    }
  }
  return { file, clusters: [...parsed.clusters.keys()], problems, warnings: [...parsed.warnings, ...env.warnings] };
}
