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
 * side (testbed.sh start --workload, read from the environment by testbed.sh) and runs the edge scenarios;
 * without it (and without a pattern) a short workload-side smoke follows the management scenarios (below,
 * KAAS_TESTBED_SMOKE=0 to leave it out; the smoke turns the data path on unless KAAS_TESTBED_DATAPATH=0, with it
 * real amphorae in region RegionAmphora, KAAS_TESTBED_AMPHORA=region, and leaves Envoy Gateway unbuilt).
 * edge-datapath (real packets through the ovn rows) runs in both only when testbed.env says DATAPATH=1
 * (KAAS_TESTBED_DATAPATH=1, read by testbed.sh). KAAS_TESTBED_RELEASES=current (default) | v1.12 selects the
 * release set testbed.sh builds and starts (docs/development/testbed-releases.md); the opt-in management upgrade
 * (pattern mgmt-upgrade) starts v1.12 with the workload side and builds both sets; the opt-in minor Kubernetes
 * upgrade (pattern k8s-upgrade) starts the workload cluster one minor below the set's; the opt-in cilium steps
 * (pattern cilium-step) build helm and the cilium chart repository first.
 * The run fails, never skips,
 * when the testbed cannot be built or started: the reason is printed.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from '../support/peer-paths.js';
import { parseEnvFile, realAmphorae } from './env.js';

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

