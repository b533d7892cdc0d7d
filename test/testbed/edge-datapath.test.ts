/**
 * Issue 29, what kaas must hold once packets flow (testbed.env DATAPATH=1: OVN with ovn-controller, a
 * kube-proxy per node, the pods' programs — test/testbed/datapath-nodes.sh): for the rows of the
 * apply-ingress decision table that run on ovn, and a control row without a monitor, requests from a
 * client namespace that stands for the internet (CLIENT_NETNS, which reaches floating IPs only through
 * the external network) to the Service's floating IP, with the ingress-nginx controller pinned to one of
 * ≥ 2 workers:
 *   - after the monitor's window every request is answered, by that node only, and the backend sees the
 *     client's own address; Octavia's members are ONLINE exactly for that node; the pod moves, the
 *     answers and the ONLINE member follow;
 *   - OCCM's default one-call (fully populated) create: the fixed provider makes the monitors ACTIVE;
 *     3.0.0 never makes them (PENDING_CREATE for ever, Launchpad bug 1997094) and kaas's verification must
 *     name that and its fix (provider-requires-serial-api-calls), with which the 3.0.0 rows then run;
 *   - on ovn-octavia-provider 3.0.0 (Debian's; no health check on the floating-IP VIP, Launchpad bug
 *     1997418) the members follow the pod but a share of the requests through the floating IP still
 *     time out — and `kaas check-lb` must say so, naming the cause and the fix;
 *   - the control row (monitors off, externalTrafficPolicy: Local as the seeds had it): requests that land
 *     on the pod-less node fail — the failure kaas exists to prevent.
 * With real amphorae (testbed.env AMPHORA=1: KAAS_TESTBED_AMPHORA=1) also the amphora rows of the table
 * (datapath-amphora.ts: client IP from the PROXY header, pod-less node out by the health manager), the
 * monitors-off control on amphora (datapath-amphora-failures.ts) and the kube-API load balancer with
 * restrict_kubeapi on real traffic (datapath-kubeapi.ts). With AMPHORA=region (KAAS_TESTBED_AMPHORA=region:
 * only region RegionAmphora's load balancers are real amphorae, npm test's smoke) the same amphora rows, each
 * applied with the cloud of that region (testbed.env AMPHORA_CLOUD), and no kube-API row (the kube-API LB is
 * RegionOne's, no-op). KAAS_DATAPATH_AMPHORA_EXTRAS=0 leaves out the amphora-proxy row's hairpin, PROXY
 * mismatch and check-lb (the smoke's budget).
 * Selected without the data path, it fails (dataPath throws in beforeAll); it never skips.
 */
import fs from 'node:fs';
import { jest } from '@jest/globals';
import { amphoraRow } from './datapath-amphora.js';
import { AMPHORA_CONTROL, amphoraControlRow } from './datapath-amphora-failures.js';
import { KUBEAPI_ROW, kubeApiRow } from './datapath-kubeapi.js';
import { burst, dataPath, fipHealthChecked, fromNode, monitorOff, pinController, settle, tally, workers, type Answer, type DataPath } from './datapath-support.js';
import { amphoraRegionCloud, parseEnvFile, realAmphorae } from './env.js';
import { INGRESS_ROWS } from './ingress-rows.js';
import { readLb, serviceWithAddress, type Row } from './lb-rows.js';
import type { LbTree } from './openstack-reader.js';
import { applyEdge, kaas, note, removeIngress, testbed, until, wk, type Testbed } from './workload-support.js';

jest.setTimeout(40 * 60_000);

const N = 20;
const SVC = { ns: 'ingress-nginx', name: 'ingress-nginx-controller' };
/**
 * Monitors off: OCCM makes no monitor for ovn, and the Service is switched to ETP Local in the test. kaas
 * refuses to render that (create-monitor=false contradicts the ovn plan), so the control row's cloud.conf is
 * the ovn row's with the monitor switched off by hand, and apply-ingress runs with --force.
 */
