import { createProcessRunner } from '../../../lib/exec/runner.js';
import { fakeManagementCluster, fakeRunner, type FakeManagementCluster } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';
import path from 'node:path';

/**
 * kaas runs kubectl calls in parallel (readLive's Promise.all), and each call of the management-cluster
 * fake reads, changes and writes its whole state file. CI on 2026-11-27 failed on a reader that saw a
 * half-written state ("Unexpected end of JSON input"); two writers could also lose each other's change.
 * The fake now takes a lock per state file and writes through a renamed temporary file.
 */
describe('the management-cluster fake under parallel calls', () => {
  let mgmt: FakeManagementCluster;
  let kubeconfig: string;
  beforeEach(() => {
    kubeconfig = path.join(tempDir('kaas-fake-par-'), 'mgmt.kubeconfig');
    mgmt = fakeManagementCluster(kubeconfig, { installed: 'bare' });
  });
  afterEach(() => mgmt.cleanup());

  it('keeps every change of 12 parallel applies and answers every parallel read', async () => {
    const runner = fakeRunner(mgmt, createProcessRunner());
    const cm = (i: number) => JSON.stringify({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: `cm-${i}`, namespace: 'default' }, data: { i: String(i) } });
    const applies = Array.from({ length: 12 }, (_, i) =>
      runner.run('kubectl', ['--kubeconfig', kubeconfig, 'apply', '--server-side', '-f', '-'], { input: cm(i), reject: false }),
    );
    const reads = Array.from({ length: 12 }, () =>
      runner.run('kubectl', ['--kubeconfig', kubeconfig, 'get', 'configmaps', '-n', 'default', '-o', 'json'], { reject: false }),
    );
    const results = await Promise.all([...applies, ...reads]);
    expect(results.map((r) => [r.exitCode, r.stderr])).toEqual(results.map(() => [0, '']));
    const names = Object.keys(mgmt.objects()).filter((k) => k.startsWith('ConfigMap/default/cm-')).sort();
    expect(names).toEqual(Array.from({ length: 12 }, (_, i) => `ConfigMap/default/cm-${i}`).sort());
  }, 300_000);
});
