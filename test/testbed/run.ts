/**
 * Runs the testbed scenarios: builds (or finds up to date) the Go-built components, starts the testbed
 * (`test/testbed/testbed.sh start DIR`), runs jest with jest.testbed.config.js *inside* the testbed's
 * network namespace (so kaas, kubectl and the tests' own OpenStack checks reach the peer, the management
 * cluster and the floating-IP range, and nothing else), then stops exactly what it started.
 *
 *   node dist/test/testbed/run.js [jest args...]
 *
 * KAAS_TESTBED_DIR: where the testbed lives (default .kaas-test/testbed); KAAS_TESTBED_KEEP=1 leaves it
 * running afterwards (a later run reuses what still runs); KAAS_TESTBED_WORKLOAD=1 also starts the workload
 * side (testbed.sh start --workload, read from the environment by testbed.sh) and runs the edge scenarios. The run fails, never skips, when the testbed
 * cannot be built or started: the reason is printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/peer-paths.js';
import { parseEnvFile } from './env.js';

const dir = path.resolve(process.env.KAAS_TESTBED_DIR ?? path.join(ROOT, '.kaas-test', 'testbed'));
const script = path.join(ROOT, 'test', 'testbed', 'testbed.sh');
const t0 = Date.now();
const secs = () => `${Math.round((Date.now() - t0) / 1000)} s`;

function stop(): void {
  if (process.env.KAAS_TESTBED_KEEP === '1') {
    process.stderr.write(`[testbed] KAAS_TESTBED_KEEP=1: left running in ${dir} (stop: bash ${script} stop ${dir})\n`);
    return;
  }
  spawnSync('bash', [script, 'stop', dir], { stdio: 'inherit', timeout: 300_000 });
}

process.stderr.write(`[testbed] building (or finding up to date) the Go-built components and the peer's packages\n`);
const built = spawnSync('bash', [script, 'build'], { stdio: 'inherit', timeout: 60 * 60_000 });
if (built.status !== 0) {
  process.stderr.write(`[testbed] FAILED to build (exit ${built.status ?? built.signal}) after ${secs()}: the testbed tests did not run; see the lines above\n`);
  process.exit(1);
}
process.stderr.write(`[testbed] built in ${secs()}; starting in ${dir}\n`);
const started = spawnSync('bash', [script, 'start', dir], { stdio: 'inherit', timeout: 30 * 60_000 });
if (started.status !== 0) {
  process.stderr.write(`[testbed] FAILED to build or start (exit ${started.status ?? started.signal}) after ${secs()}: the testbed tests did not run; see the lines above and ${dir}/log/\n`);
  stop();
  process.exit(1);
}
process.stderr.write(`[testbed] started in ${secs()}\n`);
// The edge scenarios (edge-*.test.ts) need the workload side (testbed.sh start --workload); without it
// they are left out, and this says so.
const workload = process.env.KAAS_TESTBED_WORKLOAD === '1';
if (!workload) process.stderr.write('[testbed] the workload-side edge scenarios (test/testbed/edge-*.test.ts) are not run: KAAS_TESTBED_WORKLOAD=1 runs them\n');
const envFile = path.join(dir, 'testbed.env');
const env = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
const jest = spawnSync('ip', ['netns', 'exec', env.TESTBED_NETNS,
  process.execPath, '--experimental-vm-modules', '--no-warnings=ExperimentalWarning', path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
  // The caller's arguments (a test path pattern) before the ignore pattern: jest reads every word after
  // --testPathIgnorePatterns as one more ignore pattern, so a pattern placed after it ran every other file.
  '--config', path.join(ROOT, 'jest.testbed.config.js'), '--runInBand', ...process.argv.slice(2), ...(workload ? [] : ['--testPathIgnorePatterns', '/edge-'])], {
  stdio: 'inherit', cwd: ROOT, env: { ...process.env, KAAS_TESTBED_ENV: envFile },
});
process.stderr.write(`[testbed] scenarios finished (exit ${jest.status ?? jest.signal}) after ${secs()}\n`);
stop();
process.exit(jest.status ?? 1);