const CONTROL: Row = { variant: 'ovn without a monitor (control)', sets: { use_ovn_lb_provider: 'true' }, provider: 'ovn', proxy: false, etp: 'Cluster', monitor: 'none', hostname: false };
/** kaas's fix for ovn-octavia-provider < 3.1.0 (bug 1997094): OCCM creates each monitor in a call of its own. */
const SERIAL = '{provider-requires-serial-api-calls: "true"}';
// Issue 30: on a testbed with real amphorae (testbed.env AMPHORA=1 or region) the amphora rows too
// (datapath-amphora.ts); without them they do not exist here.
const TB_ENV = readTestbedEnv();
const AMPHORA = realAmphorae(TB_ENV);
/** AMPHORA=region: the clouds.yaml entry whose load balancers are real amphorae, set on every amphora row. */
const REGION_CLOUD = amphoraRegionCloud(TB_ENV);
const AMPHORA_SETS: Record<string, string> = REGION_CLOUD ? { cloud: REGION_CLOUD } : {};
const AMPHORA_EXTRAS = process.env.KAAS_DATAPATH_AMPHORA_EXTRAS !== '0';
/** Not an ingress row: the workload cluster's own kube-API LB (CAPO's, pinned to amphora) and restrict_kubeapi on it (datapath-kubeapi.ts). */
const KUBEAPI: Row = { variant: KUBEAPI_ROW, sets: {}, provider: 'amphora', proxy: false, etp: 'Cluster', monitor: 'none', hostname: false };
// The kube-API first: its create-cluster runs re-apply the environment's add-ons, which each ingress row then replaces with its own.
// amphora-proxy first of the ingress rows (its PROXY mismatch and check-lb as before), then the other amphora rows of the table.
const AMPHORA_INGRESS = INGRESS_ROWS.filter((r) => r.provider === 'amphora' && !r.reason).sort((a, b) => Number(b.variant === 'amphora-proxy') - Number(a.variant === 'amphora-proxy'));
const AMPHORA_ROWS = AMPHORA ? [...(TB_ENV.AMPHORA === '1' ? [KUBEAPI] : []), ...AMPHORA_INGRESS, AMPHORA_CONTROL] : [];
// The control first, then the amphora row: the ovn rows then leave OCCM with monitors on, and on ovn, for check-lb at the end.
const ALL: Row[] = [CONTROL, ...AMPHORA_ROWS, ...INGRESS_ROWS.filter((r) => r.provider === 'ovn')];
// KAAS_DATAPATH_ROWS='variant;…' runs only those rows (check-lb at the end always runs); a name that is no row fails the file.
const only = process.env.KAAS_DATAPATH_ROWS?.split(';').map((v) => v.trim()).filter(Boolean);
const ROWS = only ? ALL.filter((r) => only.includes(r.variant)) : ALL;
if (only && ROWS.length !== only.length) throw new Error(`KAAS_DATAPATH_ROWS names rows that do not exist: ${only.filter((v) => !ALL.some((r) => r.variant === v)).join(', ')} (rows: ${ALL.map((r) => r.variant).join('; ')}${AMPHORA ? (REGION_CLOUD ? `; ${KUBEAPI_ROW} needs the kube-API through an amphora: KAAS_TESTBED_AMPHORA=1` : '') : `; ${[KUBEAPI_ROW, ...INGRESS_ROWS.filter((r) => r.provider === 'amphora' && !r.reason).map((r) => r.variant), AMPHORA_CONTROL.variant].join(', ')} need real amphorae: KAAS_TESTBED_AMPHORA=1 (or region)`})`);

/** testbed.env as a map, read at load time (the rows depend on it); empty when KAAS_TESTBED_ENV is unset (beforeAll then fails). */
function readTestbedEnv(): Record<string, string> {
  const file = process.env.KAAS_TESTBED_ENV;
  return file && fs.existsSync(file) ? parseEnvFile(fs.readFileSync(file, 'utf8')) : {};
}

let tb: Testbed;
let dp: DataPath;

beforeAll(async () => {
  tb = testbed();
  dp = dataPath(tb);
  note(tb, `edge-datapath: client ${dp.clientNetns} ${dp.clientAddress}, ovn-octavia-provider ${dp.providerVersion}`);
  // A freshly started workload side (create-cluster --no-wait) may not have its worker Nodes yet.
  await until('two worker Nodes on the workload side', 900_000, () => workers(tb).length >= 2);
});

/** How long the row's monitor takes to take a node out or in: (delay + timeout) × max_retries_down per pool, plus the provider agent's status round. */
const windowMs = (lb: LbTree) => 60_000 + Math.max(0, ...lb.pools.map((p) => (p.monitor ? (p.monitor.delay + p.monitor.timeout) * (p.monitor.max_retries_down ?? 3) * 1000 : 0)));
/** Every member ONLINE exactly at `ip`, per pool: what Octavia must say. */
const onlineAt = (lb: LbTree) => lb.pools.map((p) => `${p.name}: ${p.members.filter((m) => m.operating_status === 'ONLINE').map((m) => m.address).sort().join(',')}`);
const allFrom = (answers: Answer[], node: string) => answers.every((a) => a.ok && a.node === node);

