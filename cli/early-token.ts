/**
 * `kaas detect` spends most of its run waiting for Keystone. So its token is asked for first thing,
 * before the argument parser and the commands load: from a quick reading of the arguments (the same
 * settings and clouds.yaml code then picks the cloud), the request goes out while the rest of kaas
 * loads. It is only a head start: the run resolves its cloud as always, and connect() takes the token
 * over only when that cloud is exactly the same; anything else (a reading that differs from yargs',
 * bad settings, no cloud) drops it unused, and the run behaves as if it had never been asked for.
 */
import { statSync } from 'node:fs';
import { parseArgs } from 'node:util';
import type { EarlyToken } from '../lib/openstack/connection.js';

/** The flags that matter for detect's cloud, and the global ones that take a value (so that their value is not read as the cluster). */
const OPTIONS = {
  cloud: { type: 'string' },
  capabilities: { type: 'string' },
  timeout: { type: 'string' },
  env: { type: 'string', short: 'e' },
  'settings-dir': { type: 'string' },
  set: { type: 'string', multiple: true },
  output: { type: 'string', short: 'o' },
  help: { type: 'boolean', short: 'h' },
  version: { type: 'boolean' },
  'get-yargs-completions': { type: 'boolean' },
} as const;

/** What the early request needs from the arguments, or undefined when this run gets none. */
export function earlyTokenInputs(argv: string[], environ: NodeJS.ProcessEnv) {
  if (argv[0] !== 'detect') return undefined;
  let parsed;
  try {
    parsed = parseArgs({ args: argv, options: OPTIONS, strict: false, allowPositionals: true });
  } catch {
    return undefined;
  }
  const v = parsed.values as { [K in keyof typeof OPTIONS]?: (typeof OPTIONS)[K]['type'] extends 'boolean' ? boolean : string | string[] };
  // Runs that ask no cloud: help, version, completion, saved capabilities.
  if (v.help || v.version || v['get-yargs-completions'] || v.capabilities !== undefined) return undefined;
  const one = (x: string | string[] | undefined) => (Array.isArray(x) ? undefined : x);
  const sets = v.set === undefined ? [] : [v.set].flat();
  return {
    cloudFlag: one(v.cloud),
    env: one(v.env) ?? (environ.KAAS_ENV || 'default'),
    settingsFlag: one(v['settings-dir']),
    sets,
    cluster: parsed.positionals[1],
    timeoutText: one(v.timeout) ?? '30s',
  };
}

/**
 * Starts the early token request for this run, if it is a `kaas detect` that will ask the cloud.
 * Never throws and never rejects: whatever goes wrong here, the run finds it again and reports it.
 */
export function startEarlyToken(argv: string[], environ: NodeJS.ProcessEnv, cwd: string, home: string): Promise<EarlyToken | undefined> | undefined {
  const inputs = earlyTokenInputs(argv, environ);
  if (!inputs) return undefined;
  return (async () => {
    const [{ parseDuration }, { resolveCloudConfig }, { requestToken }] = await Promise.all([
      import('../lib/duration.js'),
      import('../lib/openstack/cloud-config.js'),
      import('../lib/openstack/connection.js'),
    ]);
    const seconds = parseDuration(inputs.timeoutText);
    if (typeof seconds !== 'number') return undefined;
    // --cloud beats the cloud setting: the settings are read only when no --cloud is given.
    const cloudSetting = inputs.cloudFlag === undefined ? await cloudSettingOf(inputs, environ, cwd, home) : undefined;
    const cloud = resolveCloudConfig({ environ, cwd, home, cloudFlag: inputs.cloudFlag, cloudSetting });
    return requestToken(cloud, { timeoutMs: seconds * 1000 });
  })().catch(() => undefined);
}

/** The `cloud` setting of the environment (and cluster) the arguments name, as the run will read it. */
async function cloudSettingOf(inputs: NonNullable<ReturnType<typeof earlyTokenInputs>>, environ: NodeJS.ProcessEnv, cwd: string, home: string): Promise<string | undefined> {
  const [{ resolveSettingsDir }, { loadSettings }] = await Promise.all([import('../lib/settings/dirs.js'), import('../lib/settings/load.js')]);
  const isDir = (p: string) => statSync(p, { throwIfNoEntry: false })?.isDirectory() ?? false;
  const settingsDir = resolveSettingsDir({ flag: inputs.settingsFlag, environ, cwd, home, isDir }).dir;
  return loadSettings({ settingsDir, env: inputs.env, cluster: inputs.cluster, environ, sets: inputs.sets, cwd }).values.cloud || undefined;
}
