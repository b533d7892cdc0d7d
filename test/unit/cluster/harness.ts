/**
 * A separate process running create-cluster against the fake tools on PATH and a fake cloud kept
 * in a file, so that a test can SIGKILL it mid-flow and run it again (create-flow-kill.test.ts).
 * Environment: KAAS_HARNESS_HOME, KAAS_HARNESS_MGMT, KAAS_HARNESS_CLOUD (state file), plus the
 * fakes' PATH/KAAS_FAKE_SCENARIO/KAAS_FAKE_LOG. Time is simulated: sleeps return at once and
 * advance the clock, except with KAAS_HARNESS_HANG=1, where the first sleep prints
 * `HARNESS-WAITING` on stdout and never returns — the test kills the process on that line, so
 * nothing depends on how fast the machine is.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { clusterLbPlan } from '../../../lib/cluster/lb-plan.js';
import type { Clock } from '../../../lib/cluster/wait.js';
import { formatError } from '../../../lib/errors.js';
import { createProcessRunner } from '../../../lib/exec/runner.js';
import { createLogger } from '../../../lib/log.js';
import { persistentFakeCloud } from './fake-cloud.js';

const env = process.env;
const cloud = persistentFakeCloud(env.KAAS_HARNESS_CLOUD!);
const logger = createLogger({ verbose: false });
let now = 0;
const clock: Clock = {
  now: () => now,
  sleep: (ms) => {
    if (env.KAAS_HARNESS_HANG === '1') {
      process.stdout.write('HARNESS-WAITING\n');
      return new Promise<void>(() => {});
    }
    now += ms;
    return Promise.resolve();
  },
};
createCluster(
  {
    cluster: 'demo', env: 'example', settingsDir: 'settings', sets: [`mgmt_kubeconfig=${env.KAAS_HARNESS_MGMT}`], dryRun: false,
    environ: { OS_CLIENT_CONFIG_FILE: path.resolve('test/fixtures/cluster/clouds.yaml') }, cwd: process.cwd(), home: env.KAAS_HARNESS_HOME!,
    timeouts: { pollMs: 200 },
  },
  {
    logger, runner: createProcessRunner(), clock, which: async () => true, connectCloud: async () => cloud,
    resolveLbPlan: clusterLbPlan, readFile: (p) => readFileSync(p, 'utf8'), applyIngress: async () => 'ingress (test stand-in)',
  },
).then(
  (r) => {
    process.stdout.write(JSON.stringify(r.steps) + '\n');
  },
  (e) => {
    process.stderr.write(formatError(e, true) + '\n');
    process.exitCode = 1;
  },
);
