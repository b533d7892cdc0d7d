import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { KAAS, ROOT } from '../support/cli.js';
import { hostileCloudCases } from './hostile-cloud.js';
import { checkLbAnswerCases } from './check-lb-answers.js';
import { tempDir } from '../support/temp.js';

/**
 * The bad-input corpus (test/fixtures/malformed): every file is run through the built CLI the way
 * a user would feed it, and must give a clear error — the expected exit code, every expected
 * message fragment, no stack trace, and none of the test secrets that the inputs and the
 * environment carry. Each directory says how its files are fed to kaas.
 */

/** Every test secret contains this; seeing it in any output is a leak. */
export const TEST_SECRET = 'kaas-robustness-secret';

const DIR = path.join(ROOT, 'test', 'fixtures', 'malformed');
const STACK_FRAME = /^\s+at .+:\d+:\d+\)?$/m;

/** One bad input and what kaas must say about it. */
export interface Case {
  suite: string;
  name: string;
  args: string[];
  env: Record<string, string>;
  exit: number;
  fragments: string[];
  /** Run on a pseudo-terminal this many columns wide, optionally under `timeout` (stderr is then the terminal). */
  tty?: { cols: number; underTimeout?: boolean };
  /** Checked after the run: what the fakes saw (e.g. check-lb's namespace delete); each string is a problem. */
  after?: () => string[];
}

type Expected = Record<string, string[]>;

function expected(dir: string): Expected {
  return JSON.parse(readFileSync(path.join(dir, 'expected.json'), 'utf8')) as Expected;
}

/** Files of a suite directory with the given extension, each required to have expectations. */
function files(dir: string, ext: string): string[] {
  const names = readdirSync(dir).filter((f) => f.endsWith(ext) && f !== 'expected.json').map((f) => f.slice(0, -ext.length)).sort();
  const exp = Object.keys(expected(dir)).sort();
  const missing = names.filter((n) => !exp.includes(n));
  const stale = exp.filter((n) => !names.includes(n));
  if (missing.length || stale.length) throw new Error(`${dir}: expected.json out of step (no expectation: ${missing.join(', ') || '-'}; no file: ${stale.join(', ') || '-'})`);
  return names;
}

/** All cases of the corpus. `home` is an empty HOME; `scratch` a directory imports may write to. */
export function loadCorpus(home: string, scratch: string): Case[] {
  const env = { HOME: home, OS_PASSWORD: `${TEST_SECRET}-env`, OS_APPLICATION_CREDENTIAL_SECRET: `${TEST_SECRET}-env-ac` };
  const out: Case[] = [];
  const settings = (sub: string) => {
    const dir = path.join(DIR, sub);
    const exp = expected(dir);
    for (const name of files(dir, '.yaml')) {
      out.push({ suite: sub || 'settings', name, args: ['settings', 'validate', '--env', name, '--settings-dir', path.relative(ROOT, dir) || '.'], env, exit: 2, fragments: exp[name] });
    }
  };
  settings('');
  settings('settings');
  const clouds = path.join(DIR, 'clouds');
  for (const name of files(clouds, '.yaml')) {
    const file = path.join(clouds, `${name}.yaml`);
    out.push({ suite: 'clouds', name, args: ['detect', '--cloud', 'c', '--timeout', '5s'], env: { ...env, OS_CLIENT_CONFIG_FILE: file }, exit: 2, fragments: expected(clouds)[name] });
  }
  const caps = path.join(DIR, 'capabilities');
  for (const name of files(caps, '.json')) {
    out.push({ suite: 'capabilities', name, args: ['detect', '--capabilities', path.relative(ROOT, path.join(caps, `${name}.json`))], env, exit: 2, fragments: expected(caps)[name] });
  }
  const scs = path.join(DIR, 'scs');
  for (const name of files(scs, '.yaml')) {
    out.push({ suite: 'scs', name, args: ['settings', 'import', path.join(scs, `${name}.yaml`), '--cluster', 'demo', '--env', 'imported', '--settings-dir', scratch], env, exit: 2, fragments: expected(scs)[name] });
  }
  const argv = path.join(DIR, 'args');
  for (const name of files(argv, '.json')) {
    const c = JSON.parse(readFileSync(path.join(argv, `${name}.json`), 'utf8')) as { args: string[]; exit?: number };
    out.push({ suite: 'args', name, args: c.args, env, exit: c.exit ?? 2, fragments: expected(argv)[name] });
  }
  out.push(...flagValueCases(env), ...specialFileCases(env, scratch));
  return out;
}

