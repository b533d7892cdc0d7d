/**
 * Issue 30 §4, the failures kaas exists to prevent or name, on a real amphora (testbed.env AMPHORA=1;
 * docs/development/amphora-testbed.md), from the internet client namespace:
 *   - a PROXY mismatch in each direction, reached the way a user falls into it: the controller's ConfigMap
 *     edited to `use-proxy-protocol: "false"` under a PROXY load balancer (nginx reads the PROXY line as a
 *     request), and the Service's proxy-protocol annotation removed under an nginx that expects PROXY (OCCM
 *     recreates the pools as TCP: cloud-provider-openstack v1.36.0 pkg/openstack/loadbalancer.go deletes a
 *     pool whose protocol changed); every request fails, `kaas doctor` names `proxy-protocol-mismatch` in
 *     that direction, and `kaas apply-ingress` brings the answers back;
 *   - the monitors-off control: externalTrafficPolicy Local without a health monitor on amphora, as the
 *     seeds had it. haproxy keeps sending to the pod-less node, where kube-proxy drops the packets: a share of
 *     the requests time out, the half-working load balancer, and doctor names etp-local-no-monitor.
 * Registered by edge-datapath.test.ts (the control) and datapath-amphora.ts (the mismatch, in the PROXY row)
 * only on such a testbed; never skipped.
 */
import { beforeAll, describe, expect, test } from '@jest/globals';
import { burst, liveTree, pinController, settle, tally, workers, type Answer, type DataPath } from './datapath-support.js';
import { readLb, serviceWithAddress, type Row } from './lb-rows.js';
import type { LbTree } from './openstack-reader.js';
import { applyEdge, kaas, note, removeIngress, wk, type Testbed } from './workload-support.js';

const NS = 'ingress-nginx';
const SVC = 'ingress-nginx-controller';
const CM = 'ingress-nginx-controller';
const PROXY_ANNOTATION = 'loadbalancer.openstack.org/proxy-protocol';
const MONITOR_ANNOTATION = 'loadbalancer.openstack.org/enable-health-monitor';
const N = 20;

/** What the mismatch tests need of the row they run in (filled by its beforeAll). */
export interface RowContext { tb: Testbed; dp: DataPath; lb: LbTree; fip: string; sets: Record<string, string>; windowMs: number }

interface Finding { check: string; severity: string; message: string }

/** `kaas doctor -o json` with the row's settings: its exit code and findings of one check. */
function doctorSays(c: Pick<RowContext, 'tb' | 'sets'>, check: string): { code: number | null; findings: Finding[] } {
  const d = kaas(c.tb, ['doctor', c.tb.cluster, '-o', 'json'], { sets: c.sets });
  note(c.tb, `doctor exit ${d.code}\n${d.stdout.slice(0, 3000)}`);
  const out = JSON.parse(d.stdout) as { findings: Finding[] };
  return { code: d.code, findings: out.findings.filter((f) => f.check === check) };
}

/**
 * The LB's pools as `<protocol> <provisioning_status>`, sorted. While OCCM deletes and recreates a pool whose
 * protocol changed, a read can meet a pool that is gone (404): that read says so instead of failing the wait.
 */
async function poolProtocols(c: Pick<RowContext, 'tb' | 'lb'>): Promise<string[]> {
  try {
    return (await liveTree(c.tb, c.lb)).pools.map((p) => `${p.protocol} ${p.provisioning_status}`).sort();
  } catch (e) {
    return [`read failed: ${(e as Error).message.slice(0, 200)}`];
  }
}

const allFail = (b: Answer[]) => b.every((a) => !a.ok);
const allFromClient = (c: RowContext) => (b: Answer[]) => b.every((a) => a.ok && a.client === c.dp.clientAddress);

