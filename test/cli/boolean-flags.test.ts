import { existsSync } from 'node:fs';
import path from 'node:path';
import { runKaas, tempDir } from '../support/cli.js';

/** Issue 23, item 1: yargs read `--dry-run=yes` as false and the real operation ran, silently. */
describe('yes/no flags with a value (built CLI)', () => {
  it('settings init --dry-run=yes writes nothing and exits 2 (it used to write the file)', () => {
    const dir = tempDir();
    const r = runKaas(['settings', 'init', '--dry-run=yes', '--settings-dir', dir]);
    expect(r.stderr).toContain('--dry-run=yes: a yes/no flag takes no value, or exactly =true or =false');
    expect(r.stderr).toMatch(/^hint: .*nothing was done/m);
    expect(r.code).toBe(2);
    expect(existsSync(path.join(dir, 'default.yaml'))).toBe(false);
  });

  it.each([
    [['delete-cluster', 'demo', '--dry-run=yes', '--yes'], '--dry-run=yes'],
    [['delete-cluster', 'demo', '--dry-run=1', '--yes'], '--dry-run=1'],
    [['apply-ingress', 'demo', '--dry-run=maybe'], '--dry-run=maybe'],
    [['delete-cluster', 'demo', '--dryRun=yes', '-y'], '--dryRun=yes'],
    [['delete-cluster', 'demo', '--dry-run', '-y=on'], '-y=on'],
    [['delete-cluster', 'demo', '--dry-run', '--no-dry-run', '--yes'], '--dry-run and --no-dry-run contradict each other'],
  ])('kaas %j stops before anything happens: %s', (args, said) => {
    const r = runKaas(args, { env: { KAAS_SETTINGS_DIR: tempDir() } });
    expect(r.stderr).toContain(said);
    expect(r.code).toBe(2);
  });

  it('=true and =false still work as the bare flag and --no-flag do', () => {
    const dir = tempDir();
    expect(runKaas(['settings', 'init', '--dry-run=true', '--settings-dir', dir]).code).toBe(0);
    expect(existsSync(path.join(dir, 'default.yaml'))).toBe(false);
    expect(runKaas(['settings', 'init', '--dry-run=false', '--settings-dir', dir]).code).toBe(0);
    expect(existsSync(path.join(dir, 'default.yaml'))).toBe(true);
  });
});
