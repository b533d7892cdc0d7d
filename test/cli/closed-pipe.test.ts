import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { cleanEnv, KAAS, ROOT } from '../support/cli.js';

/** A reader that stops early (`kaas … | head`) is no error of kaas: no stack trace, exit 0. */
describe('stdout closed early', () => {
  it.each([['apply-gateway'], ['apply-ingress']])('kaas %s --dry-run | head -c 1 ends quietly', (cmd) => {
    const script = `"${process.execPath}" "${KAAS}" ${cmd} demo --env example --settings-dir "${path.join(ROOT, 'settings')}" --dry-run | head -c 1 >/dev/null; echo "\${PIPESTATUS[0]}"`;
    const r = spawnSync('bash', ['-c', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /);
    expect(r.stdout.trim()).toBe('0');
  }, 60_000);
});

/** Issue 31, section 5: stdout on a full device gave a stack trace; now one clear error line, exit 1. */
describe('stdout on a full device', () => {
  it('kaas apply-ingress --dry-run > /dev/full: "cannot write the output to stdout: ENOSPC", a hint, exit 1, no stack trace', () => {
    const script = `"${process.execPath}" "${KAAS}" apply-ingress demo --env example --settings-dir "${path.join(ROOT, 'settings')}" --dry-run >/dev/full`;
    const r = spawnSync('bash', ['-c', script], { cwd: ROOT, env: cleanEnv(), encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.stderr).toMatch(/^error: cannot write the output to stdout: ENOSPC/m);
    expect(r.stderr).toMatch(/^hint: the device stdout goes to is full/m);
    expect(r.status).toBe(1);
  }, 60_000);
});
