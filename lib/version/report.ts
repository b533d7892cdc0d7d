import { inExecutable } from '../assets.js';
import { buildInfo, type BuildInfo } from './build-info.js';
import { componentVersions, type ComponentVersions } from './components.js';

/** `kaas version -o json`: this kaas and every component version it bundles or is tested with. */
export interface VersionReport {
  kaas: Omit<BuildInfo, 'commit' | 'dirty'> & {
    /** The commit kaas was built from; null where no build recorded one (a checkout's tsc-built tree). */
    commit: string | null;
    dirty: boolean | null;
    /** The Node.js that runs kaas (the one inside the single-file executable, for it). */
    node: string;
    /** Runs as the single-file executable (`npm run release`), not from the npm package or a checkout. */
    executable: boolean;
  };
  components: ComponentVersions[];
}

/** The report for this run of kaas. */
export function versionReport(): VersionReport {
  const b = buildInfo();
  return { kaas: { version: b.version, commit: b.commit ?? null, dirty: b.dirty ?? null, node: process.version, executable: inExecutable() }, components: componentVersions() };
}

/** The text form: kaas's line, then one aligned line per component, management cluster first. */
export function versionText(r: VersionReport): string {
  const k = r.kaas;
  const commit = k.commit ? `commit ${k.commit.slice(0, 12)}${k.dirty ? ' (with uncommitted changes)' : ''}` : 'commit unknown (not a build)';
  const lines = [`kaas ${k.version}, ${commit}, Node.js ${k.node}${k.executable ? ', single-file executable' : ''}`];
  const width = Math.max(...r.components.map((c) => c.name.length));
  const vwidth = Math.max(...r.components.map((c) => c.versions.join(', ').length));
  for (const cluster of ['management', 'workload'] as const) {
    lines.push('', cluster === 'management' ? 'management cluster (tested with):' : 'workload cluster (deployed by kaas):');
    for (const c of r.components.filter((x) => x.cluster === cluster)) {
      lines.push(`  ${c.name.padEnd(width)}  ${c.versions.join(', ').padEnd(vwidth)}  ${c.note}`);
    }
  }
  return `${lines.join('\n')}\n`;
}
