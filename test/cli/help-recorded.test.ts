import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KAAS, ROOT, runKaas, tempDir } from '../support/cli.js';
import { runKaasOnTty } from '../support/pty.js';

/**
 * `kaas --help` is printed from the text the build recorded from yargs (dist/bundle/data/help.txt),
 * when the run would print exactly that; otherwise yargs prints it.
 */
describe('kaas --help from the recording of the build', () => {
  const recording = path.join(path.dirname(KAAS), 'data', 'help.txt');

  it('the recording is what yargs prints for kaas --help', () => {
    // A second flag keeps the run on the yargs path; it does not change the help text.
    const viaYargs = runKaas(['--help', '--quiet']);
    expect(viaYargs.code).toBe(0);
    expect(viaYargs.stdout).toContain('Usage: kaas <command> [options]');
    expect(readFileSync(recording, 'utf8')).toBe(viaYargs.stdout);
  });

  it.each([['--help'], ['-h']])('kaas %s prints it byte for byte, exit 0', (flag) => {
    const r = runKaas([flag]);
    expect(r.code).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toBe(readFileSync(recording, 'utf8'));
  });

  describe('in a copy of the bundle whose recording is marked', () => {
    let dir: string;
    let entry: string;
    const MARK = 'RECORDED HELP\n';

    beforeAll(() => {
      dir = tempDir('kaas-help-');
      // A package of its own: kaas's package.json (kaas finds its version there) and the bundle as hard
      // links (fast; the marked file is a new one, so the real bundle is left alone).
      copyFileSync(path.join(ROOT, 'package.json'), path.join(dir, 'package.json'));
      mkdirSync(path.join(dir, 'dist'));
      execFileSync('cp', ['-al', path.dirname(KAAS), path.join(dir, 'dist', 'bundle')]);
      entry = path.join(dir, 'dist', 'bundle', 'kaas.js');
      unlinkSync(path.join(dir, 'dist', 'bundle', 'data', 'help.txt'));
      writeFileSync(path.join(dir, 'dist', 'bundle', 'data', 'help.txt'), MARK);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it('plain kaas --help, piped or on a wide terminal, prints the recording', () => {
      expect(runKaas(['--help'], { entry }).stdout).toBe(MARK);
      expect(runKaasOnTty(['--help'], { entry, columns: 120 }).stdout.replace(/\r/g, '')).toBe(MARK);
    });

    it('other flags, another KAAS_ENV or a terminal under 80 columns go through yargs', () => {
      expect(runKaas(['--help', '--verbose'], { entry }).stdout).toContain('Usage: kaas');
      const env = runKaas(['--help'], { entry, env: { KAAS_ENV: 'prod' } });
      expect(env.stdout).toContain('[default: "prod"]');
      const narrow = runKaasOnTty(['--help'], { entry, columns: 60 }).stdout.replace(/\r/g, '');
      expect(narrow).toContain('Usage: kaas');
      expect(Math.max(...narrow.split('\n').map((l) => l.length))).toBeLessThanOrEqual(60);
    });

    it('without a recording (as in the tsc-built tree) yargs prints the help', () => {
      unlinkSync(path.join(dir, 'dist', 'bundle', 'data', 'help.txt'));
      const r = runKaas(['--help'], { entry });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(readFileSync(recording, 'utf8'));
    });
  });
});