for (const row of ROWS) {
  if (row === KUBEAPI) {
    kubeApiRow(() => tb, () => dp);
    continue;
  }
  if (row === AMPHORA_CONTROL) {
    amphoraControlRow(() => tb, () => dp, AMPHORA_SETS);
    continue;
  }
  if (row.provider === 'amphora') {
    amphoraRow(row, () => tb, () => dp, { sets: AMPHORA_SETS, extras: AMPHORA_EXTRAS });
    continue;
  }
  describe(`data path of row ${row.variant}: requests from the internet client to the floating IP`, () => {
    let lb: LbTree;
    let fip: string;
    const control = row === CONTROL;

    let oneCall: { apply: { code: number | null; stderr: string }; monitors: (string | undefined)[] } | undefined;

    beforeAll(async () => {
      await removeIngress(tb);
      let runs = await applyEdge(tb, row.variant, row.sets, { full: false, command: 'apply-ingress', ...(control ? { extra: ['--force'], handEdit: monitorOff } : {}) });
      expect(runs.dry.code).toBe(0);
      if (!control) {
        // OCCM's default: the whole tree in one call. What the provider made of the monitors, and what kaas said.
        const first = await readLb(tb, SVC.ns, SVC.name, 2);
        oneCall = { apply: runs.apply, monitors: first.pools.map((p) => p.monitor?.provisioning_status) };
        note(tb, `${row.variant}, one-call create: monitors ${oneCall.monitors.join(',')}, apply-ingress exit ${runs.apply.code}`);
        if (!fipHealthChecked(dp.providerVersion)) {
          // 3.0.0 (bug 1997094): the row runs with kaas's fix, a monitor call of its own, on a new LB.
          await removeIngress(tb);
          runs = await applyEdge(tb, `${row.variant} (serial calls)`, { ...row.sets, occm_loadbalancer: SERIAL }, { full: false, command: 'apply-ingress' });
          expect(runs.dry.code).toBe(0);
        }
      }
      // kaas names the missing monitor even when told to go ahead.
      if (control) expect(runs.apply.stderr).toContain('--force: the plan relies on cloud.conf create-monitor=true for health monitors');
      if (control) wk(tb, ['-n', SVC.ns, 'patch', 'service', SVC.name, '--type', 'merge', '-p', '{"spec":{"externalTrafficPolicy":"Local"}}']);
      lb = await readLb(tb, SVC.ns, SVC.name, 2);
      await serviceWithAddress(tb, SVC.ns, SVC.name);
      fip = lb.fips[0].floating_ip_address;
    });

    if (control) {
      test('without a monitor, the requests that land on the pod-less node fail', async () => {
        expect(lb.pools.map((p) => p.monitor)).toEqual(lb.pools.map(() => undefined));
        const [w] = workers(tb);
        await pinController(tb, w.name);
        // Wait until the pod's node answers and the previous pod (on another node: kube-proxy still sends a
        // Local node's traffic to its terminating pod, and the plumber stops it within a round) no longer does, then count.
        await settle(120_000, () => burst(dp, fip, 8), (b) => b.some((a) => a.ok && a.node === w.name) && b.every((a) => !a.ok || a.node === w.name));
        const b = burst(dp, fip, 2 * N);
        note(tb, `${row.variant}: ${tally(b).join('; ')}`);
        expect(b.filter((a) => a.ok).every((a) => a.node === w.name)).toBe(true);
        expect(b.filter((a) => !a.ok).length).toBeGreaterThan(0);
      });
      return;
    }

    test('OCCM\'s one-call create: the fixed provider makes the monitors ACTIVE; 3.0.0 leaves them PENDING_CREATE and kaas names Launchpad bug 1997094 with the fix', () => {
      const o = oneCall!;
      if (fipHealthChecked(dp.providerVersion)) {
        expect(o.monitors).toEqual(['ACTIVE', 'ACTIVE']);
        expect(o.apply.code).toBe(0);
      } else {
        expect(o.monitors).toEqual(['PENDING_CREATE', 'PENDING_CREATE']);
        expect(o.apply.code).not.toBe(0);
        expect(o.apply.stderr).toMatch(/PENDING_CREATE beside its ACTIVE load balancer: ovn-octavia-provider before 3\.1\.0 .*Launchpad bug 1997094/);
        expect(o.apply.stderr).toContain('provider-requires-serial-api-calls: "true"');
      }
    });

    test('pinned to one worker: after the monitor\'s window Octavia has exactly its member ONLINE, every request is answered by it with the client\'s own address (provider ≥ 3.1.2; on 3.0.0 a share through the floating IP still times out)', async () => {
      const [w] = workers(tb);
      await pinController(tb, w.name);
      const members = await settle(windowMs(lb), async () => onlineAt(await tb.os.tree(lb.lb)), (o) => o.every((l) => l.endsWith(`: ${w.ip}`)));
      expect(members).toEqual(lb.pools.map((p) => `${p.name}: ${w.ip}`));
      const who = `node=${w.name} client=${dp.clientAddress} peer=${dp.clientAddress}`;
      const b = await settle(windowMs(lb), () => burst(dp, fip, N), (x) => allFrom(x, w.name));
      note(tb, `${row.variant} on ${w.name}: ${tally(b).join('; ')}`);
      if (fipHealthChecked(dp.providerVersion)) expect(tally(b)).toEqual([`${N} ${who}`]);
      else {
        // Bug 1997418: the monitor took the pod-less node out for the VIP only.
        expect(b.filter((a) => a.ok).every((a) => a.node === w.name && a.client === dp.clientAddress)).toBe(true);
        expect(b.filter((a) => !a.ok).map((a) => a.error)).toContain('timeout');
      }
    });

    test('the pod moves to another worker: the ONLINE member and the answers follow within the monitor\'s window', async () => {
      const [, w] = workers(tb);
      await pinController(tb, w.name);
      const members = await settle(windowMs(lb), async () => onlineAt(await tb.os.tree(lb.lb)), (o) => o.every((l) => l.endsWith(`: ${w.ip}`)));
      expect(members).toEqual(lb.pools.map((p) => `${p.name}: ${w.ip}`));
      const b = await settle(windowMs(lb), () => burst(dp, fip, N), (x) => allFrom(x, w.name));
      note(tb, `${row.variant} moved to ${w.name}: ${tally(b).join('; ')}`);
      if (fipHealthChecked(dp.providerVersion)) expect(tally(b)).toEqual([`${N} node=${w.name} client=${dp.clientAddress} peer=${dp.clientAddress}`]);
      else expect(b.filter((a) => a.ok).every((a) => a.node === w.name)).toBe(true);
    });
  });
}