const patterns = process.argv.slice(2);
// The management-cluster upgrade (mgmt-upgrade.test.ts, issue 32 §2) starts from the v1.12 set with the
// workload side, upgrades it to the current set and deletes the workload cluster: only when a pattern names it
// (the other scenarios would run on a changed management cluster), outside CI's cold-run budget (both sets are built).
const mgmtUpgrade = patterns.some((p) => /mgmt-upgrade/.test(p));
if (mgmtUpgrade) {
  if ((process.env.KAAS_TESTBED_RELEASES ?? 'v1.12') !== 'v1.12') {
    process.stderr.write(`[testbed] the management upgrade starts from the v1.12 set, not KAAS_TESTBED_RELEASES=${process.env.KAAS_TESTBED_RELEASES}: leave it unset\n`);
    process.exit(2);
  }
  process.env.KAAS_TESTBED_RELEASES = 'v1.12';
  process.env.KAAS_TESTBED_WORKLOAD ??= '1';
}
// The minor Kubernetes upgrade (k8s-upgrade.test.ts, issue 32 §4) needs the workload cluster one minor below
// the set's and the harness's etcd growing per control-plane node: only when a pattern names it (it moves the
// workload cluster to the set's version, which the edge scenarios take as given).
const k8sUpgrade = patterns.some((p) => /k8s-upgrade/.test(p));
if (k8sUpgrade) {
  if ((process.env.KAAS_TESTBED_RELEASES ?? 'current') !== 'current') {
    process.stderr.write(`[testbed] the minor Kubernetes upgrade runs on the current set, not KAAS_TESTBED_RELEASES=${process.env.KAAS_TESTBED_RELEASES}: leave it unset\n`);
    process.exit(2);
  }
  process.env.KAAS_TESTBED_WORKLOAD ??= '1';
  // k8s.io/kubernetes v1.35.4 (the Go module proxy's newest v1.35 patch): one minor below the set's v1.36.3.
  process.env.KAAS_TESTBED_WORKLOAD_K8S_VERSION ??= 'v1.35.4';
  process.env.KAAS_TESTBED_ETCD_MEMBERS ??= '2';
  process.env.KAAS_TESTBED_ENVOY_GATEWAY ??= '0';
}
// Cilium one minor per run on a live cluster (cilium-step.test.ts, issue 32 §4): helm and the cilium charts
// from their Go modules (build-cilium-charts.sh) are built first, the workload side runs: only when a
// pattern names it (it installs cilium on the workload cluster, which the edge scenarios run with calico).
const ciliumSteps = patterns.some((p) => /cilium-step/.test(p));
if (ciliumSteps) {
  process.env.KAAS_TESTBED_WORKLOAD ??= '1';
  process.env.KAAS_TESTBED_ENVOY_GATEWAY ??= '0';
}
const releases = process.env.KAAS_TESTBED_RELEASES ?? 'current';
if (!['v1.12', 'current'].includes(releases)) {
  process.stderr.write(`[testbed] KAAS_TESTBED_RELEASES=${releases} is not a release set: use current (the default) or v1.12\n`);
  process.exit(2);
}
const workload = process.env.KAAS_TESTBED_WORKLOAD === '1';
// Without KAAS_TESTBED_WORKLOAD=1 (npm test, CI) the workload side still runs once, briefly (the smoke below).
const smoke = !workload && patterns.length === 0 && process.env.KAAS_TESTBED_SMOKE !== '0';
// The smoke sends real packets (issue 29): the data path is on unless KAAS_TESTBED_DATAPATH=0 says otherwise,
// so the testbed is built and started with it from the first start (the peer's OVN runs from there on).
if (smoke && process.env.KAAS_TESTBED_DATAPATH === undefined) process.env.KAAS_TESTBED_DATAPATH = '1';
if (smoke && process.env.KAAS_TESTBED_DATAPATH === '1') {
  // Issue 30 §6: the smoke's amphora PROXY row on a real amphora. Only region RegionAmphora's load balancers are
  // real (KAAS_TESTBED_AMPHORA=region), so the management scenarios' kube-API LBs boot no amphora.
  process.env.KAAS_TESTBED_AMPHORA ??= 'region';
}
// No scenario of npm test runs a gateway row (edge-* are the workload set's): Envoy Gateway is neither built
// (about 5 minutes of a cold run) nor started.
if (smoke) process.env.KAAS_TESTBED_ENVOY_GATEWAY ??= '0';
process.stderr.write(`[testbed] release set ${releases}: building (or finding up to date) the Go-built components and the peer's packages (data path ${process.env.KAAS_TESTBED_DATAPATH === '1' ? 'on' : 'off'})\n`);
const built = spawnSync('bash', [script, 'build'], { stdio: 'inherit', timeout: 60 * 60_000 });
if (built.status !== 0) {
  process.stderr.write(`[testbed] FAILED to build (exit ${built.status ?? built.signal}) after ${secs()}: the testbed tests did not run; see the lines above\n`);
  process.exit(1);
}
const clusterStacks = process.env.KAAS_TESTBED_CLUSTERSTACKS === '1' || patterns.some((p) => /clusterstacks/.test(p));
if (clusterStacks || ciliumSteps) {
  // helm renders the Cluster Stacks class chart as the cluster-stack-operator does, and installs the cilium
  // charts for kaas (built from its pinned Go module).
  const helm = spawnSync('bash', [path.join(ROOT, 'test', 'testbed', 'build-helm.sh')], { stdio: 'inherit', timeout: 60 * 60_000 });
  if (helm.status !== 0) {
    process.stderr.write(`[testbed] FAILED to build helm (exit ${helm.status ?? helm.signal}) for the Cluster Stacks or cilium scenario after ${secs()}\n`);
    process.exit(1);
  }
}
if (ciliumSteps) {
  const charts = spawnSync('bash', [path.join(ROOT, 'test', 'testbed', 'build-cilium-charts.sh')], { stdio: 'inherit', timeout: 30 * 60_000 });
  if (charts.status !== 0) {
    process.stderr.write(`[testbed] FAILED to build the cilium chart repository (exit ${charts.status ?? charts.signal}) for the cilium scenario after ${secs()}\n`);
    process.exit(1);
  }
}
if (mgmtUpgrade) {
  // The set the upgrade goes to: its clusterctl and managers (testbed.sh upgrade finds them up to date).
  const current = spawnSync('bash', [script, 'build'], { stdio: 'inherit', timeout: 60 * 60_000, env: { ...process.env, KAAS_TESTBED_RELEASES: 'current' } });
  if (current.status !== 0) {
    process.stderr.write(`[testbed] FAILED to build the current release set (exit ${current.status ?? current.signal}) for the management upgrade after ${secs()}\n`);
    process.exit(1);
  }
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
const envFile = path.join(dir, 'testbed.env');
const runJest = (args: string[], extraEnv: Record<string, string> = {}) => {
  const env = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
  return spawnSync('ip', ['netns', 'exec', env.TESTBED_NETNS,
    process.execPath, '--experimental-vm-modules', '--no-warnings=ExperimentalWarning', path.join(ROOT, 'node_modules', 'jest', 'bin', 'jest.js'),
    '--config', path.join(ROOT, 'jest.testbed.config.js'), '--runInBand', ...args], {
    stdio: 'inherit', cwd: ROOT, env: { ...process.env, ...extraEnv, KAAS_TESTBED_ENV: envFile },
  }).status ?? 1;
};
// edge-datapath (real packets) needs the data path: testbed.env DATAPATH=1 (KAAS_TESTBED_DATAPATH=1). Without
// it the workload set leaves it out, unless a pattern selects it — then it runs and fails saying why.
const datapath = parseEnvFile(fs.readFileSync(envFile, 'utf8')).DATAPATH === '1';
// The Cluster Stacks scenario (clusterstacks.test.ts, issue 32 §5) needs helm and two more clusters: opt-in,
// outside CI's cold-run budget (KAAS_TESTBED_CLUSTERSTACKS=1, or a pattern that names it).
const optIn = [...(clusterStacks ? [] : ['/clusterstacks']), ...(mgmtUpgrade ? [] : ['/mgmt-upgrade']), ...(k8sUpgrade ? [] : ['/k8s-upgrade']), ...(ciliumSteps ? [] : ['/cilium-step'])];
const ignored = [...(workload ? (datapath || patterns.length ? [] : ['/edge-datapath']) : ['/edge-']), ...optIn];
// Last: jest reads every word after an array option as one more pattern (a file pattern given after it would be ignored).
let status = runJest([...patterns, ...(ignored.length ? ['--testPathIgnorePatterns', ...ignored] : [])]);
process.stderr.write(`[testbed] scenarios finished (exit ${status}) after ${secs()}\n`);

// The smoke: the workload side starts on the same testbed (without Envoy Gateway, whose build only the
// gateway rows need) and edge-ingress runs two rows of the decision table — amphora with PROXY (after a full
// create-cluster: v1beta2 readiness through the harness, the add-ons, OCCM from kaas's DaemonSet) and OVN —
// through the real OCCM and Octavia; then, with the data path (on by default here), edge-datapath sends real
// requests through the `ovn` row and the monitors-off control and runs check-lb. The whole edge set is
// `npm run test:testbed:workload`. KAAS_TESTBED_SMOKE=0 leaves the smoke out.
if (smoke) {
  process.stderr.write('[testbed] workload-side smoke: the workload side (no Envoy Gateway) and edge-ingress rows amphora-proxy and ovn, then edge-datapath (the ovn control, amphora-proxy on a real amphora, ovn); the whole edge set is npm run test:testbed:workload\n');
  const w = spawnSync('bash', [script, 'start', '--workload', dir], { stdio: 'inherit', timeout: 30 * 60_000, env: { ...process.env, KAAS_TESTBED_ENVOY_GATEWAY: '0' } });
  if (w.status !== 0) {
    process.stderr.write(`[testbed] FAILED to start the workload side (exit ${w.status ?? w.signal}): see the lines above and ${dir}/log/\n`);
    status = 1;
  } else {
    const e = runJest(['edge-ingress'], { KAAS_EDGE_ROWS: 'amphora-proxy;ovn' });
    process.stderr.write(`[testbed] workload-side smoke finished (exit ${e}) after ${secs()}\n`);
    if (e !== 0) status = e;
    // With the data path (testbed.env DATAPATH=1) the smoke also sends packets; without it nothing changes.
    const tbEnv = parseEnvFile(fs.readFileSync(envFile, 'utf8'));
    if (tbEnv.DATAPATH === '1') {
      // The control and the `ovn` row carry the proof; `ovn (auto)` plans the same LB and runs in the whole
      // edge set (test:testbed:workload), which keeps the smoke inside CI's cold-run budget. With real amphorae
      // (AMPHORA=region, above) the amphora-proxy row too, without its hairpin, PROXY mismatch and check-lb
      // (they run with KAAS_TESTBED_AMPHORA=1 in the workload set).
      const d = runJest(['edge-datapath'], {
        KAAS_DATAPATH_ROWS: realAmphorae(tbEnv) ? 'ovn without a monitor (control);amphora-proxy;ovn' : 'ovn without a monitor (control);ovn',
        KAAS_DATAPATH_AMPHORA_EXTRAS: '0',
      });
      process.stderr.write(`[testbed] data-path smoke (edge-datapath) finished (exit ${d}) after ${secs()}\n`);
      if (d !== 0) status = d;
    }
  }
} else if (!workload) {
  process.stderr.write('[testbed] the workload-side edge scenarios (test/testbed/edge-*.test.ts) are not run: KAAS_TESTBED_WORKLOAD=1 runs them\n');
}
// A failed run shows where the peer's Octavia workers' threads were when they were stopped (test/peer/stop.sh
// has each process write its Guru Meditation Report to its .out log): a load balancer left PENDING_* is a flow
// that never finished. Only the reports' stack lines and the headers of their threads and processes are shown.
const peerLog = path.join(dir, 'peer', 'log');
const workerLogs = status === 0 || !fs.existsSync(peerLog) ? [] : fs.readdirSync(peerLog).filter((f) => /^octavia-worker.*\.out$/.test(f)).map((f) => path.join(peerLog, f));
const sizes = new Map(workerLogs.map((f) => [f, fs.statSync(f).size]));
stop();
for (const f of workerLogs) {
  const added = fs.readFileSync(f).subarray(sizes.get(f)).toString('utf8').split('\n').filter((l) => /^(\/\S+\.py:\d+ in |    `|-{6} .*Thread|Process \d+ \(under)/.test(l));
  if (added.length) process.stderr.write(`[testbed] ${f}: the worker's threads when stopped\n${added.slice(0, 1500).join('\n')}\n`);
}
process.exit(status);
