import fs from 'node:fs';
import path from 'node:path';
import { closeRunTempDir, FILE_DIR_PREFIX, RUN_DIR_VAR } from '../../support/temp-check.js';
import { removeTempDirs, tempDir } from '../../support/temp.js';

describe('the temp-dir check of a test run', () => {
  it('reports what a test file left under the file\'s own dir, and what else was left, then removes the run dir', () => {
    const run = tempDir('run-');
    fs.mkdirSync(path.join(run, `${FILE_DIR_PREFIX}unit_cluster_cli-abc123`, 'kaas-home-x1y2z3'), { recursive: true });
    fs.mkdirSync(path.join(run, `${FILE_DIR_PREFIX}unit_fs_atomic-def456`));
    fs.writeFileSync(path.join(run, 'kaas-stray'), '');
    process.env[RUN_DIR_VAR] = run;
    expect(closeRunTempDir()).toEqual(['kaas-stray', `${FILE_DIR_PREFIX}unit_cluster_cli-abc123/kaas-home-x1y2z3`, `${FILE_DIR_PREFIX}unit_fs_atomic-def456`]);
    expect(fs.existsSync(run)).toBe(false);
    expect(process.env[RUN_DIR_VAR]).toBeUndefined();
  });

  it('reports nothing when the tests left nothing', () => {
    const run = tempDir('run-');
    process.env[RUN_DIR_VAR] = run;
    expect(closeRunTempDir()).toEqual([]);
    expect(fs.existsSync(run)).toBe(false);
  });

  it('is a no-op in a run without its own temp dir', () => {
    delete process.env[RUN_DIR_VAR];
    expect(closeRunTempDir()).toEqual([]);
  });
});

describe('tempDir', () => {
  it('names its directories kaas-… and removeTempDirs removes them with their contents', () => {
    const a = tempDir('home-');
    const b = tempDir('kaas-settings-');
    fs.mkdirSync(path.join(a, 'sub'));
    fs.writeFileSync(path.join(a, 'sub', 'f'), 'x');
    expect([path.basename(a), path.basename(b)]).toEqual([expect.stringMatching(/^kaas-home-\w{6}$/), expect.stringMatching(/^kaas-settings-\w{6}$/)]);
    removeTempDirs();
    expect([fs.existsSync(a), fs.existsSync(b)]).toEqual([false, false]);
  });
});