/** Every command, with a valid positional where it needs one: the flag-value kind covers each. */
const COMMANDS = [
  ['settings', 'init'], ['settings', 'show', 'demo'], ['settings', 'validate'], ['settings', 'import', 'x.yaml', '--cluster', 'demo'],
  ['detect'], ['apply-ingress', 'demo'], ['apply-gateway', 'demo'], ['migrate-ingress'], ['create-cluster', 'demo'],
  ['delete-cluster', 'demo'], ['get', 'kubeconfig', 'demo'], ['doctor'], ['check-lb', 'demo'],
];

/** The yes/no flags of a command, read from its --help (so a new flag is covered without listing it). */
function booleanFlags(command: string[]): string[] {
  const words = command.filter((w, i) => i < 2 && !w.includes('.') && w !== 'demo');
  const help = spawnSync(process.execPath, [KAAS, ...words, '--help'], { encoding: 'utf8', env: { PATH: process.env.PATH ?? '', HOME: '/nonexistent' } }).stdout;
  // A flag entry starts in the first columns; a wrapped description line that begins with a flag name
  // (e.g. "--output-dir; touches nothing") is indented to the description column and is not one.
  const entries = help.split(/\n(?=\s{1,8}(?:-\w, )?--)/);
  return entries.filter((e) => e.includes('[boolean]')).map((e) => /--([a-z][a-z-]*)/.exec(e)?.[1]).filter((f): f is string => !!f && f !== 'help' && f !== 'version');
}

/**
 * Kind "flag values": every yes/no flag of every command given a value yargs used to read as false
 * (`--dry-run=yes` ran the real operation). Exit 2 before anything happens.
 */
function flagValueCases(env: Record<string, string>): Case[] {
  const out: Case[] = [];
  for (const command of COMMANDS) {
    for (const flag of booleanFlags(command)) {
      for (const value of ['yes', '0', '']) {
        out.push({ suite: 'flag-values', name: `${command.slice(0, 2).join('-')}--${flag}=${value}`, args: [...command, `--${flag}=${value}`], env, exit: 2, fragments: [`--${flag}=${value}: a yes/no flag takes no value, or exactly =true or =false`] });
      }
    }
  }
  return out;
}

/**
 * Kind "special files": every file input (settings file, clouds.yaml, --capabilities, cacert, SCS
 * import, manifests) as an endless device, a FIFO nobody writes into, and a directory. Each is exit 2
 * naming the path, within the input-size cap; none hangs or grows without bound.
 */
