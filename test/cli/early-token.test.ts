import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { earlyTokenInputs } from '../../cli/early-token.js';
import { KAAS, cleanEnv, ROOT, tempDir } from '../support/cli.js';

// `kaas detect` asks Keystone for its token before the parser loads (cli/early-token.ts). These
// tests hold it to being invisible: one token request per run, the same errors and exit codes, and
// a run that fails before it connects does not wait for Keystone.

describe('which runs ask for a token at start, and with what', () => {
  const none = { KAAS_ENV: undefined };
  it.each([
    ['detect', ['detect'], none, { cloudFlag: undefined, env: 'default', settingsFlag: undefined, sets: [], cluster: undefined, timeoutText: '30s' }],
    ['detect with everything', ['detect', 'demo', '--cloud', 'c1', '-e', 'prod', '--settings-dir', 's', '--set', 'a=1', '--set=b=2', '--timeout', '5m', '-o', 'json', '--verbose'], none,
      { cloudFlag: 'c1', env: 'prod', settingsFlag: 's', sets: ['a=1', 'b=2'], cluster: 'demo', timeoutText: '5m' }],
    ['--cloud=NAME and -o before the cluster', ['detect', '-o', 'yaml', '--cloud=c2', 'prod'], none, { cloudFlag: 'c2', cluster: 'prod' }],
    ['KAAS_ENV as yargs reads it', ['detect'], { KAAS_ENV: 'staging' }, { env: 'staging' }],
    ['--env beats KAAS_ENV', ['detect', '--env', 'x'], { KAAS_ENV: 'staging' }, { env: 'x' }],
  ])('%s', (_, argv, environ, want) => {
    expect(earlyTokenInputs(argv, environ)).toMatchObject(want);
  });

  it.each([
    ['another command', ['apply-ingress', 'demo']],
    ['no command', []],
    ['a flag first', ['--verbose', 'detect']],
    ['--help', ['detect', '--help']],
    ['-h', ['detect', '-h']],
    ['--version', ['detect', '--version']],
    ['saved capabilities', ['detect', '--capabilities', 'caps.json']],
    ['shell completion', ['detect', '--get-yargs-completions']],
  ])('none for %s', (_, argv) => {
    expect(earlyTokenInputs(argv, {})).toBeUndefined();
  });
});

/** A Keystone on loopback that counts token requests and answers each with `answer` (or holds it). */
async function keystone(answer: 'hold' | 401) {
  let requests = 0;
  let closedUnanswered = 0;
  const held: http.ServerResponse[] = [];
  const server = http.createServer((req, res) => {
    requests++;
    if (answer === 'hold') {
      held.push(res);
      res.on('close', () => { if (!res.writableEnded) closedUnanswered++; });
      return;
    }
    req.resume();
    req.on('end', () => {
      res.writeHead(401, { 'content-type': 'application/json', 'x-openstack-request-id': 'req-401' });
      res.end(JSON.stringify({ error: { code: 401, title: 'Unauthorized', message: 'The request you have made requires authentication.' } }));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v3`;
  const home = tempDir('kaas-early-');
  const clouds = path.join(home, 'clouds.yaml');
  writeFileSync(clouds, `clouds:\n  early:\n    auth:\n      auth_url: ${url}\n      username: demo\n      password: early-pw-789\n      project_name: demo\n      user_domain_name: Default\n      project_domain_name: Default\n    region_name: RegionOne\n`, { mode: 0o600 });
  return {
    env: { OS_CLIENT_CONFIG_FILE: clouds },
    settingsDir: home,
    get requests() { return requests; },
    get closedUnanswered() { return closedUnanswered; },
    close: () => new Promise<void>((r) => { held.forEach((res) => res.destroy()); server.close(() => r()); }),
  };
}

/** Runs the built kaas without blocking this process (the server above answers from it). */
function kaas(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [KAAS, ...args], { cwd: ROOT, env: cleanEnv(env) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('kaas detect with a token asked for at start (built CLI, a Keystone on loopback)', () => {
  it('wrong credentials: Keystone sees one attempt, not two; exit 1 with the usual error, the password not printed', async () => {
    const ks = await keystone(401);
    try {
      const r = await kaas(['detect', '--cloud', 'early', '--settings-dir', ks.settingsDir], ks.env);
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/error: Keystone: POST http:\/\/127\.0\.0\.1:\d+\/v3\/auth\/tokens failed with HTTP 401 \(request id req-401\)/);
      expect(r.stderr).toContain('hint: check the credentials of cloud "early"');
      expect(r.stdout + r.stderr).not.toContain('early-pw-789');
      expect(ks.requests).toBe(1);
    } finally {
      await ks.close();
    }
  });

  it('the cloud named by the settings file, not the flags: still one attempt', async () => {
    const ks = await keystone(401);
    try {
      writeFileSync(path.join(ks.settingsDir, 'prod.yaml'), 'cloud: early\n');
      const r = await kaas(['detect', '--env', 'prod', '--settings-dir', ks.settingsDir], ks.env);
      expect(r.code).toBe(1);
      expect(r.stderr).toContain('hint: check the credentials of cloud "early"');
      expect(ks.requests).toBe(1);
    } finally {
      await ks.close();
    }
  });

  it.each([
    ['an unknown flag', ['--bogus'], 2, /Unknown argument: bogus/],
    ['a bad --set', ['--set', 'use_ovn_lb_provider=maybe'], 2, /use_ovn_lb_provider/],
  ])('%s: the run fails at once and does not wait for the Keystone that never answers', async (_, extra, code, message) => {
    const ks = await keystone('hold');
    try {
      const r = await kaas(['detect', '--cloud', 'early', '--settings-dir', ks.settingsDir, '--timeout', '10m', ...extra], ks.env);
      expect(r.code).toBe(code);
      expect(r.stderr).toMatch(message);
      // Whether or not the early request got out before the run failed (a bad --set stops it before
      // it is sent), kaas did not wait the 10 minutes for an answer: what reached Keystone was closed.
      expect(ks.requests).toBeLessThanOrEqual(1);
      expect(ks.closedUnanswered).toBe(ks.requests);
    } finally {
      await ks.close();
    }
  }, 60_000);
});
