#!/usr/bin/env node
// A scripted stand-in for an external tool (kubectl, clusterctl, …). See README.md in this folder.
// Plain JavaScript on purpose: it is executed as-is from the source tree, never compiled.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

const tool = process.argv[2];
const argv = process.argv.slice(3);
const scenarioPath = process.env.KAAS_FAKE_SCENARIO;
const logPath = process.env.KAAS_FAKE_LOG;

function fail(msg) {
  process.stderr.write(`fake ${tool}: ${msg}\n`);
  process.exit(97);
}

if (process.env.KAAS_FAKE_STATE && logPath) {
  // Management-cluster mode: a stateful cluster instead of a call list (mgmt-cluster.mjs).
  const { prepare, run } = await import('./mgmt-cluster.mjs');
  await prepare();
  const stdin = argv.includes('-') ? readFileSync(0, 'utf8') : '';
  // One call at a time per state: kaas runs kubectl calls in parallel (Promise.all), and each call
  // reads, changes and writes the whole state. Unlocked, a reader saw a half-written file (CI,
  // 2026-11-27: "Unexpected end of JSON input") and two writers could lose each other's change.
  const { default: lockfile } = await import('proper-lockfile');
  const release = await lockfile.lock(process.env.KAAS_FAKE_STATE, {
    realpath: false,
    stale: 30_000,
    retries: { retries: 2000, minTimeout: 5, maxTimeout: 30, factor: 1.2 },
  });
  let r;
  try {
    r = run(tool, argv, process.env.KAAS_FAKE_STATE, stdin);
  } finally {
    await release();
  }
  // stderr kept for tests that look for the API server's warnings (a deprecated API version).
  appendFileSync(logPath, JSON.stringify({ index: -1, tool, argv, stdin, exitCode: r.exitCode, stderr: r.stderr }) + '\n');
  process.stdout.write(r.stdout);
  process.stderr.write(r.stderr);
  process.exit(r.exitCode);
}
if (!scenarioPath || !logPath) fail('KAAS_FAKE_SCENARIO and KAAS_FAKE_LOG must be set (see test/fakes/README.md)');

const readStdin = () => {
  // Only read stdin when something is piped; a TTY or closed stdin reads as "".
  try {
    return readFileSync(0, 'utf8');
  } catch {
    return '';
  }
};

const scenario = JSON.parse(readFileSync(scenarioPath, 'utf8'));
const dir = path.dirname(scenarioPath);
const resolveFile = (f) => (path.isAbsolute(f) ? f : path.resolve(scenario.baseDir ?? dir, f));
const text = (inline, file) => (file !== undefined ? readFileSync(resolveFile(file), 'utf8') : inline ?? '');

const done = existsSync(logPath)
  ? readFileSync(logPath, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l))
  : [];
const index = done.length;
const expected = scenario.calls[index];
// stdin is read only when the call passes a file on it (`-f -`, `--filename=-`) or the scenario
// expects stdin: a runner that leaves stdin open without input would otherwise block the fake forever.
const wantsStdin = argv.includes('-') || argv.some((a) => /^--?(f|filename)=-$/.test(a)) ||
  (expected && (expected.stdin !== undefined || expected.stdinFile !== undefined || expected.stdinContains !== undefined));
const stdin = wantsStdin ? readStdin() : '';
const record = (extra) => appendFileSync(logPath, JSON.stringify({ index, tool, argv, stdin, ...extra }) + '\n');
const same = (a, b) => a.length === b.length && a.every((x, i) => x === b[i]);
const show = (c) => `${c.tool} ${JSON.stringify(c.argv)}`;

if (!expected) {
  record({ unexpected: 'no more calls expected' });
  fail(`unexpected call #${index + 1}: ${tool} ${JSON.stringify(argv)} (the scenario lists only ${scenario.calls.length} calls)`);
}
if (expected.tool !== tool || !same(expected.argv, argv)) {
  record({ unexpected: `expected ${show(expected)}` });
  fail(`unexpected call #${index + 1}:\n  got      ${tool} ${JSON.stringify(argv)}\n  expected ${show(expected)}`);
}
const wantStdin = expected.stdin !== undefined || expected.stdinFile !== undefined ? text(expected.stdin, expected.stdinFile) : undefined;
if (wantStdin !== undefined && wantStdin !== stdin) {
  record({ unexpected: 'stdin differs' });
  fail(`call #${index + 1} (${show(expected)}): stdin differs from the scenario (${stdin.length} bytes, expected ${wantStdin.length})`);
}
for (const part of expected.stdinContains ?? []) {
  if (!stdin.includes(part)) {
    record({ unexpected: `stdin lacks ${JSON.stringify(part)}` });
    fail(`call #${index + 1} (${show(expected)}): stdin does not contain ${JSON.stringify(part)}`);
  }
}
record({});
const r = expected.response ?? {};
// A slow API server: the call is recorded at once, the answer comes after delayMs.
if (r.delayMs) await new Promise((done) => setTimeout(done, r.delayMs));
process.stdout.write(text(r.stdout, r.stdoutFile));
process.stderr.write(text(r.stderr, r.stderrFile));
process.exitCode = r.exitCode ?? 0;