// The pod network between nodes (datapath-tunnel.sh): kube-proxy on a node without the pod forwards to the pod
// on another node, encapsulated as Calico does, so only node addresses cross the cloud's port security.
// Without it ETP Cluster's forwards timed out, and check-lb's cluster-answers failed by chance (CI, 2026-11-27).
test('pod network: from the worker without the controller, its Service\'s ClusterIP answers through the tunnel; the pod sees that node\'s tunnel address', () => {
  const pod = JSON.parse(wk(tb, ['-n', SVC.ns, 'get', 'pods', '-l', 'app.kubernetes.io/component=controller', '-o', 'json'])).items[0];
  const other = workers(tb).find((w) => w.name !== pod.spec.nodeName)!;
  const clusterIp = JSON.parse(wk(tb, ['-n', SVC.ns, 'get', 'service', SVC.name, '-o', 'json'])).spec.clusterIP as string;
  const answers = Array.from({ length: 5 }, () => fromNode(tb, other.name, `http://${clusterIp}/`));
  note(tb, `pod network from ${other.name} to ${clusterIp}: ${tally(answers).join('; ')}`);
  expect(answers[0].tunnelAddress).toMatch(/^10\.244\.\d+\.\d+$/);
  expect(tally(answers)).toEqual([`5 node=${pod.spec.nodeName} client=${answers[0].tunnelAddress} peer=${answers[0].tunnelAddress}`]);
});

test('kaas check-lb on ovn: passes for real with the fixed provider; on 3.0.0 fails naming the floating-IP cause and the fix', () => {
  const r = kaas(tb, ['check-lb', tb.cluster, '--tries', String(N), '--address-timeout', '10m', '-o', 'json'], { sets: { use_ovn_lb_provider: 'true', ...(fipHealthChecked(dp.providerVersion) ? {} : { occm_loadbalancer: SERIAL }) } });
  note(tb, `check-lb (provider ${dp.providerVersion}) exit ${r.code}\n${r.stdout.slice(0, 3000)}\n${r.stderr.slice(-2000)}`);
  const report = JSON.parse(r.stdout) as { provider: string; checks: { check: string; result: string; detail: string }[] };
  expect(report.provider).toBe('ovn');
  const by = Object.fromEntries(report.checks.map((c) => [c.check, c]));
  if (fipHealthChecked(dp.providerVersion)) {
    // With the detail, so that a failure in CI says what failed (the scenario log stays on the machine).
    expect(report.checks.map((c) => `${c.check} ${c.result}${c.result === 'pass' ? '' : `: ${c.detail}`}`)).toEqual(['cluster-answers pass', 'local-answers pass', 'local-client-ip pass', 'local-podless-nodes pass']);
    expect(r.code).toBe(0);
  } else {
    expect(r.code).toBe(1);
    expect(by['local-podless-nodes'].result).toBe('pass');
    expect(by['local-answers'].result).toBe('fail');
    expect(by['local-answers'].detail).toMatch(/Launchpad bug 1997418.*upgrade ovn-octavia-provider.*use_ovn_lb_provider: false/);
  }
});
