import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { missingClusterVerdict, mutatingRunMode, type MissingClusterMode } from '../../../lib/settings/cluster-section.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { tempDir } from '../../support/temp.js';

/** Issue 31 §3, newcomer M10: a typo in the cluster name must not build a cluster from the environment level alone. */
describe('a cluster name outside the clusters: map', () => {
  const known = ['demo', 'prod1'];

  it.each<[string, string, readonly string[], MissingClusterMode, 'nothing' | 'warning' | 'refusal', RegExp | undefined]>([
    ['a listed cluster: nothing to say, whatever the mode', 'demo', known, 'refuse', 'nothing', undefined],
    ['a real run of a mutating command: refused with a did-you-mean', 'dmo', known, 'refuse', 'refusal',
      /^not running on cluster dmo: example\.yaml has no clusters\.dmo section \(it has: demo, prod1\); did you mean demo\?$/],
    ['a dry run: the same did-you-mean as a warning', 'prod', known, 'warn', 'warning',
      /^example\.yaml has no clusters\.prod section \(it has: demo, prod1\); using the environment-level settings \(a real create-cluster, apply-ingress or apply-gateway refuses it without --new-cluster\); did you mean prod1\?$/],
    ['--new-cluster: accepted silently', 'staging', known, 'accept', 'nothing', undefined],
    ['no near name: refused without a guess', 'staging', known, 'refuse', 'refusal', /^not running on cluster staging: example\.yaml has no clusters\.staging section \(it has: demo, prod1\)$/],
    ['a file without cluster sections: only the old warning, even for a real run', 'dmo', [], 'refuse', 'warning',
      /^example\.yaml has no clusters\.dmo section; using the environment-level settings$/],
  ])('%s', (_what, cluster, sections, mode, outcome, text) => {
    const v = missingClusterVerdict(cluster, sections, 'example.yaml', mode);
    expect(v.refusal ? 'refusal' : v.warning ? 'warning' : 'nothing').toBe(outcome);
    if (text) expect(v.refusal?.message ?? v.warning).toMatch(text);
  });

  it('the refusal is exit 2 and its hint names the three ways out', () => {
    const { refusal } = missingClusterVerdict('dmo', known, 'example.yaml', 'refuse');
    expect(refusal).toBeInstanceOf(UsageError);
    expect(refusal!.exitCode).toBe(2);
    expect(refusal!.hint).toBe('fix the name, add a clusters.dmo section to example.yaml, or pass --new-cluster if dmo is a new cluster made from the environment-level settings');
  });

  it.each([
    [{ dryRun: false }, 'refuse'],
    [{ dryRun: true }, 'warn'],
    [{ dryRun: false, newCluster: true }, 'accept'],
    [{ dryRun: true, newCluster: true }, 'accept'],
    [{}, 'refuse'],
  ])('a mutating command with %j: %s', (o, mode) => {
    expect(mutatingRunMode(o)).toBe(mode);
  });

  it('loadSettings refuses (exit 2) or warns as asked, and applies a listed cluster either way', () => {
    const dir = tempDir('kaas-cluster-section-');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'e.yaml'), 'worker_count: 3\nclusters:\n  demo:\n    worker_count: 2\n');
    const load = (cluster: string, missingCluster?: MissingClusterMode) => loadSettings({ settingsDir: dir, env: 'e', cluster, environ: {}, missingCluster });
    expect(() => load('dmo', 'refuse')).toThrow(/^not running on cluster dmo: e\.yaml has no clusters\.dmo section \(it has: demo\); did you mean demo\?$/);
    expect(load('dmo').warnings).toEqual([expect.stringMatching(/^e\.yaml has no clusters\.dmo section .*; did you mean demo\?$/)]);
    expect(load('dmo', 'accept').warnings).toEqual([]);
    expect(load('dmo', 'accept').values.worker_count).toBe(3);
    expect(load('demo', 'refuse').values.worker_count).toBe(2);
  });
});
