/**
 * What edge-datapath.test.ts needs to send real packets: the internet client's namespace (testbed.env
 * CLIENT_NETNS, written with DATAPATH=1; it reaches floating IPs only through the external network),
 * requests from it with curl, the answers of the nginx stand-in the pod plumber runs for each ingress-nginx
 * controller pod (test/testbed/datapath-pods.sh: one line `node=<node> client=<addr> peer=<addr>`),
 * pinning the controller to one worker (KWOK schedules it), and the ovn-octavia-provider version the peer
 * runs (peer.env OS_PEER_OVN_PROVIDER_VERSION).
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { parseEnvFile } from './env.js';
import type { LbTree } from './openstack-reader.js';
import { wk, wkJson, type Testbed } from './workload-support.js';

export interface DataPath {
  clientNetns: string;
  /** The client namespace's own address on the external network: what the backend must see. */
  clientAddress: string;
  /** ovn-octavia-provider's version on the peer (e.g. 3.0.0, 3.1.2). */
  providerVersion: string;
}

/**
 * The data path's facts; throws (the test fails, never skips) when the testbed runs without it.
 */
export function dataPath(tb: Testbed): DataPath {
  if (tb.env.DATAPATH !== '1' || !tb.env.CLIENT_NETNS) {
    throw new Error(`edge-datapath needs the testbed's data path, but ${process.env.KAAS_TESTBED_ENV} has ${tb.env.DATAPATH === undefined ? 'no DATAPATH' : `DATAPATH=${tb.env.DATAPATH}`}${tb.env.CLIENT_NETNS ? '' : ' and no CLIENT_NETNS'}: start it with KAAS_TESTBED_DATAPATH=1 (testbed.sh start --workload --datapath)`);
  }
  const addr = spawnSync('ip', ['-n', tb.env.CLIENT_NETNS, '-4', '-o', 'addr', 'show', 'scope', 'global'], { encoding: 'utf8' });
  const clientAddress = /\binet (\d+\.\d+\.\d+\.\d+)\//.exec(addr.stdout ?? '')?.[1];
  if (addr.status !== 0 || !clientAddress) throw new Error(`client namespace ${tb.env.CLIENT_NETNS}: no IPv4 address (ip -n … addr: ${addr.stderr || addr.stdout})`);
  const peerEnv = path.join(tb.env.TESTBED_DIR, 'peer', 'peer.env');
  const providerVersion = parseEnvFile(fs.readFileSync(peerEnv, 'utf8')).OS_PEER_OVN_PROVIDER_VERSION;
  if (!providerVersion) throw new Error(`${peerEnv} has no OS_PEER_OVN_PROVIDER_VERSION: the peer does not say which ovn-octavia-provider it runs`);
  return { clientNetns: tb.env.CLIENT_NETNS, clientAddress, providerVersion };
}

/**
 * Does this ovn-octavia-provider put a health check on the floating-IP VIP too? Launchpad bug 1997418:
 * ba4ea11 + ebfbd84, in the Zed line from 3.1.2 on (datapath-feasibility.md §1.3); the peer offers
 * Debian's 3.0.0 or 3.1.2.
 */
export function fipHealthChecked(version: string): boolean {
  const [a, b, c] = version.split('.').map((x) => Number.parseInt(x, 10));
  return a > 3 || (a === 3 && (b > 1 || (b === 1 && c >= 2)));
}

/** A control row's hand edit of the rendered cloud.conf: OCCM's monitors off (kaas refuses to render that). */
export const monitorOff = (text: string) => text.replace(/^(\s*)create-monitor=true$/m, '$1create-monitor=false');

/** One request's outcome: the answering node and addresses, or why there was none. */
export interface Answer { ok: boolean; node?: string; client?: string; peer?: string; error?: string }

/**
 * One request from the client namespace: `curl -s --max-time 2 http://<ip>/`; with `host` (the published
 * `<fip>.nip.io`) `http://<host>/` with curl's `--resolve host:80:ip`, so the name never leaves the machine.
 */
export function request(dp: DataPath, ip: string, host?: string): Answer {
  return requestFrom(dp.clientNetns, ip, host);
}

/** The same request from inside any network namespace (a pod's, for the hairpin). */
export function requestFrom(netns: string, ip: string, host?: string): Answer {
  return curlIn(netns, host ? ['--resolve', `${host}:80:${ip}`, `http://${host}/`] : [`http://${ip}/`]);
}

/** `curl -s --max-time 2 <target…>` inside network namespace `netns`, read as the nginx stand-in's answer. */
function curlIn(netns: string, target: string[]): Answer {
  const r = spawnSync('ip', ['netns', 'exec', netns, 'curl', '-s', '--max-time', '2', ...target], { encoding: 'utf8', timeout: 10_000 });
  const m = /^node=(\S+) client=(\S+) peer=(\S+)$/m.exec(r.stdout ?? '');
  if (r.status === 0 && m) return { ok: true, node: m[1], client: m[2], peer: m[3] };
  return { ok: false, error: r.status === 28 ? 'timeout' : `curl exit ${r.status ?? r.signal}: ${(r.stdout ?? '').slice(0, 80)}` };
}