function specialFileCases(env: Record<string, string>, scratch: string): Case[] {
  const dir = tempDir('kaas-robust-special-');
  const kinds: [string, (p: string) => void, string][] = [
    ['zero', (p) => symlinkSync('/dev/zero', p), 'has more than'],
    ['urandom', (p) => symlinkSync('/dev/urandom', p), 'has more than'],
    ['fifo', (p) => spawnSync('mkfifo', [p]), 'it is a named pipe nobody writes into'],
    ['directory', (p) => mkdirSync(p), 'it is a directory, not a file'],
  ];
  const out: Case[] = [];
  for (const [kind, make, said] of kinds) {
    const file = (name: string) => {
      const p = path.join(dir, `${kind}-${name}`);
      make(p);
      return p;
    };
    file('settings.yaml');
    out.push({ suite: 'special-files', name: `settings-${kind}`, args: ['settings', 'validate', '--settings-dir', dir, '--env', `${kind}-settings`], env, exit: 2, fragments: [`${kind}-settings.yaml`, said] });
    const clouds = file('clouds.yaml');
    out.push({ suite: 'special-files', name: `clouds-${kind}`, args: ['detect', '--cloud', 'c'], env: { ...env, OS_CLIENT_CONFIG_FILE: clouds }, exit: 2, fragments: [clouds, said] });
    const caps = file('caps.json');
    out.push({ suite: 'special-files', name: `capabilities-${kind}`, args: ['detect', '--capabilities', caps], env, exit: 2, fragments: [`--capabilities ${caps}`, said] });
    const scs = file('clusterctl.yaml');
    out.push({ suite: 'special-files', name: `import-${kind}`, args: ['settings', 'import', scs, '--cluster', 'demo', '--env', 'imported', '--settings-dir', scratch], env, exit: 2, fragments: [scs, said] });
    const cacert = file('ca.pem');
    const cloudsWithCa = path.join(dir, `${kind}-clouds-ca.yaml`);
    writeFileSync(cloudsWithCa, `clouds:\n  c:\n    auth: {auth_url: "http://127.0.0.1:9/v3", username: u, password: ${TEST_SECRET}-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n    cacert: ${cacert}\n`);
    out.push({ suite: 'special-files', name: `cacert-${kind}`, args: ['detect', '--cloud', 'c'], env: { ...env, OS_CLIENT_CONFIG_FILE: cloudsWithCa }, exit: 2, fragments: [`cacert ${cacert}`, said] });
  }
  // --output-dir: a file of the set is a FIFO, a link to a device or a link out of DIR; refused before any file of the set is written.
  for (const [kind, make, said] of [
    ['fifo', (p: string) => spawnSync('mkfifo', [p]), 'it is a named pipe (FIFO), not a regular file'],
    ['device', (p: string) => symlinkSync('/dev/null', p), 'it is a symbolic link to /dev/null; kaas does not write through links inside --output-dir'],
    // Issue 31: a link to a file outside DIR was written through, exit 0.
    ['link-outside', (p: string) => symlinkSync(path.join(dir, 'outside-victim.conf'), p), `it is a symbolic link to ${path.join(dir, 'outside-victim.conf')}; kaas does not write through links inside --output-dir`],
  ] as [string, (p: string) => void, string][]) {
    const out2 = path.join(dir, `output-dir-${kind}`);
    mkdirSync(out2);
    make(path.join(out2, 'cloud.conf'));
    out.push({ suite: 'special-files', name: `output-dir-${kind}`, args: ['create-cluster', 'demo', '--env', 'example', '--dry-run', '--output-dir', out2], env, exit: 2, fragments: [`cannot write ${out2}/cloud.conf: ${said}`, 'hint: remove it or choose another --output-dir; nothing was written'] });
  }
  // A clouds.yaml found on the search path (~/.config/openstack/) that is a directory: named, not "no cloud configured".
  const home = path.join(dir, 'home-with-clouds-dir');
  mkdirSync(path.join(home, '.config', 'openstack', 'clouds.yaml'), { recursive: true });
  out.push({ suite: 'special-files', name: 'clouds-on-search-path-directory', args: ['detect'], env: { ...env, HOME: home }, exit: 2, fragments: [`${home}/.config/openstack/clouds.yaml: it is a directory, not a file`] });
  // A cacert that is a file, but not a PEM certificate: named as such, not blamed on the CA.
  const notPem: [string, string | Buffer, string][] = [
    ['der', Buffer.from([0x30, 0x82, 0x03, 0x0b, 0x30, 0x82, 0x01, 0xf3, 0xa0, 0x03, 0x02, 0x01, 0x02]), 'it looks binary (DER?)'],
    ['private-key', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n', 'it holds a private key, no certificate'],
    ['text', 'see the wiki for the CA\n', 'no -----BEGIN CERTIFICATE----- block'],
  ];
  for (const [name, content, said] of notPem) {
    const cacert = path.join(dir, `not-pem-${name}.crt`);
    writeFileSync(cacert, content);
    const clouds = path.join(dir, `not-pem-${name}-clouds.yaml`);
    writeFileSync(clouds, `clouds:\n  c:\n    auth: {auth_url: "http://127.0.0.1:9/v3", username: u, password: ${TEST_SECRET}-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n    cacert: ${cacert}\n`);
    out.push({ suite: 'special-files', name: `cacert-not-pem-${name}`, args: ['detect', '--cloud', 'c'], env: { ...env, OS_CLIENT_CONFIG_FILE: clouds }, exit: 2, fragments: [`cacert ${cacert} of cloud "c" is not a PEM certificate (${said})`, 'in PEM form'] });
  }
  return out;
}

/** One scripted answer of the "HTTP answers" kind, served for the token request under /<name>/v3. */
const HTTP_ANSWERS: Record<string, { answer: (res: http.ServerResponse, url: string) => void; said: string[] }> = {
  'conflict-409': { answer: (res) => res.writeHead(409, { 'Content-Type': 'application/json' }).end('{"error": {"message": "Conflict occurred"}}'), said: ['HTTP 409', '409 Conflict'] },
  'too-large-413': { answer: (res) => res.writeHead(413, { 'Content-Type': 'application/json' }).end('{}'), said: ['HTTP 413', 'too large or over a limit'] },
  'rate-limit-429-far': { answer: (res) => res.writeHead(429, { 'Retry-After': '86400' }).end(), said: ['HTTP 429', "past the run's time budget: retry after 20"] },
  'rate-limit-429-none': { answer: (res) => res.writeHead(429).end(), said: ['HTTP 429', 'retry in a minute'] },
  'redirect-other-host': { answer: (res) => res.writeHead(302, { Location: 'https://elsewhere.example/v3/auth/tokens' }).end(), said: ['HTTP 302: redirect to https://elsewhere.example/v3/auth/tokens, not followed', 'redirects to another host'] },
  'redirect-same-host': { answer: (res, url) => res.writeHead(301, { Location: `${url}/identity/v3/auth/tokens` }).end(), said: ['HTTP 301', 'kaas does not follow redirects: set auth_url of cloud "c"'] },
  'truncated-body': {
    answer: (res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'Content-Length': '5000', 'X-Subject-Token': 'kaas-robustness-secret-token' });
      res.write('{"token": {"catalog": [');
      setTimeout(() => res.socket?.destroy(), 5);
    },
    said: ['the answer was cut off', 'closed the connection in the middle of its answer'],
  },
};

