import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { SettingsError, UsageError } from '../errors.js';
import type { Logger } from '../log.js';
import { parseSettingsFile } from '../settings/file.js';
import { readTextCapped } from '../fs/read-capped.js';
import { MAX_YAML_BYTES } from '../fs/yaml-read.js';
import { importCloudConf, readIni } from './cloudconf.js';
import { importClusterctl, readClusterctl } from './clusterctl.js';
import { ImportCollector } from './convert.js';
import { importHarbor, readShellVars } from './harbor.js';
import { pinScsEdgeDefaults, pinScsIngress } from './ingress.js';
import { importTfvars, readTfvars } from './tfvars.js';
import { readRegistryFiles } from './registry-read.js';
import type { RegistryFileRead } from './registry.js';
import { checkScsFileKind, restrictNeedsMgmtHost } from './kind.js';
import { BUNDLED_INGRESS_VERSIONS, findBundled } from '../plan/ingress-versions.js';
import { reportText, type ImportReport } from './report.js';
import { writeFileAtomic } from '../fs/atomic.js';
import { withFsErrors } from '../fs/errors.js';
import { withFileLock } from '../fs/lock.js';
import { onInterrupt, type InterruptDeps } from './interrupt.js';
import { mergeClusterSection } from './write.js';
import { checkEnvName, displayPath, settingsFilePath } from '../settings/load.js';
import { SETTINGS } from '../settings/table.js';
import { CLUSTER_NAME_RULE, isClusterName } from '../settings/cluster-name.js';
import { hiddenNote, visibleName } from '../visible.js';

/** `kaas settings import`: which SCS files to read and where the result goes. */
export interface ImportOptions {
  clusterctlFile: string;
  cloudConfFile?: string;
  harborSettingsFile?: string;
  /** The SCS environment tfvars (terraform/environments/environment-<cloud>.tfvars). */
  tfvarsFile?: string;
  cluster: string;
  settingsDir: string;
  env: string;
  cwd: string;
  dryRun: boolean;
  /** Replace an existing, different `clusters.<cluster>` section. */
  force?: boolean;
}

/** What importScs reports on. */
export interface ImportDeps extends InterruptDeps {
  logger: Logger;
}

/** The texts of the SCS files, each with the name used in messages. */
export interface ScsInputs {
  clusterctl: { text: string; file: string };
  cloudConf?: { text: string; file: string };
  harborSettings?: { text: string; file: string };
  tfvars?: { text: string; file: string };
  /** The files containerd_registry_files names, as read (key: the path as the tfvars write it). */
  registryFiles?: ReadonlyMap<string, RegistryFileRead>;
}

/** Pure conversion of SCS files into one cluster's settings, with everything dropped and why. */
export function convertScs(inputs: ScsInputs): ImportCollector {
  const c = new ImportCollector();
  // Each file's read problems are kept before what is read from it is imported.
  const read = <R extends { problems: string[] }>(r: R): R => (c.problems.push(...r.problems), r);
  importClusterctl(read(readClusterctl(inputs.clusterctl.text, inputs.clusterctl.file)).raws, c);
  if (inputs.cloudConf) importCloudConf(read(readIni(inputs.cloudConf.text, inputs.cloudConf.file)).entries, c);
  if (inputs.harborSettings) importHarbor(read(readShellVars(inputs.harborSettings.text, inputs.harborSettings.file)).raws, c);
  if (inputs.tfvars) importTfvars(read(readTfvars(inputs.tfvars.text, inputs.tfvars.file)).raws, c, inputs.registryFiles);
  pinScsEdgeDefaults(c);
  pinScsIngress(c);
  const pinned = c.values.deploy_nginx_ingress;
  if (typeof pinned === 'string' && !findBundled(pinned)) {
    // Valid as a setting, but apply-ingress would refuse it: say so now, not at apply time.
    c.notes.push(`deploy_nginx_ingress ${pinned} is not bundled with kaas (bundled: ${BUNDLED_INGRESS_VERSIONS.map((b) => b.version).join(', ')}); apply-ingress will refuse it: set true (the bundled release matching kubernetes_version) or a bundled version`);
  }
  return c;
}

/**
 * Where the SCS scripts keep a cluster, so that create-cluster converges on it and delete-cluster
 * finds it: its own namespace on the management cluster (mng_cluster_ns.inc) and the workload
 * kubeconfig at ~/<cluster>/<cluster>.yaml. The object names need no setting: create-cluster
 * follows the live Cluster's references, and keeps a live machine template whose content matches.
 */
export function recordScsLayout(c: ImportCollector, cluster: string): void {
  c.set('namespace', cluster, 'SCS layout (one namespace per cluster, mng_cluster_ns.inc)');
  c.set('workload_kubeconfig', `~/${cluster}/${cluster}.yaml`, 'SCS layout (KUBECONFIG_WORKLOADCLUSTER)');
}

function readInput(file: string | undefined, cwd: string, flag: string) {
  if (file === undefined) return undefined;
  const abs = path.resolve(cwd, file);
  if (!existsSync(abs)) throw new UsageError(`${flag} ${file}: no such file`, { hint: 'give the path of the SCS file (e.g. ~/<cluster>/clusterctl.yaml)' });
  return { text: readTextCapped(abs, { shown: `${flag} ${file}`, maxBytes: MAX_YAML_BYTES, expect: 'an SCS clusterctl.yaml, cloud.conf or tfvars file is a few KiB' }), file: displayPath(abs, cwd) };
}

/**
 * Imports an SCS cluster into `<settings-dir>/<env>.yaml` as `clusters.<cluster>`. Every value is
 * checked and the whole resulting file validated before anything is written; the file is
 * written atomically, or printed with `dryRun`. Secrets are never copied or printed.
 */