/**
 * One request from inside a node's "VM" (its network namespace, from the data-path loop's
 * DIR/datapath/nodes.tsv), and the node's pod-network tunnel address (datapath-tunnel.sh's vxlan.kaas).
 */
export function fromNode(tb: Testbed, node: string, url: string): Answer & { tunnelAddress?: string } {
  const line = fs.readFileSync(path.join(tb.env.TESTBED_DIR, 'datapath', 'nodes.tsv'), 'utf8').split('\n').map((l) => l.split('\t')).find((f) => f[0] === node);
  if (!line?.[2]) throw new Error(`node ${node} has no data path (not in ${tb.env.TESTBED_DIR}/datapath/nodes.tsv)`);
  const addr = spawnSync('ip', ['-n', line[2], '-4', '-o', 'addr', 'show', 'dev', 'vxlan.kaas'], { encoding: 'utf8' });
  const tunnelAddress = /\binet (\d+\.\d+\.\d+\.\d+)\//.exec(addr.stdout ?? '')?.[1];
  return { ...curlIn(line[2], [url]), tunnelAddress };
}

/** `n` requests in a row (to `host` resolved to `ip` when given). */
export const burst = (dp: DataPath, ip: string, n: number, host?: string): Answer[] => Array.from({ length: n }, () => request(dp, ip, host));

/** Outcomes as one sorted line per distinct outcome with its count (`12 node=w1 client=… peer=…`, `8 timeout`). */
export function countOutcomes(outcomes: string[]): string[] {
  const counts = new Map<string, number>();
  for (const k of outcomes) counts.set(k, (counts.get(k) ?? 0) + 1);
  return [...counts].map(([k, n]) => `${n} ${k}`).sort();
}

/** A burst tallied by countOutcomes (`12 node=w1 client=… peer=…`, `8 timeout`): what the assertions compare. */
export const tally = (answers: Answer[]): string[] => countOutcomes(answers.map((a) => (a.ok ? `node=${a.node} client=${a.client} peer=${a.peer}` : a.error!)));

/**
 * Calls `probe` until `done` holds for its result or `ms` pass; returns the last result either way, so
 * that the caller's assertion shows what was seen (a bounded deadline, never an endless wait).
 */
export async function settle<T>(ms: number, probe: () => Promise<T> | T, done: (v: T) => boolean, everyMs = 3000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await probe();
    if (done(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** The worker Nodes (not excluded from load balancers) with their InternalIPs, by name. */
export function workers(tb: Testbed): { name: string; ip: string }[] {
  const nodes = wkJson<{ items: any[] }>(tb, ['get', 'nodes'])!.items;
  return nodes.filter((n) => !('node.kubernetes.io/exclude-from-external-load-balancers' in (n.metadata.labels ?? {})))
    .map((n) => ({ name: n.metadata.name as string, ip: n.status.addresses.find((a: any) => a.type === 'InternalIP').address as string }))
    .sort((x, y) => x.name.localeCompare(y.name));
}

const NS = 'ingress-nginx';
const SELECTOR = 'app.kubernetes.io/name=ingress-nginx,app.kubernetes.io/component=controller';

/**
 * Pins the ingress-nginx controller to exactly one replica on `node` (required node affinity on the
 * Node's name, which the scheduler honours for KWOK's nodes too) and waits until it is the only
 * controller pod and Ready there.
 */
export async function pinController(tb: Testbed, node: string, timeoutMs = 300_000): Promise<void> {
  const affinity = { nodeAffinity: { requiredDuringSchedulingIgnoredDuringExecution: { nodeSelectorTerms: [{ matchFields: [{ key: 'metadata.name', operator: 'In', values: [node] }] }] } } };
  wk(tb, ['-n', NS, 'patch', 'deployment', 'ingress-nginx-controller', '--type', 'merge', '-p', JSON.stringify({ spec: { replicas: 1, template: { spec: { affinity } } } })]);
  const end = Date.now() + timeoutMs;
  for (;;) {
    const pods = wkJson<{ items: any[] }>(tb, ['-n', NS, 'get', 'pods', '-l', SELECTOR])!.items;
    const ready = (p: any) => (p.status?.conditions ?? []).some((c: any) => c.type === 'Ready' && c.status === 'True');
    if (pods.length === 1 && pods[0].spec.nodeName === node && !pods[0].metadata.deletionTimestamp && ready(pods[0])) return;
    if (Date.now() > end) throw new Error(`the ingress-nginx controller is not pinned to ${node} after ${timeoutMs / 1000} s: ${pods.map((p) => `${p.metadata.name}@${p.spec.nodeName}`).join(', ') || 'no pod'}`);
    await new Promise((r) => setTimeout(r, 3000));
  }
}

/** The LB's tree read afresh (LbReader.tree keeps the LB object it is given, with its old statuses). */
export async function liveTree(tb: Testbed, lb: LbTree): Promise<LbTree> {
  const { loadbalancer } = await tb.os.get<{ loadbalancer: LbTree['lb'] }>('load-balancer', `/lbaas/loadbalancers/${lb.lb.id}`);
  return tb.os.tree(loadbalancer);
}