/**
 * Kind "HTTP answers": Keystone answering the token request with 409, 413, 429 (a Retry-After past
 * the run's budget, none at all), a redirect (to another host, on the same host) or a body cut off.
 * Each is exit 1 with the status and a hint; none is followed, waited on for long or printed raw.
 */
export async function httpAnswerCases(env: Record<string, string>): Promise<{ cases: Case[]; close: () => Promise<void> }> {
  let url = '';
  const srv = http.createServer((req, res) => {
    const name = (req.url ?? '').split('/')[1];
    const a = HTTP_ANSWERS[name];
    if (a) a.answer(res, url);
    else if (name !== 'silent') res.writeHead(404).end();
    // "silent": a Keystone that takes the request and never answers (the terminal kind waits on it).
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  url = `http://127.0.0.1:${(srv.address() as AddressInfo).port}`;
  const dir = tempDir('kaas-robust-http-');
  const cases: Case[] = Object.entries(HTTP_ANSWERS).map(([name, a]) => {
    const clouds = path.join(dir, `${name}.yaml`);
    writeFileSync(clouds, `clouds:\n  c:\n    auth: {auth_url: "${url}/${name}/v3", username: u, password: ${TEST_SECRET}-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n`);
    return { suite: 'http-answers', name, args: ['detect', '--cloud', 'c', '--timeout', '5s'], env: { ...env, OS_CLIENT_CONFIG_FILE: clouds }, exit: 1, fragments: [...a.said, 'hint:'] };
  });
  cases.push(...terminalCases(env, dir, url));
  return {
    cases,
    close: () => {
      srv.closeAllConnections();
      return new Promise((r) => srv.close(() => r()));
    },
  };
}

/**
 * Kind "terminals": progress and errors on a pseudo-terminal of 0 columns (docker run -t, ssh -tt)
 * and on a sized one under `timeout` (a background process group): a silent Keystone, a 429 and a
 * bad settings file each end with their clear error — no spinner looping, no SIGTTOU stop.
 */
function terminalCases(env: Record<string, string>, dir: string, url: string): Case[] {
  const clouds = (name: string) => {
    const f = path.join(dir, `tty-${name}.yaml`);
    writeFileSync(f, `clouds:\n  c:\n    auth: {auth_url: "${url}/${name}/v3", username: u, password: ${TEST_SECRET}-pw, project_name: p, user_domain_name: D, project_domain_name: D}\n`);
    return f;
  };
  const settings = path.join(dir, 'tty-settings');
  mkdirSync(settings, { recursive: true });
  writeFileSync(path.join(settings, 'bad.yaml'), 'node_cidr: 0.0.0.0/0\n');
  const runs: [string, Pick<Case, 'args' | 'env' | 'exit' | 'fragments'>][] = [
    ['silent-keystone', { args: ['detect', '--cloud', 'c', '--timeout', '2s'], env: { ...env, OS_CLIENT_CONFIG_FILE: clouds('silent') }, exit: 1, fragments: ['did not answer within 2 s'] }],
    ['rate-limited', { args: ['detect', '--cloud', 'c', '--timeout', '5s'], env: { ...env, OS_CLIENT_CONFIG_FILE: clouds('rate-limit-429-none') }, exit: 1, fragments: ['HTTP 429'] }],
    ['bad-settings', { args: ['settings', 'validate', '--settings-dir', settings, '--env', 'bad'], env, exit: 2, fragments: ['node_cidr: "0.0.0.0/0" is every address'] }],
  ];
  const terminals: [string, NonNullable<Case['tty']>][] = [['0-columns', { cols: 0 }], ['under-timeout', { cols: 100, underTimeout: true }]];
  return terminals.flatMap(([t, tty]) => runs.map(([name, c]) => ({ suite: 'terminals', name: `${t}-${name}`, tty, ...c })));
}

/** What one run showed. */
export interface Verdict {
  case: Case;
  clear: boolean;
  stackTrace: boolean;
  secret: boolean;
  problems: string[];
}

const shq = (w: string) => `'${w.replace(/'/g, `'\\''`)}'`;

function runCli(c: Case): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', NO_COLOR: '1', ...c.env };
    const argv = [process.execPath, KAAS, ...c.args].map(shq).join(' ');
    // On a terminal, util-linux script gives kaas a pty; its stdout then carries everything kaas wrote.
    const child = c.tty
      ? spawn('script', ['-qec', `stty cols ${c.tty.cols} rows 40; exec ${c.tty.underTimeout ? 'timeout 50 ' : ''}${argv}`, '/dev/null'], { cwd: ROOT, env: { ...env, TERM: 'xterm' }, stdio: ['pipe', 'pipe', 'pipe'] })
      : spawn(process.execPath, [KAAS, ...c.args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
    child.on('close', (code) => {
      clearTimeout(timer);
      // The terminal's output, without cursor and colour sequences and carriage returns, judged as stderr.
      const shown = stdout.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\r/g, '');
      resolve(c.tty ? { code, stdout: '', stderr: shown } : { code, stdout, stderr });
    });
  });
}

/** Runs one case and judges its output. */
export async function judge(c: Case): Promise<Verdict> {
  const r = await runCli(c);
  const all = r.stdout + r.stderr;
  const problems: string[] = [];
  if (r.code !== c.exit) problems.push(`exit ${r.code}, expected ${c.exit}`);
  if (!/^error: /m.test(r.stderr)) problems.push('no "error:" line on stderr');
  for (const f of c.fragments) if (!r.stderr.includes(f)) problems.push(`missing ${JSON.stringify(f)}`);
  const stackTrace = STACK_FRAME.test(all) || /internal error/.test(all);
  const secret = all.includes(TEST_SECRET);
  if (stackTrace) problems.push('stack trace in the output');
  // Names from the cloud or the cluster are printed with their control characters escaped (NO_COLOR is set, no terminal).
  if (!c.tty && /\u001b/.test(all)) problems.push('a raw escape character in the output');
  if (secret) problems.push('a test secret in the output');
  problems.push(...(c.after?.() ?? []));
  if (problems.length) problems.push(`stderr was:\n${r.stderr.split('\n').slice(0, 12).map((l) => `      ${l}`).join('\n')}`);
  return { case: c, clear: problems.length === 0, stackTrace, secret, problems };
}

/** Runs every case, a few at a time; returns the verdicts and the summary line. */
export async function runCorpus(concurrency = Math.max(2, Math.min(4, os.availableParallelism()))): Promise<{ verdicts: Verdict[]; summary: string }> {
  const home = tempDir('kaas-robust-home-');
  const scratch = tempDir('kaas-robust-settings-');
  const served = await httpAnswerCases({ HOME: home, OS_PASSWORD: `${TEST_SECRET}-env` });
  const hostile = await hostileCloudCases({ HOME: home, OS_PASSWORD: `${TEST_SECRET}-env` }, TEST_SECRET);
  const cases = [...loadCorpus(home, scratch), ...served.cases, ...hostile.cases, ...checkLbAnswerCases({ HOME: home, OS_PASSWORD: `${TEST_SECRET}-env` })];
  const verdicts: Verdict[] = new Array(cases.length);
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < cases.length) {
        const i = next++;
        verdicts[i] = await judge(cases[i]);
      }
    }),
  );
  await served.close();
  await hostile.close();
  const count = (f: (v: Verdict) => boolean) => verdicts.filter(f).length;
  const summary = `${cases.length} bad inputs, ${count((v) => v.clear)} clear errors, ${count((v) => v.stackTrace)} stack traces, ${count((v) => v.secret)} secrets`;
  return { verdicts, summary };
}
