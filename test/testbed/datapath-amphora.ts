/**
 * Issue 30 §4, the amphora rows of the apply-ingress decision table on real packets (testbed.env AMPHORA=1:
 * the peer's octavia-worker with its real drivers, octavia-health-manager, Nova booting each amphora as a
 * container; docs/development/amphora-testbed.md). Registered by edge-datapath.test.ts only on such a
 * testbed. With the ingress-nginx controller pinned to one of ≥ 2 workers, from the internet client namespace:
 *   - every request to the floating IP is answered by the pod's node (the only pod); with PROXY (rows
 *     amphora-proxy, amphora-proxy-cluster; also through the published `<fip>.nip.io`, resolved by curl
 *     itself, so no DNS leaves the machine) nginx reports the client's own address read from the PROXY header;
 *     without PROXY the client address nginx sees is the amphora's (ETP Local) or a node's (ETP Cluster:
 *     kube-proxy masquerades), never the client's;
 *   - Octavia's members, as the health manager sets them from the agent's heartbeats: with the HTTP monitor
 *     on healthCheckNodePort (ETP Local rows) the pod's node ONLINE, the pod-less node ERROR or OFFLINE;
 *     without a monitor (ETP Cluster rows) every node NO_MONITOR and every node forwards; kaas's verification
 *     after apply-ingress and doctor agree;
 *   - Octavia configured haproxy in the create flow itself: the health manager never failed the LB's
 *     amphora over (octavia 11.0.0 needs the peer's usercustomize.py
 *     fixes for that: docs/development/amphora-testbed.md);
 *   - the pod moves: the answers (and with a monitor the ONLINE member) follow;
 *   - amphora-proxy only: a PROXY mismatch in each direction fails every request and doctor names it
 *     (datapath-amphora-failures.ts), then `kaas check-lb` on amphora passes (its ETP Cluster and Local
 *     Services on amphorae of their own).
 * Not registered (nothing to skip) without AMPHORA=1; selected by name without it, edge-datapath fails.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, test, beforeAll } from '@jest/globals';
import { proxyMismatchTests } from './datapath-amphora-failures.js';
import { hairpinTests } from './datapath-hairpin.js';
import { parseEnvFile } from './env.js';
import { burst, liveTree, pinController, settle, tally, workers, type Answer, type DataPath } from './datapath-support.js';
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

/** Member statuses per pool as `<pool>: <address>=<operating_status>,…` (sorted): what the health manager set. */
const memberStatuses = (lb: LbTree) => lb.pools.map((p) => `${p.name}: ${p.members.map((m) => `${m.address}=${m.operating_status}`).sort().join(',')}`);
/** How long the monitor takes to take a node out or in, plus a health-manager round or two (as edge-datapath's windowMs). */
const windowMs = (lb: LbTree) => 90_000 + Math.max(0, ...lb.pools.map((p) => (p.monitor ? (p.monitor.delay + p.monitor.timeout) * (p.monitor.max_retries_down ?? 3) * 1000 : 0)));
/** Every pool's member at `up` ONLINE, every other member down (ERROR: the health check failed; OFFLINE), hence the LB DEGRADED. */
const onlyUp = (lb: LbTree, up: string) => lb.lb.operating_status === 'DEGRADED' && lb.pools.every((p) => p.members.every((m) => (m.address === up ? m.operating_status === 'ONLINE' : ['ERROR', 'OFFLINE'].includes(m.operating_status))));
/** No monitor: the health manager reports every member NO_MONITOR and the LB ONLINE (haproxy sends to every node). */
const allUnmonitored = (lb: LbTree) => lb.lb.operating_status === 'ONLINE' && lb.pools.every((p) => p.members.every((m) => m.operating_status === 'NO_MONITOR'));

/**
 * What the row's answers must say when the pod runs on `w`: always that node; the client address nginx
 * reports is the internet client's own only with PROXY; the TCP peer is the amphora with ETP Local and,
 * with ETP Cluster, the node that received the request (kube-proxy masquerades: one of `nodeAddresses`).
 */
function expectAnswers(row: Row, answers: Answer[], w: { name: string }, dp: DataPath, amp: Amphora, nodeAddresses: string[]): void {
  expect(answers.filter((a) => !a.ok).map((a) => a.error)).toEqual([]);
  expect([...new Set(answers.map((a) => a.node))]).toEqual([w.name]);
  const clients = [...new Set(answers.map((a) => a.client))];
  const peers = [...new Set(answers.map((a) => a.peer))];
  if (row.etp === 'Local') {
    expect(peers).toEqual([amp.vrrp_ip]);
    expect(clients).toEqual([row.proxy ? dp.clientAddress : amp.vrrp_ip]);
  } else {
    // Masqueraded by the receiving node: its address on the node network, or its pod-network tunnel address.
    for (const p of peers) expect(nodeAddresses).toContain(p);
    if (row.proxy) expect(clients).toEqual([dp.clientAddress]);
    else for (const c of clients) expect(nodeAddresses).toContain(c);
  }
}

