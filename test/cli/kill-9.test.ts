import fs from 'node:fs';
import path from 'node:path';
import { runKaas, tempDir } from '../support/cli.js';
import { killedRun } from '../support/killed-run.js';

/**
 * kill -9 at the worst moments, for real: the built kaas runs in its own process, is stopped at an
 * exact file-system call (test/support/pause-at.ts) and SIGKILLed there; then the next run must find
 * no torn state, clean up what the killed run left, and not wait for a lock nobody holds (issue 23).
 */

const read = (dir: string) => Object.fromEntries(fs.readdirSync(dir).filter((n) => !n.startsWith('.')).sort().map((n) => [n, fs.readFileSync(path.join(dir, n), 'utf8')]));
const hidden = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith('.')).sort();
const create = (out: string, workers: number) => ['create-cluster', 'demo', '--env', 'example', '--dry-run', '--output-dir', out, '--set', `worker_count=${workers}`];

describe('--output-dir after a kill -9: the old set or the new set, never a mix', () => {
  it('killed while writing the new set: every file is still the old one; the next run leaves the whole new set and nothing of the killed run', async () => {
    const out = tempDir('kaas-out-');
    expect(runKaas(create(out, 2)).code).toBe(0);
    const before = read(out);
    // The 5th fsync: files of the new set are written, some of them would already be in place file by file.
    await killedRun(create(out, 3), 'fsyncSync:5');
    expect(read(out)).toEqual(before);
    const r = runKaas(create(out, 3));
    expect(r.code).toBe(0);
    const after = read(out);
    expect(after['cluster.yaml']).toContain('replicas: 3');
    expect(Object.keys(after)).toEqual(Object.keys(before));
    expect(hidden(out)).toEqual(['.kaas-output.manifest']);
    expect(fs.statSync(path.join(out, 'cloud.conf')).mode & 0o777).toBe(0o600);
  });

  it('killed while moving the committed set into place: the next run completes it first, and says so', async () => {
    const out = tempDir('kaas-out-');
    expect(runKaas(create(out, 2)).code).toBe(0);
    await killedRun(create(out, 3), 'renameSync:3:.kaas-output.commit/files');
    expect(hidden(out)).toContain('.kaas-output.commit');
    // Another command's run into the same directory finishes the killed one's set before writing its own.
    const r = runKaas(['apply-ingress', 'demo', '--env', 'example', '--dry-run', '--output-dir', out, '--capabilities', 'test/fixtures/ingress/capabilities-ovn-wallaby.json']);
    expect(r.stderr).toContain(`${out}: completing the set of files a kaas run killed while moving them into place had written`);
    expect(r.code).toBe(0);
    expect(read(out)['cluster.yaml']).toContain('replicas: 3');
    expect(hidden(out)).toEqual(['.kaas-output.manifest']);
  });
});

describe('temporary files and locks of a killed run', () => {
  it('settings init killed between writing its temporary file and renaming it: the next run removes the temporary file', async () => {
    const dir = tempDir('kaas-settings-');
    await killedRun(['settings', 'init', '--env', 'lab', '--settings-dir', dir], 'renameSync:1:lab.yaml');
    expect(fs.readdirSync(dir).filter((n) => n.endsWith('.tmp'))).toHaveLength(1);
    expect(runKaas(['settings', 'init', '--env', 'lab', '--settings-dir', dir]).code).toBe(0);
    expect(fs.readdirSync(dir)).toEqual(['lab.yaml']);
  });

  it('settings import killed while holding the file\'s lock: the next import takes the lock at once, says so, and leaves no lock or temporary file', async () => {
    const dir = tempDir('kaas-settings-');
    const args = (c: string) => ['settings', 'import', 'test/fixtures/scs/clusterctl.yaml', '--cluster', c, '--env', 'prod', '--settings-dir', dir];
    const { pid } = await killedRun(args('alpha'), 'renameSync:1:prod.yaml');
    expect(fs.readdirSync(dir).sort()).toEqual(expect.arrayContaining(['prod.yaml.lock']));
    const r = runKaas(args('bravo'));
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(`removed the lock ${path.join(dir, 'prod.yaml.lock')}, left by a kaas run (pid ${pid}) that no longer runs`);
    expect(fs.readdirSync(dir)).toEqual(['prod.yaml']);
  });
});
