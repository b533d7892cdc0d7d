/**
 * Issue 30 §3 and §5 on real packets: the workload cluster's kube-API load balancer, which CAPO built and
 * kaas pins to amphora, on a testbed with real amphorae (testbed.env AMPHORA=1). Its member is the
 * control-plane node's :6443, which the data path serves in that node's "VM" namespace as kubeadm's static
 * kube-apiserver pod would (datapath-nodes.sh: a DNAT there to the workload apiserver), so a request to the
 * API floating IP from the internet client namespace goes client → OVN router (floating IP) → the amphora's
 * VIP → haproxy → the control-plane node → the real kube-apiserver. Then `restrict_kubeapi`, the setting's
 * security claim, on that traffic:
 *   - open (`restrict_kubeapi: []`): kubectl from the internet client reaches the apiserver through the
 *     amphora (the apiserver's own /version, over its certificate of the cluster CA);
 *   - restricted to a second address of the client namespace by `kaas create-cluster` on the live cluster:
 *     CAPO puts it on the listener's allowed_cidrs, Octavia on the VIP's security group, OVN's ACLs drop
 *     the client's own address (every request times out) and admit the allowed one (every request answered);
 *   - open again by kaas: the client's own address is answered again.
 * With real amphorae the floating IP is not an address of the testbed namespace (workload.sh: the apiserver
 * listens on a link-local address the harness uses), so CAPI's cluster cache, KCP and kaas (the Cluster's
 * kubeconfig Secret, workload.kubeconfig) reach the workload cluster through this amphora too, from the
 * management host's address, which kaas always puts on the allow-list: while restricted they still do.
 * Registered by edge-datapath.test.ts only with AMPHORA=1.
 */
import { spawnSync } from 'node:child_process';
import { beforeAll, describe, expect, test } from '@jest/globals';
import { countOutcomes, settle, type DataPath } from './datapath-support.js';
import type { LbTree } from './openstack-reader.js';
import { kaas, note, until, type Testbed } from './workload-support.js';

export const KUBEAPI_ROW = 'kube-API load balancer (amphora): the apiserver through it, restrict_kubeapi';
const N = 10;

