import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { cleanEnv, KAAS, ROOT, runKaas, tempDir } from '../support/cli.js';

/**
 * Ctrl-C (SIGINT) or SIGTERM during `kaas settings import` (issue 31, section 5): the built kaas is held
 * for a moment at an exact file-system call (test/support/pause-at.ts with KAAS_TEST_PAUSE_MS) while the
 * signal arrives, as it would during a long parse. It must exit 130/143 with one line saying whether
 * the settings file was left as it was or written in full — never a truncated file, a temporary file
 * or a lock left behind — and an input above the 1 MiB bound is refused before it is parsed.
 */

const PRELOAD = path.join(ROOT, 'dist', 'test', 'support', 'pause-at.js');
const EXISTING = '# prod, by hand\nclusters:\n  alpha:\n    worker_count: 2\n';

/** Runs the import held at `pause` for 3 s, sends `sig` while it is held; resolves with how it ended. */
function interruptedImport(args: string[], pause: string, sig: NodeJS.Signals): Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ['--import', PRELOAD, KAAS, ...args], { cwd: ROOT, env: cleanEnv({ KAAS_TEST_PAUSE: pause, KAAS_TEST_PAUSE_MS: '3000' }), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && stderr.includes('PAUSED ')) {
        sent = true;
        child.kill(sig);
      }
    });
    child.on('close', (code, signal) => resolve({ code, signal, stderr }));
  });
}

describe('settings import on SIGINT/SIGTERM and on a huge input', () => {
  const setup = () => {
    const dir = tempDir('kaas-settings-');
    fs.writeFileSync(path.join(dir, 'prod.yaml'), EXISTING);
    const input = path.join(dir, 'scs-clusterctl.yaml');
    fs.copyFileSync(path.join(ROOT, 'test/fixtures/scs/clusterctl.yaml'), input);
    return { dir, input, args: ['settings', 'import', input, '--cluster', 'beta', '--env', 'prod', '--settings-dir', dir] };
  };
  const leftovers = (dir: string) => fs.readdirSync(dir).filter((n) => n.endsWith('.tmp') || n.endsWith('.lock'));

  it('SIGINT while the input is being read and parsed: exit 130, one line saying the file was not changed, the file byte for byte as before', async () => {
    const { dir, args } = setup();
    const r = await interruptedImport(args, 'openSync:1:scs-clusterctl.yaml', 'SIGINT');
    expect([r.code, r.signal]).toEqual([130, null]);
    expect(r.stderr.split('\n').filter((l) => l && !l.startsWith('PAUSED '))).toEqual([`warning: settings import interrupted by SIGINT: ${path.join(dir, 'prod.yaml')} was not changed`]);
    expect(fs.readFileSync(path.join(dir, 'prod.yaml'), 'utf8')).toBe(EXISTING);
    expect(leftovers(dir)).toEqual([]);
  });

  it('SIGTERM between writing the temporary file and renaming it: the rename completes, exit 143, and the line says the file was written in full', async () => {
    const { dir, args } = setup();
    const r = await interruptedImport(args, 'renameSync:1:prod.yaml', 'SIGTERM');
    expect([r.code, r.signal]).toEqual([143, null]);
    expect(r.stderr).toContain(`warning: settings import interrupted by SIGTERM: ${path.join(dir, 'prod.yaml')} had been written in full`);
    const after = fs.readFileSync(path.join(dir, 'prod.yaml'), 'utf8');
    expect(after.startsWith(EXISTING.trimEnd().split('\n').slice(0, 2).join('\n'))).toBe(true);
    expect(after).toMatch(/\n {2}beta:\n/);
    expect(runKaas(['settings', 'validate', '--env', 'prod', '--settings-dir', dir]).code).toBe(0);
    expect(leftovers(dir)).toEqual([]);
  });

  it('an input above 1 MiB is refused before parsing (exit 2, naming the bound), the settings file untouched', () => {
    const { dir, input, args } = setup();
    fs.writeFileSync(input, Array.from({ length: 60_000 }, (_, i) => `KEY_${i}: "${'v'.repeat(12)}"`).join('\n') + '\n');
    const t0 = Date.now();
    const r = runKaas(args);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/has \d+ bytes; kaas reads at most 1048576 \(1 MiB\)/);
    expect(Date.now() - t0).toBeLessThan(10_000);
    expect(fs.readFileSync(path.join(dir, 'prod.yaml'), 'utf8')).toBe(EXISTING);
  });
});
