/**
 * Issue 30 §4, the amphora PROXY row on real packets (testbed.env AMPHORA=1: the peer's octavia-worker with
 * its real drivers, octavia-health-manager, Nova booting each amphora as a container;
 * docs/development/amphora-testbed.md). Registered by edge-datapath.test.ts only on such a testbed. With
 * the ingress-nginx controller pinned to one of ≥ 2 workers, from the internet client namespace:
 *   - every request to the floating IP, and to the published `<fip>.nip.io` (resolved by curl itself, so no
 *     DNS leaves the machine), is answered by the pod's node only, and nginx reports the client's own
 *     address read from the PROXY header, the TCP peer being the amphora's address on the member network;
 *   - Octavia's members, as the health manager sets them from the agent's heartbeats: the pod's node
 *     ONLINE, the pod-less node ERROR or OFFLINE; kaas's verification after apply-ingress and doctor agree;
 *   - Octavia configured haproxy in the create flow itself: the health manager never failed the LB's
 *     amphora over (octavia 11.0.0 needs the peer's usercustomize.py
 *     fixes for that: docs/development/amphora-testbed.md);
 *   - the pod moves: the ONLINE member and the answers follow;
 *   - a PROXY mismatch in each direction fails every request and doctor names it (datapath-amphora-failures.ts);
 *   - `kaas check-lb` on amphora passes (its ETP Cluster and Local Services on amphorae of their own).
 * Not registered (nothing to skip) without AMPHORA=1; selected by name without it, edge-datapath fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test, beforeAll } from '@jest/globals';
import { proxyMismatchTests } from './datapath-amphora-failures.js';
import { burst, pinController, settle, tally, workers, type DataPath } from './datapath-support.js';
import { readLb, serviceWithAddress, checkIds, type Row } from './lb-rows.js';
import type { LbTree } from './openstack-reader.js';
import { applyEdge, kaas, note, removeIngress, toolHome, type Run, type Testbed } from './workload-support.js';

const N = 20;
const SVC = { ns: 'ingress-nginx', name: 'ingress-nginx-controller' };

/** The amphora of a load balancer as Octavia's admin API shows it (`openstack loadbalancer amphora …`, peer-admin). */
export interface Amphora { id: string; status: string; role: string | null; compute_id: string; lb_network_ip: string; vrrp_ip: string; ha_ip: string }