/** `kaas apply-ingress` with the row's settings, then every request answered with the client's own address again. */
async function restore(c: RowContext, what: string, verifyTimeout: string): Promise<void> {
  const r = kaas(c.tb, ['apply-ingress', c.tb.cluster, '--verify-timeout', verifyTimeout], { sets: c.sets, timeoutMs: 1_500_000 });
  note(c.tb, `${what}: restore by apply-ingress exit ${r.code}\n${r.stderr.slice(-2000)}`);
  expect(r.code).toBe(0);
  const b = await settle(c.windowMs, () => burst(c.dp, c.fip, N), allFromClient(c));
  note(c.tb, `${what}: after the restore ${tally(b).join('; ')}`);
  expect(b.filter((a) => !(a.ok && a.client === c.dp.clientAddress))).toEqual([]);
}

/** Registers the two mismatch tests inside the PROXY row's describe block (its LB, pinned controller and settings). */
export function proxyMismatchTests(ctx: () => RowContext): void {
  test('PROXY sent, not expected (the ConfigMap edited to use-proxy-protocol "false"): every request fails, doctor names proxy-protocol-mismatch, apply-ingress restores the answers', async () => {
    const c = ctx();
    wk(c.tb, ['-n', NS, 'patch', 'configmap', CM, '--type', 'merge', '-p', JSON.stringify({ data: { 'use-proxy-protocol': 'false' } })]);
    // The LB is untouched: its pools still send PROXY.
    expect(await poolProtocols(c)).toEqual(['PROXY ACTIVE', 'PROXY ACTIVE']);
    // The data-path loop re-renders nginx from the ConfigMap within a round or two.
    const b = await settle(120_000, () => burst(c.dp, c.fip, N), allFail);
    note(c.tb, `PROXY sent, not expected: ${tally(b).join('; ')}`);
    // nginx read the PROXY line as an HTTP request line and refused it.
    expect(b.filter((a) => !(!a.ok && a.error?.includes('400 Bad Request')))).toEqual([]);
    const d = doctorSays(c, 'proxy-protocol-mismatch');
    expect(d.findings.map((f) => `${f.severity}: ${f.message}`)).toEqual([
      `error: The load balancer of Service ${NS}/${SVC} sends PROXY headers (Service annotation) but ingress-nginx does not expect them: every request fails.`]);
    expect(d.code).not.toBe(0);
    await restore(c, 'PROXY sent, not expected', '300');
  });

  test('PROXY expected, not sent (the Service\'s proxy-protocol annotation removed; OCCM recreates the pools as TCP): every request fails, doctor names proxy-protocol-mismatch, apply-ingress restores the answers', async () => {
    const c = ctx();
    wk(c.tb, ['-n', NS, 'annotate', 'service', SVC, `${PROXY_ANNOTATION}-`]);
    const pools = await settle(900_000, () => poolProtocols(c), (p) => p.length === 2 && p.every((x) => x === 'TCP ACTIVE'), 10_000);
    note(c.tb, `PROXY expected, not sent: pools ${pools.join(', ')}`);
    expect(pools).toEqual(['TCP ACTIVE', 'TCP ACTIVE']);
    const b = await settle(c.windowMs, () => burst(c.dp, c.fip, N), allFail);
    note(c.tb, `PROXY expected, not sent: ${tally(b).join('; ')}`);
    expect(b.filter((a) => a.ok)).toEqual([]);
    const d = doctorSays(c, 'proxy-protocol-mismatch');
    expect(d.findings.map((f) => `${f.severity}: ${f.message}`)).toEqual([
      `error: ingress-nginx expects PROXY headers but the load balancer of Service ${NS}/${SVC} sends none (no proxy-protocol annotation): every request fails.`]);
    expect(d.code).not.toBe(0);
    // OCCM recreates the pools as PROXY, with their monitors, on the amphora: longer than a plain apply.
    await restore(c, 'PROXY expected, not sent', '900');
    expect(await poolProtocols(c)).toEqual(['PROXY ACTIVE', 'PROXY ACTIVE']);
  });
}