/** Every data-path node's own addresses (eth0 on the node network, vxlan.kaas on the pod network): what a masquerading node puts as the source. */
function nodeAddresses(tb: Testbed): string[] {
  const rows = fs.readFileSync(path.join(tb.env.TESTBED_DIR, 'datapath', 'nodes.tsv'), 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t'));
  return rows.flatMap(([, , netns]) => [...(spawnSync('ip', ['-n', netns, '-4', '-o', 'addr', 'show', 'scope', 'global'], { encoding: 'utf8' }).stdout ?? '').matchAll(/\binet (\d+\.\d+\.\d+\.\d+)\//g)].map((m) => m[1]));
}

/** The pod network of the workload testbed (datapath-nodes.sh's CLUSTER_CIDR: KWOK's --cidr). */
function podCidr(tb: Testbed): string {
  const env = parseEnvFile(fs.readFileSync(path.join(tb.env.TESTBED_DIR, 'datapath', 'env'), 'utf8'));
  if (!env.CLUSTER_CIDR) throw new Error(`${tb.env.TESTBED_DIR}/datapath/env has no CLUSTER_CIDR`);
  return env.CLUSTER_CIDR;
}

/**
 * Registers the row's describe block; `tb`/`dp` are filled by edge-datapath's beforeAll. `opts.sets` is added
 * to the row's settings (the cloud of region RegionAmphora on a testbed with AMPHORA=region); `opts.extras`
 * false leaves out the amphora-proxy row's hairpin, PROXY mismatch and check-lb.
 */
export function amphoraRow(row: Row, tbOf: () => Testbed, dpOf: () => DataPath, opts: { sets?: Record<string, string>; extras?: boolean } = {}): void {
  const monitored = row.monitor !== 'none';
  const byName = row.hostname ? ' and to <fip>.nip.io' : '';
  describe(`data path of row ${row.variant} on a real amphora: requests from the internet client to the floating IP${byName}`, () => {
    let tb: Testbed;
    let dp: DataPath;
    let lb: LbTree;
    let fip: string;
    let amp: Amphora;
    let apply: Run;
    let sets: Record<string, string>;

    beforeAll(async () => {
      tb = tbOf();
      dp = dpOf();
      // The cluster's real pod network (KWOK's addresses, the data path's), which kaas trusts for PROXY headers under ETP Cluster.
      sets = { ...row.sets, ...opts.sets, pod_cidr: podCidr(tb) };
      await removeIngress(tb);
      const runs = await applyEdge(tb, row.variant, sets, { full: false, command: 'apply-ingress' });
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

    test(`Octavia built it on one amphora (a Nova server the health manager hears from): ALLOCATED, ${row.proxy ? 'PROXY' : 'TCP'} pools, ${monitored ? 'ACTIVE HTTP monitors on healthCheckNodePort' : 'no monitor'}`, async () => {
      expect(lb.lb.provider).toBe('amphora');
      expect(amp.status).toBe('ALLOCATED');
      expect(amp.compute_id).toMatch(/^[0-9a-f-]{36}$/);
      expect(amp.vrrp_ip).toBeTruthy();
      expect(lb.pools.map((p) => p.protocol)).toEqual(lb.pools.map(() => (row.proxy ? 'PROXY' : 'TCP')));
      expect(lb.pools.map((p) => (p.monitor ? `${p.monitor.type} ${p.monitor.provisioning_status}` : 'none'))).toEqual(lb.pools.map(() => (monitored ? 'HTTP ACTIVE' : 'none')));
    });

    // ("0 listeners" heartbeats between the agent's start and the config upload are logged, not failed over: counted in the note.)
    test('Octavia configured haproxy in the create flow: the health manager never failed the LB\'s amphora over', () => {
      const log = fs.readFileSync(path.join(tb.env.TESTBED_DIR, 'peer', 'log', 'octavia-health-manager.log'), 'utf8').split('\n');
      const failovers = log.filter((l) => l.includes('Performing failover') && l.includes(lb.lb.id));
      const empty = log.filter((l) => l.includes(amp.id) && / reports 0 listeners when /.test(l));
      note(tb, `${row.variant}: health manager on LB ${lb.lb.id} / amphora ${amp.id}: ${failovers.length} failover lines, ${empty.length} "0 listeners" lines`);
      expect(failovers.slice(0, 2)).toEqual([]);
    });

    test('kaas apply-ingress\'s verification passed against the live statuses', () => {
      const text = apply.stderr + apply.stdout;
      expect(checkIds(text).filter((c) => c.startsWith('verify-'))).toEqual([]);
      expect(apply.code).toBe(0);
    });

    const who = row.proxy ? 'the client\'s own address from the PROXY header' : row.etp === 'Local' ? 'the amphora as client (no PROXY)' : 'a node as client (kube-proxy masquerades; no PROXY)';
    const members = monitored ? 'its member ONLINE and the pod-less one down (health manager)' : 'every member NO_MONITOR, every node forwarding';
    test(`pinned to one worker: ${members}; every request answered by the pod's node with ${who}${row.hostname ? ', by IP and by <fip>.nip.io' : ''}`, async () => {
      const [w, other] = workers(tb);
      await pinController(tb, w.name);
      const t = await settle(windowMs(lb), () => liveTree(tb, lb), (x) => (monitored ? onlyUp(x, w.ip) : allUnmonitored(x)));
      note(tb, `${row.variant} pinned to ${w.name} (${w.ip}; pod-less ${other.name} ${other.ip}): LB ${t.lb.operating_status}; members ${memberStatuses(t).join('; ')}`);
      expect(t.pools.map((p) => p.members.map((m) => m.address).sort())).toEqual(t.pools.map(() => [w.ip, other.ip].sort()));
      expect(monitored ? onlyUp(t, w.ip) : allUnmonitored(t)).toBe(true);
      const nodes = nodeAddresses(tb);
      const byIp = await settle(windowMs(lb), () => burst(dp, fip, N), (b) => b.every((a) => a.ok && a.node === w.name));
      const named = row.hostname ? burst(dp, fip, N, `${fip}.nip.io`) : [];
      note(tb, `${row.variant} on ${w.name}: by IP ${tally(byIp).join('; ')}${row.hostname ? `; by ${fip}.nip.io ${tally(named).join('; ')}` : ''} (amphora ${amp.vrrp_ip}, node addresses ${nodes.join(',')})`);
      expect(byIp).toHaveLength(N);
      expectAnswers(row, byIp, w, dp, amp, nodes);
      if (row.hostname) expectAnswers(row, named, w, dp, amp, nodes);
    });

    test('kaas doctor agrees: no error finding about the live LB', () => {
      const d = kaas(tb, ['doctor', tb.cluster, '-o', 'json'], { sets: sets });
      note(tb, `${row.variant}: doctor exit ${d.code}\n${d.stdout.slice(0, 3000)}`);
      const out = JSON.parse(d.stdout) as { findings: { check: string; severity: string; message: string }[] };
      expect(out.findings.filter((f) => f.severity === 'error')).toEqual([]);
    });

    test(`the pod moves to the other worker: ${monitored ? 'the ONLINE member and ' : ''}the answers follow`, async () => {
      const [, w] = workers(tb);
      await pinController(tb, w.name);
      const t = await settle(windowMs(lb), () => liveTree(tb, lb), (x) => (monitored ? onlyUp(x, w.ip) : allUnmonitored(x)));
      note(tb, `${row.variant} moved to ${w.name}: LB ${t.lb.operating_status}; members ${memberStatuses(t).join('; ')}`);
      expect(monitored ? onlyUp(t, w.ip) : allUnmonitored(t)).toBe(true);
      const b = await settle(windowMs(lb), () => burst(dp, fip, N), (x) => x.every((a) => a.ok && a.node === w.name));
      note(tb, `${row.variant} moved to ${w.name}: ${tally(b).join('; ')}`);
      expectAnswers(row, b, w, dp, amp, nodeAddresses(tb));
    });

    if (row.variant !== 'amphora-proxy' || opts.extras === false) return;
    // A pod calling the edge (the hairpin), with the hostname kaas has OCCM publish and with the bare IP (datapath-hairpin.ts).
    hairpinTests(() => ({ tb, dp, lb, fip, ampIp: amp.vrrp_ip, sets: sets, controllerNode: () => workers(tb)[1].name }));
    // The PROXY mismatch in both directions on this LB, each restored by kaas (datapath-amphora-failures.ts).
    proxyMismatchTests(() => ({ tb, dp, lb, fip, sets: sets, windowMs: windowMs(lb) }));

    // Last: its two Services each boot an amphora of their own, on OCCM as the row left it.
    test('kaas check-lb on amphora passes for real (client IPs are not kept for plain Services: skipped)', () => {
      const r = kaas(tb, ['check-lb', tb.cluster, '--tries', String(N), '--address-timeout', '15m', '-o', 'json'], { sets: sets, timeoutMs: 1_800_000 });
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