export async function importScs(opts: ImportOptions, deps: ImportDeps): Promise<{ data: unknown; text: string }> {
  checkEnvName(opts.env);
  const shown = displayPath(settingsFilePath(opts.settingsDir, opts.env, opts.cwd), opts.cwd);
  const state = { written: false };
  const interrupt = onInterrupt((sig) => `settings import interrupted by ${sig}: ${opts.dryRun ? 'nothing was written' : state.written ? `${shown} had been written in full` : `${shown} was not changed`}`, deps);
  try {
    return await importInto(opts, deps, state, interrupt);
  } finally {
    interrupt.release();
  }
}

async function importInto(opts: ImportOptions, deps: ImportDeps, state: { written: boolean }, interrupt: Pick<ReturnType<typeof onInterrupt>, 'hold' | 'interrupted'>): Promise<{ data: unknown; text: string }> {
  if (!isClusterName(opts.cluster)) throw new UsageError(`--cluster ${visibleName(opts.cluster)}: ${CLUSTER_NAME_RULE}${hiddenNote(opts.cluster)}`);
  const inputs: ScsInputs = {
    clusterctl: readInput(opts.clusterctlFile, opts.cwd, 'clusterctl.yaml')!,
    cloudConf: readInput(opts.cloudConfFile, opts.cwd, '--cloud-conf'),
    harborSettings: readInput(opts.harborSettingsFile, opts.cwd, '--harbor-settings'),
    tfvars: readInput(opts.tfvarsFile, opts.cwd, '--tfvars'),
  };
  if (inputs.tfvars && opts.tfvarsFile) inputs.registryFiles = readRegistryFiles(inputs.tfvars.text, path.resolve(opts.cwd, opts.tfvarsFile), opts.cwd);
  // A cluster template or a tfvars file given as the clusterctl.yaml (and the like) is named, not parsed.
  checkScsFileKind(inputs.clusterctl.text, inputs.clusterctl.file, 'clusterctl.yaml', 'clusterctl.yaml');
  if (inputs.tfvars) checkScsFileKind(inputs.tfvars.text, inputs.tfvars.file, '--tfvars', 'tfvars');
  if (inputs.cloudConf) checkScsFileKind(inputs.cloudConf.text, inputs.cloudConf.file, '--cloud-conf', 'cloud.conf');
  const c = convertScs(inputs);
  recordScsLayout(c, opts.cluster);
  const hint = 'fix the SCS file (or the environment file) and import again; nothing was written';
  if (c.problems.length) throw new SettingsError(`cannot import ${inputs.clusterctl.file} (${c.problems.length} problem${c.problems.length > 1 ? 's' : ''})`, c.problems, hint);

  const section = Object.fromEntries(SETTINGS.filter((d) => d.key in c.values).map((d) => [d.key, c.values[d.key]]));
  const file = settingsFilePath(opts.settingsDir, opts.env, opts.cwd);
  const shown = displayPath(file, opts.cwd);
  // Read, merge and write under the file's lock: two imports at once both land, none is lost.
  const merge = () => {
    // A Ctrl-C during the read and parse is seen only once the lock is asked for: then do nothing more.
    if (interrupt.interrupted()) throw new UsageError(`interrupted; ${shown} was not changed`);
    const existing = existsSync(file) ? readTextCapped(file, { maxBytes: MAX_YAML_BYTES, expect: 'a settings file is a few KiB' }) : undefined;
    if (existing !== undefined) {
      const before = parseSettingsFile(existing, shown);
      if (before.problems.length) throw new SettingsError(`${shown} is invalid; fix it before importing into it`, before.problems, 'kaas settings validate --env ' + opts.env);
    }
    const merged = mergeClusterSection(existing, opts.cluster, section, {
      force: opts.force ?? false,
      comment: ` imported from ${inputs.clusterctl.file} by kaas settings import`,
      header: ` kaas environment "${opts.env}" (created by kaas settings import)\n Layers, lowest first: defaults < this file < clusters.<name> < KAAS_<KEY> env vars < --set flags.`,
    });
    if ('conflict' in merged) {
      throw new UsageError(`${shown}: ${merged.conflict}; nothing was written`, { hint: 'use --force to replace it, or import under another --cluster name' });
    }
    const after = parseSettingsFile(merged.text, shown);
    if (after.problems.length) throw new SettingsError(`the imported ${shown} would be invalid`, after.problems, hint);
    for (const w of c.warnings) deps.logger.warn(w);
    const mgmtWarning = restrictNeedsMgmtHost(opts.cluster, after.environment, after.clusters.get(opts.cluster));
    if (mgmtWarning) deps.logger.warn(mgmtWarning);

    if (!opts.dryRun && merged.status !== 'unchanged') {
      writeFileAtomic(file, merged.text);
      state.written = true;
    }
    return merged;
  };
  // A signal while the lock is asked for, held or released ends kaas only once it is released (interrupt.ts).
  const merged = opts.dryRun ? merge() : await interrupt.hold(() => withFileLock(file, merge, { onStale: (m) => deps.logger.warn(m) }));
  const write = !opts.dryRun && merged.status !== 'unchanged';
  const report: ImportReport = {
    env: opts.env,
    file,
    cluster: opts.cluster,
    status: merged.status,
    written: write,
    imported: Object.keys(section).map((key) => ({ key, value: section[key], from: c.sources[key as keyof typeof c.sources] ?? '' })),
    conversions: c.conversions,
    dropped: c.dropped,
    notes: [...c.notes, ...c.warnings],
  };
  const text = reportText(report, shown, opts.dryRun);
  if (opts.dryRun) {
    text.split('\n').forEach((l) => deps.logger.info(l));
    return { data: { ...report, content: merged.text }, text: merged.text };
  }
  return { data: report, text };
}