/** The workload cluster's `kind` object (openstackcluster, cluster) as the management cluster stores it. */
function mgmtObject(tb: Testbed, kind: string): any {
  const r = spawnSync('kubectl', ['--kubeconfig', tb.env.MGMT_KUBECONFIG, '-n', tb.env.WORKLOAD_NAMESPACE, 'get', kind, tb.cluster, '-o', 'json'], { encoding: 'utf8', env: { PATH: tb.env.PATH, HOME: tb.dir }, timeout: 60_000 });
  if (r.status !== 0) throw new Error(`kubectl get ${kind} ${tb.cluster}: ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** `kubectl get --raw /version` with `kubeconfig` from the testbed namespace (where jest runs), or through `netns`. */
function version(tb: Testbed, kubeconfig: string, o: { netns?: string; server?: string } = {}): { code: number | null; out: string } {
  const args = ['--kubeconfig', kubeconfig, ...(o.server ? ['--server', o.server] : []), '--request-timeout', '5s', 'get', '--raw', '/version'];
  const r = o.netns
    ? spawnSync('ip', ['netns', 'exec', o.netns, 'kubectl', ...args], { encoding: 'utf8', env: { PATH: tb.env.PATH, HOME: tb.dir }, timeout: 60_000 })
    : spawnSync('kubectl', args, { encoding: 'utf8', env: { PATH: tb.env.PATH, HOME: tb.dir }, timeout: 60_000 });
  return { code: r.status, out: r.status === 0 ? (JSON.parse(r.stdout).gitVersion as string) : `${r.stderr}`.replace(/\s+/g, ' ').slice(0, 300) };
}

/** The management cluster's view: the Cluster's RemoteConnectionProbe (CAPI's cluster cache reaching the workload apiserver). */
function remoteProbe(tb: Testbed): string {
  let cluster: any;
  try { cluster = mgmtObject(tb, 'cluster'); } catch (e) { return `read failed: ${(e as Error).message.slice(0, 200)}`; }
  const c = (cluster.status?.conditions ?? []).find((x: any) => x.type === 'RemoteConnectionProbe');
  return c ? `${c.status} ${c.reason ?? ''}`.trim() : 'no RemoteConnectionProbe condition';
}

/** Whether `addr` is an address of the testbed namespace (where jest runs). */
const isLocal = (addr: string) => (spawnSync('ip', ['-4', '-o', 'addr', 'show'], { encoding: 'utf8' }).stdout ?? '').includes(` ${addr}/`);

/** One HTTPS request from the client namespace, from source address `from`: the HTTP status, or why there was none. */
function apiRequest(dp: DataPath, from: string, fip: string): string {
  const r = spawnSync('ip', ['netns', 'exec', dp.clientNetns, 'curl', '-sk', '--max-time', '3', '--interface', from, '-o', '/dev/null', '-w', '%{http_code}', `https://${fip}:6443/version`], { encoding: 'utf8', timeout: 15_000 });
  if (r.status === 0) return `http ${r.stdout.trim()}`;
  return r.status === 28 ? 'timeout' : `curl exit ${r.status ?? r.signal}`;
}

/** `n` requests from `from`, tallied by countOutcomes (`10 http 200`, `10 timeout`). */
const tallyFrom = (dp: DataPath, from: string, fip: string, n = N): string[] => countOutcomes(Array.from({ length: n }, () => apiRequest(dp, from, fip)));

/** The address next to the client's own on the external network, added to the client namespace: the one restrict_kubeapi allows. */
function allowedAddress(tb: Testbed, dp: DataPath): string {
  const o = dp.clientAddress.split('.').map(Number);
  const addr = [...o.slice(0, 3), o[3] + 1].join('.');
  const prefix = tb.env.TESTBED_EXTERNAL_CIDR.split('/')[1];
  const has = spawnSync('ip', ['-n', dp.clientNetns, '-4', '-o', 'addr', 'show', 'dev', 'eth0'], { encoding: 'utf8' }).stdout ?? '';
  if (!has.includes(`inet ${addr}/`)) {
    const r = spawnSync('ip', ['-n', dp.clientNetns, 'addr', 'add', `${addr}/${prefix}`, 'dev', 'eth0'], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`ip -n ${dp.clientNetns} addr add ${addr}/${prefix}: ${r.stderr}`);
  }
  return addr;
}

/** The API listener's allowed_cidrs as Octavia has them (ACTIVE), or undefined while it is being updated. */
async function apiListenerCidrs(tb: Testbed, lbId: string): Promise<string[] | undefined> {
  const { listeners } = await tb.os.get<{ listeners: any[] }>('load-balancer', `/lbaas/listeners?loadbalancer_id=${lbId}`);
  const api = listeners.find((l) => l.protocol_port === 6443);
  return api && api.provisioning_status === 'ACTIVE' ? ((api.allowed_cidrs ?? []) as string[]).sort() : undefined;
}

/** `kaas create-cluster <cluster> --no-wait` with restrict_kubeapi set: the live cluster's OpenStackCluster changes, nothing else. */
function restrict(tb: Testbed, value: string): void {
  const r = kaas(tb, ['create-cluster', tb.cluster, '--no-wait'], { sets: { restrict_kubeapi: value }, timeoutMs: 900_000 });
  note(tb, `create-cluster ${tb.cluster} restrict_kubeapi=${value}: exit ${r.code}\n${r.stderr.slice(-2500)}`);
  expect(r.code).toBe(0);
}

/** Registers the block; `tb`/`dp` are filled by edge-datapath's beforeAll. */
export function kubeApiRow(tbOf: () => Testbed, dpOf: () => DataPath): void {
  describe(`${KUBEAPI_ROW}: requests from the internet client to the API floating IP`, () => {
    let tb: Testbed;
    let dp: DataPath;
    let lb: LbTree;
    let fip: string;
    let allowed: string;

    beforeAll(async () => {
      tb = tbOf();
      dp = dpOf();
      allowed = allowedAddress(tb, dp);
      const osc = mgmtObject(tb, 'openstackcluster');
      fip = osc.status.apiServerLoadBalancer.ip;
      const { loadbalancer } = await tb.os.get<{ loadbalancer: LbTree['lb'] }>('load-balancer', `/lbaas/loadbalancers/${osc.status.apiServerLoadBalancer.id}`);
      lb = await tb.os.tree(loadbalancer);
      note(tb, `${KUBEAPI_ROW}: LB ${lb.lb.id} ${lb.lb.provider} ${lb.lb.provisioning_status}/${lb.lb.operating_status}, fip ${fip}, spec allowedCIDRs ${JSON.stringify(osc.spec.apiServerLoadBalancer.allowedCIDRs ?? null)}; members ${lb.pools.map((p) => p.members.map((m) => `${m.address}:${m.protocol_port}=${m.operating_status}`).join(',')).join('; ')}; client ${dp.clientAddress}, allowed ${allowed}`);
      // Open to start with (the testbed's environment sets none; an earlier failed run may have left it restricted).
      if ((osc.spec.apiServerLoadBalancer.allowedCIDRs ?? []).length) restrict(tb, '');
      await until('the API listener open (no allowed_cidrs)', 600_000, async () => (await apiListenerCidrs(tb, lb.lb.id))?.length === 0);
    });

    test('open: kubectl from the internet client, and kaas\'s kubeconfig and CAPI\'s cluster cache from the management host, reach the workload apiserver through the amphora (the control-plane node\'s :6443 is its member)', async () => {
      expect(lb.lb.provider).toBe('amphora');
      const direct = version(tb, tb.workloadKubeconfig);
      const client = version(tb, tb.workloadKubeconfig, { netns: dp.clientNetns, server: `https://${fip}:6443` });
      const mgmt = version(tb, tb.env.WORKLOAD_KUBECONFIG);
      note(tb, `${KUBEAPI_ROW}: apiserver ${direct.out}; kubectl from ${dp.clientNetns} through ${fip}: ${client.code} ${client.out}; from the management host with workload.kubeconfig: ${mgmt.code} ${mgmt.out}; ${fip} local here: ${isLocal(fip)}; Cluster RemoteConnectionProbe ${remoteProbe(tb)}`);
      expect(direct.code).toBe(0);
      expect(client).toEqual({ code: 0, out: direct.out });
      // The floating IP is the cloud's, not this namespace's: kaas's kubeconfig and CAPI go through the LB.
      expect(isLocal(fip)).toBe(false);
      expect(mgmt).toEqual({ code: 0, out: direct.out });
      expect(remoteProbe(tb)).toMatch(/^True\b/);
      const b = await settle(300_000, () => tallyFrom(dp, dp.clientAddress, fip), (t) => t.length === 1 && / http /.test(t[0]));
      note(tb, `${KUBEAPI_ROW} open, from ${dp.clientAddress}: ${b.join('; ')}`);
      expect(b).toHaveLength(1);
      expect(b[0]).toMatch(new RegExp(`^${N} http (200|401|403)$`));
    });

    test(`restricted by kaas to one address: the listener's allowed_cidrs change, the internet client's own address gets no answer, the allowed address and the management host do`, async () => {
      restrict(tb, `${allowed}/32`);
      const cidrs = await until('allowed_cidrs on the API listener', 600_000, async () => {
        const c = await apiListenerCidrs(tb, lb.lb.id);
        return c?.includes(`${allowed}/32`) ? c : undefined;
      });
      note(tb, `${KUBEAPI_ROW} restricted: allowed_cidrs ${cidrs.join(',')}`);
      expect(cidrs.some((c) => c === '0.0.0.0/0')).toBe(false);
      // Octavia updates the VIP's security group after the listener; until then the client may still get in.
      const denied = await settle(300_000, () => tallyFrom(dp, dp.clientAddress, fip), (t) => t.length === 1 && t[0].endsWith(' timeout'));
      const admitted = tallyFrom(dp, allowed, fip);
      note(tb, `${KUBEAPI_ROW} restricted to ${allowed}/32: from ${dp.clientAddress} ${denied.join('; ')}; from ${allowed} ${admitted.join('; ')}`);
      expect(denied).toEqual([`${N} timeout`]);
      expect(admitted).toHaveLength(1);
      expect(admitted[0]).toMatch(new RegExp(`^${N} http (200|401|403)$`));
      // The management host's address is on the list (kaas adds mgmt_host_cidrs): kaas and CAPI still get through.
      const mgmt = version(tb, tb.env.WORKLOAD_KUBECONFIG);
      note(tb, `${KUBEAPI_ROW} restricted: from the management host ${mgmt.code} ${mgmt.out}; Cluster RemoteConnectionProbe ${remoteProbe(tb)}`);
      expect(mgmt.code).toBe(0);
      expect(remoteProbe(tb)).toMatch(/^True\b/);
    });

    test('open again by kaas: no allowed_cidrs on the listener, the internet client is answered again', async () => {
      restrict(tb, '');
      await until('the API listener open again', 600_000, async () => (await apiListenerCidrs(tb, lb.lb.id))?.length === 0);
      const b = await settle(300_000, () => tallyFrom(dp, dp.clientAddress, fip), (t) => t.length === 1 && / http /.test(t[0]));
      note(tb, `${KUBEAPI_ROW} open again, from ${dp.clientAddress}: ${b.join('; ')}`);
      expect(b).toHaveLength(1);
      expect(b[0]).toMatch(new RegExp(`^${N} http (200|401|403)$`));
    });
  });
}