/**
 * The monitors-off control on amphora, a row of its own: kaas applies the amphora-monitor row (ETP Local,
 * the health monitor asked by the Service annotation), then the annotation is set to "false" by hand, as
 * a Service without it had it in the seeds; OCCM deletes the monitors (cloud-provider-openstack v1.36.0
 * pkg/openstack/loadbalancer.go ensureOctaviaHealthMonitor). haproxy then round-robins over both members
 * with no health check, so about half of the requests land on the pod-less node, where kube-proxy drops
 * them. 2N = 40 requests: a false pass (none landing there) has probability 2^-40. Doctor must name it.
 */
export const AMPHORA_CONTROL: Row = { variant: 'amphora without a monitor (control)', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'none', hostname: false };

/** Registers the control row's describe block; `tb`/`dp` are filled by edge-datapath's beforeAll. */
export function amphoraControlRow(tbOf: () => Testbed, dpOf: () => DataPath, extraSets: Record<string, string> = {}): void {
  const row = { ...AMPHORA_CONTROL, sets: { ...AMPHORA_CONTROL.sets, ...extraSets } };
  describe(`data path of row ${row.variant} on a real amphora: requests from the internet client to the floating IP`, () => {
    let tb: Testbed;
    let dp: DataPath;
    let lb: LbTree;
    let fip: string;

    beforeAll(async () => {
      tb = tbOf();
      dp = dpOf();
      await removeIngress(tb);
      const runs = await applyEdge(tb, row.variant, row.sets, { full: false, command: 'apply-ingress' });
      expect(runs.dry.code).toBe(0);
      expect(runs.apply.code).toBe(0);
      wk(tb, ['-n', NS, 'annotate', 'service', SVC, '--overwrite', `${MONITOR_ANNOTATION}=false`]);
      const first = await readLb(tb, NS, SVC, 2);
      const ctx = { tb, lb: first };
      const gone = await settle(600_000, () => liveTree(ctx.tb, ctx.lb), (t) => t.pools.every((p) => !p.monitor && p.provisioning_status === 'ACTIVE'), 10_000);
      note(tb, `${row.variant}: monitors ${gone.pools.map((p) => p.monitor?.id ?? 'none').join(', ')}`);
      lb = gone;
      await serviceWithAddress(tb, NS, SVC);
      fip = lb.fips[0].floating_ip_address;
    });

    test('without a monitor (ETP Local), the requests that land on the pod-less node fail: the half-working load balancer; doctor names etp-local-no-monitor', async () => {
      expect(lb.lb.provider).toBe('amphora');
      expect(lb.pools.map((p) => p.monitor)).toEqual(lb.pools.map(() => undefined));
      const [w] = workers(tb);
      await pinController(tb, w.name);
      // Until the pod's node answers and the previous pod (kube-proxy still sends to a terminating local pod) no longer does.
      await settle(180_000, () => burst(dp, fip, 8), (b) => b.some((a) => a.ok && a.node === w.name) && b.every((a) => !a.ok || a.node === w.name));
      const b = burst(dp, fip, 2 * N);
      note(tb, `${row.variant}: ${tally(b).join('; ')}`);
      expect(b.filter((a) => a.ok).length).toBeGreaterThan(0);
      expect(b.filter((a) => a.ok).every((a) => a.node === w.name)).toBe(true);
      expect(b.filter((a) => !a.ok).length).toBeGreaterThan(0);
      const d = doctorSays({ tb, sets: row.sets }, 'etp-local-no-monitor');
      expect(d.findings.map((f) => `${f.severity}: ${f.message}`)).toEqual([
        `error: Service ${NS}/${SVC} has externalTrafficPolicy: Local but its amphora load balancer has no health monitor, so requests that land on nodes without a pod of it are dropped.`]);
      expect(d.code).not.toBe(0);
    });
  });
}