function admin(tb: Testbed, args: string[]): any {
  const r = spawnSync('openstack', ['--os-cloud', 'peer-admin', ...args, '-f', 'json'], { encoding: 'utf8', timeout: 120_000, env: { PATH: tb.env.PATH, HOME: toolHome(), OS_CLIENT_CONFIG_FILE: tb.env.OS_CLIENT_CONFIG_FILE } });
  if (r.status !== 0) throw new Error(`openstack ${args.join(' ')} (peer-admin): exit ${r.status ?? r.signal}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** The load balancer's amphorae (SINGLE topology: one), each with its addresses and Nova server. */
export function amphoraeOf(tb: Testbed, lbId: string): Amphora[] {
  const list = admin(tb, ['loadbalancer', 'amphora', 'list', '--loadbalancer', lbId]) as { id: string }[];
  return list.map((a) => admin(tb, ['loadbalancer', 'amphora', 'show', a.id]) as Amphora);
}

/** The LB's tree read afresh (LbReader.tree keeps the LB object it is given, with its old operating_status). */
async function liveTree(tb: Testbed, lb: LbTree): Promise<LbTree> {
  const { loadbalancer } = await tb.os.get<{ loadbalancer: LbTree['lb'] }>('load-balancer', `/lbaas/loadbalancers/${lb.lb.id}`);
  return tb.os.tree(loadbalancer);
}

/** Member statuses per pool as `<pool>: <address>=<operating_status>,…` (sorted): what the health manager set. */
const memberStatuses = (lb: LbTree) => lb.pools.map((p) => `${p.name}: ${p.members.map((m) => `${m.address}=${m.operating_status}`).sort().join(',')}`);
/** How long the monitor takes to take a node out or in, plus a health-manager round or two (as edge-datapath's windowMs). */
const windowMs = (lb: LbTree) => 90_000 + Math.max(0, ...lb.pools.map((p) => (p.monitor ? (p.monitor.delay + p.monitor.timeout) * (p.monitor.max_retries_down ?? 3) * 1000 : 0)));
/** Every pool's member at `up` ONLINE, every other member down (ERROR: the health check failed; OFFLINE), hence the LB DEGRADED. */
const onlyUp = (lb: LbTree, up: string) => lb.lb.operating_status === 'DEGRADED' && lb.pools.every((p) => p.members.every((m) => (m.address === up ? m.operating_status === 'ONLINE' : ['ERROR', 'OFFLINE'].includes(m.operating_status))));

/** Registers the row's describe block; `tb`/`dp` are filled by edge-datapath's beforeAll. */
export function amphoraProxyRow(row: Row, tbOf: () => Testbed, dpOf: () => DataPath): void {
  describe(`data path of row ${row.variant} on a real amphora: requests from the internet client to the floating IP and to <fip>.nip.io`, () => {
    let tb: Testbed;
    let dp: DataPath;
    let lb: LbTree;
    let fip: string;
    let amp: Amphora;
    let apply: Run;

    beforeAll(async () => {
      tb = tbOf();
      dp = dpOf();
      await removeIngress(tb);
      const runs = await applyEdge(tb, row.variant, row.sets, { full: false, command: 'apply-ingress' });
      expect(runs.dry.code).toBe(0);
      apply = runs.apply;
      lb = await readLb(tb, SVC.ns, SVC.name, 2);
      await serviceWithAddress(tb, SVC.ns, SVC.name);
      fip = lb.fips[0].floating_ip_address;
      const amps = amphoraeOf(tb, lb.lb.id);
      note(tb, `${row.variant}: apply-ingress exit ${apply.code}; LB ${lb.lb.id} ${lb.lb.provisioning_status}/${lb.lb.operating_status}; amphorae ${JSON.stringify(amps)}; members ${memberStatuses(lb).join('; ')}`);
      expect(amps).toHaveLength(1);
      amp = amps[0];
    });

    test('Octavia built it on one amphora (a Nova server the health manager hears from): ALLOCATED, PROXY pools, ACTIVE HTTP monitors on healthCheckNodePort', async () => {
      expect(lb.lb.provider).toBe('amphora');
      expect(amp.status).toBe('ALLOCATED');
      expect(amp.compute_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(amp.vrrp_ip).toBeTruthy();
      expect(lb.pools.map((p) => p.protocol)).toEqual(['PROXY', 'PROXY']);
      expect(lb.pools.map((p) => `${p.monitor?.type} ${p.monitor?.provisioning_status}`)).toEqual(['HTTP ACTIVE', 'HTTP ACTIVE']);
    });

    // ("0 listeners" heartbeats between the agent's start and the config upload are logged, not failed over: counted in the note.)
    test('Octavia configured haproxy in the create flow: the health manager never failed the LB\'s amphora over', () => {
      const log = fs.readFileSync(path.join(tb.env.TESTBED_DIR, 'peer', 'log', 'octavia-health-manager.log'), 'utf8').split('\n');
      const failovers = log.filter((l) => l.includes('Performing failover') && l.includes(lb.lb.id));
      const empty = log.filter((l) => l.includes(amp.id) && / reports 0 listeners when /.test(l));
      note(tb, `${row.variant}: health manager on LB ${lb.lb.id} / amphora ${amp.id}: ${failovers.length} failover lines, ${empty.length} "0 listeners" lines`);
      expect(failovers.slice(0, 2)).toEqual([]);
    });

    test('kaas apply-ingress\'s verification passed against the live statuses (members ONLINE exactly where the controller pods ran)', () => {
      const text = apply.stderr + apply.stdout;
      expect(checkIds(text).filter((c) => c.startsWith('verify-'))).toEqual([]);
      expect(apply.code).toBe(0);
    });

    test('pinned to one worker: its member ONLINE and the pod-less one down (health manager), every request answered by it with the client\'s own address from the PROXY header, by IP and by <fip>.nip.io', async () => {
      const [w, other] = workers(tb);
      await pinController(tb, w.name);
      const t = await settle(windowMs(lb), () => liveTree(tb, lb), (x) => onlyUp(x, w.ip));
      note(tb, `${row.variant} pinned to ${w.name} (${w.ip}; pod-less ${other.name} ${other.ip}): LB ${t.lb.operating_status}; members ${memberStatuses(t).join('; ')}`);
      expect(t.pools.map((p) => p.members.map((m) => m.address).sort())).toEqual(t.pools.map(() => [w.ip, other.ip].sort()));
      expect(onlyUp(t, w.ip)).toBe(true);
      const who = `node=${w.name} client=${dp.clientAddress} peer=${amp.vrrp_ip}`;
      const byIp = await settle(windowMs(lb), () => burst(dp, fip, N), (b) => b.every((a) => a.ok && a.node === w.name));
      const byName = burst(dp, fip, N, `${fip}.nip.io`);
      note(tb, `${row.variant} on ${w.name}: by IP ${tally(byIp).join('; ')}; by ${fip}.nip.io ${tally(byName).join('; ')}`);
      expect(tally(byIp)).toEqual([`${N} ${who}`]);
      expect(tally(byName)).toEqual([`${N} ${who}`]);
    });

    test('kaas doctor agrees: no error finding about the live LB', () => {
      const d = kaas(tb, ['doctor', tb.cluster, '-o', 'json'], { sets: row.sets });
      note(tb, `${row.variant}: doctor exit ${d.code}\n${d.stdout.slice(0, 3000)}`);
      const out = JSON.parse(d.stdout) as { findings: { check: string; severity: string; message: string }[] };
      expect(out.findings.filter((f) => f.severity === 'error')).toEqual([]);
    });

    test('the pod moves to the other worker: the ONLINE member and the answers follow', async () => {
      const [, w] = workers(tb);
      await pinController(tb, w.name);
      const t = await settle(windowMs(lb), () => liveTree(tb, lb), (x) => onlyUp(x, w.ip));
      note(tb, `${row.variant} moved to ${w.name}: LB ${t.lb.operating_status}; members ${memberStatuses(t).join('; ')}`);
      expect(onlyUp(t, w.ip)).toBe(true);
      const b = await settle(windowMs(lb), () => burst(dp, fip, N), (x) => x.every((a) => a.ok && a.node === w.name));
      note(tb, `${row.variant} moved to ${w.name}: ${tally(b).join('; ')}`);
      expect(tally(b)).toEqual([`${N} node=${w.name} client=${dp.clientAddress} peer=${amp.vrrp_ip}`]);
    });

    // The PROXY mismatch in both directions on this LB, each restored by kaas (datapath-amphora-failures.ts).
    proxyMismatchTests(() => ({ tb, dp, lb, fip, sets: row.sets, windowMs: windowMs(lb) }));

    // Last: its two Services each boot an amphora of their own, on OCCM as the row left it.
    test('kaas check-lb on amphora passes for real (client IPs are not kept for plain Services: skipped)', () => {
      const r = kaas(tb, ['check-lb', tb.cluster, '--tries', String(N), '--address-timeout', '15m', '-o', 'json'], { sets: row.sets, timeoutMs: 1_800_000 });
      note(tb, `check-lb on amphora exit ${r.code}\n${r.stdout.slice(0, 3000)}\n${r.stderr.slice(-2000)}`);
      const report = JSON.parse(r.stdout) as { provider: string; checks: { check: string; result: string; detail: string }[] };
      expect(report.provider).toBe('amphora');
      expect(report.checks.map((c) => `${c.check} ${c.result}${c.result === 'pass' ? '' : `: ${c.detail}`}`)).toEqual([
        'cluster-answers pass', 'local-answers pass',
        'local-client-ip skipped: the plan does not keep client IPs for plain Services (amphora proxies TCP; only PROXY protocol, which vanilla Services do not ask for, carries them)',
        'local-podless-nodes pass']);
      expect(r.code).toBe(0);
    });
  });
}
