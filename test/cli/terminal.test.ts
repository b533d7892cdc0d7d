import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { spinnerAllowed } from '../../lib/log.js';
import { cleanEnv, KAAS, ROOT, tempDir } from '../support/cli.js';

/**
 * Issue 23, terminal: on a pty of 0 columns (docker run -t, ssh -tt) the spinner redrew for ever and
 * ignored Ctrl-C; under `timeout N kaas …` from a terminal its stdin handling (raw mode) stopped the
 * process with SIGTTOU. The spinner shows only on a sized terminal and never touches stdin.
 */

const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;

/** A Keystone that accepts connections and never answers. */
let server: net.Server;
let clouds = '';
const sockets = new Set<net.Socket>();
beforeAll(async () => {
  server = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  clouds = path.join(tempDir('kaas-tty-'), 'clouds.yaml');
  fs.writeFileSync(clouds, `clouds:\n  c:\n    auth: {auth_url: "http://127.0.0.1:${(server.address() as net.AddressInfo).port}/v3", username: u, password: p, project_name: p, user_domain_name: D, project_domain_name: D}\n`);
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise((r) => server.close(r));
});

/**
 * Runs `shell` (with $KAAS the CLI) on a pseudo-terminal of `cols` columns; `onOutput` may type on it.
 * Resolves with the exit code, what the terminal showed and how long it took.
 */
function onPty(shell: string, cols: number, onOutput?: (seen: string, type: (s: string) => void) => void): Promise<{ code: number | null; shown: string; ms: number }> {
  const t0 = Date.now();
  const cmd = `stty cols ${cols} rows 40; ${shell}`;
  const child = spawn('script', ['-qec', cmd, '/dev/null'], { cwd: ROOT, env: { ...cleanEnv({ OS_CLIENT_CONFIG_FILE: clouds }), TERM: 'xterm', KAAS: `${process.execPath} ${KAAS}` }, stdio: ['pipe', 'pipe', 'ignore'] });
  let shown = '';
  const killer = setTimeout(() => child.kill('SIGKILL'), 45_000);
  child.stdout.on('data', (d: Buffer) => {
    shown += d.toString();
    onOutput?.(shown, (s) => child.stdin.write(s));
  });
  return new Promise((resolve) =>
    child.on('close', (code) => {
      clearTimeout(killer);
      resolve({ code, shown, ms: Date.now() - t0 });
    }),
  );
}

const HIDE_CURSOR = '\x1b[?25l';

describe('progress on terminals', () => {
  it.each([
    ['a sized terminal', { isTTY: true, columns: 80 }, {}, true],
    ['a pty of 0 columns', { isTTY: true, columns: 0 }, {}, false],
    ['a pty without a size', { isTTY: true }, {}, false],
    ['not a terminal', { isTTY: false, columns: 80 }, {}, false],
    ['--verbose', { isTTY: true, columns: 80 }, { verbose: true }, false],
    ['CI', { isTTY: true, columns: 80 }, { ci: true }, false],
  ])('spinner on %s: %s', (_what, stream, o, want) => {
    expect(spinnerAllowed(stream, o)).toBe(want);
  });

  it('a pty of 0 columns: no spinner (no cursor hiding, no redraws), plain progress, the run ends', async () => {
    const r = await onPty('exec $KAAS detect --cloud c --timeout 2', 0);
    expect(r.shown).not.toContain(HIDE_CURSOR);
    expect(r.shown).toMatch(/asking the cloud|did not answer within/);
    expect(r.code).toBe(1);
  }, 60_000);

  it('under `timeout` from a terminal (a background process group): not stopped by SIGTTOU, the spinner shows and the run ends', async () => {
    const r = await onPty('timeout 30 $KAAS detect --cloud c --timeout 2; echo "exit=$?"', 100);
    expect(r.shown).toContain(HIDE_CURSOR);
    expect(r.shown).toMatch(/exit=1\b/);
    expect(r.ms).toBeLessThan(20_000);
  }, 60_000);

  it.each([
    ['while the spinner runs (100 columns)', 100, '', 'asking the cloud'],
    // --verbose: the request line shows when kaas waits on the silent Keystone.
    ['on a pty of 0 columns (plain progress)', 0, ' --verbose', '/v3/auth/tokens'],
  ])('Ctrl-C %s ends kaas at once', async (_what, cols, flags, cue) => {
    let typed = false;
    const r = await onPty(`exec $KAAS detect --cloud c --timeout 60${flags}`, cols, (seen, type) => {
      if (!typed && seen.includes(cue)) {
        typed = true;
        setTimeout(() => type('\x03'), 300);
      }
    });
    expect(typed).toBe(true);
    // script -e reports a child killed by SIGINT as 128 + 2.
    expect(r.code).toBe(130);
    if (cols > 0) expect(r.shown).toContain('\x1b[?25h'); // the cursor shown again
    expect(r.ms).toBeLessThan(30_000);
  }, 60_000);
});
