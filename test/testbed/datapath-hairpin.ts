/**
 * Issue 30 §4, the hairpin on a real amphora (testbed.env AMPHORA=1), inside the amphora-proxy row: a pod of
 * the workload cluster calls the edge. With PROXY protocol on, the load balancer must be in the path (nginx
 * expects the header), and kube-proxy short-circuits in-cluster calls to a Service's published load-balancer
 * IP straight to the endpoints. OCCM's enable-ingress-hostname, which kaas renders with nginx_use_proxy,
 * publishes `<fip>.nip.io` instead of the IP, so kube-proxy knows no load-balancer IP for the Service:
 *   - hostname published: a pod on the pod-less worker calling `<fip>.nip.io` (resolved by curl itself) and
 *     the bare floating IP is answered through the amphora (the TCP peer is the amphora, the PROXY line parsed);
 *     the pod's packets leave its node by the stand-in of Calico's natOutgoing (datapath-nodes.sh);
 *   - IP published (enable-ingress-hostname switched off by hand, as a cloud.conf without kaas's key has it):
 *     the same pod calling the bare IP never reaches the amphora: kube-proxy hands it to nginx without the
 *     PROXY header and every request fails, while the internet client is still answered with its own address;
 *     `kaas doctor` warns `proxy-hostname-missing`. Then kaas's cloud.conf is put back and the hostname returns.
 */
import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect, test } from '@jest/globals';
import { burst, settle, tally, workers, type Answer, type DataPath } from './datapath-support.js';
import type { LbTree } from './openstack-reader.js';
import { applyEdge, kaas, note, until, wk, wkJson, type Testbed } from './workload-support.js';

const NS = 'ingress-nginx';
const SVC = 'ingress-nginx-controller';
const CLIENT_NS = 'kaas-hairpin';
const N = 10;

/** What the hairpin tests need of the amphora-proxy row (filled by its beforeAll). */
export interface HairpinContext { tb: Testbed; dp: DataPath; lb: LbTree; fip: string; ampIp: string; sets: Record<string, string>; controllerNode: () => string }

/** A cloud.conf with the hostname workaround off: what OCCM does without kaas's key. */
const hostnameOff = (text: string) => text.replace(/^(\s*)enable-ingress-hostname\s*=\s*true\s*$/m, '$1enable-ingress-hostname=false');

/** `curl -s --max-time 2` from inside network namespace `netns`, read as the nginx stand-in's answer. */
function curlFrom(netns: string, ip: string, host?: string): Answer {
  const target = host ? ['--resolve', `${host}:80:${ip}`, `http://${host}/`] : [`http://${ip}/`];
  const r = spawnSync('ip', ['netns', 'exec', netns, 'curl', '-s', '--max-time', '2', ...target], { encoding: 'utf8', timeout: 10_000 });
  const m = /^node=(\S+) client=(\S+) peer=(\S+)$/m.exec(r.stdout ?? '');
  if (r.status === 0 && m) return { ok: true, node: m[1], client: m[2], peer: m[3] };
  return { ok: false, error: r.status === 28 ? 'timeout' : `curl exit ${r.status ?? r.signal}: ${(r.stdout ?? '').replace(/\s+/g, ' ').slice(0, 60)}` };
}

/**
 * A plain pod on `node` (no program: the plumber gives it a namespace with its pod IP, datapath-pods.sh)
 * and that namespace's name, once it exists.
 */
async function clientPod(tb: Testbed, node: string): Promise<string> {
  wk(tb, ['apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: CLIENT_NS } }));
  wk(tb, ['-n', CLIENT_NS, 'delete', 'pod', 'caller', '--ignore-not-found', '--wait=true']);
  wk(tb, ['apply', '-f', '-'], JSON.stringify({
    apiVersion: 'v1', kind: 'Pod', metadata: { name: 'caller', namespace: CLIENT_NS },
    spec: { nodeName: node, containers: [{ name: 'caller', image: 'registry.k8s.io/pause:3.10' }] },
  }));
  return until(`pod ${CLIENT_NS}/caller on ${node} with its network namespace`, 300_000, () => {
    const pod = wkJson<any>(tb, ['-n', CLIENT_NS, 'get', 'pod', 'caller']);
    const uid = pod?.metadata?.uid as string | undefined;
    if (!uid || !pod.status?.podIP) return undefined;
    const file = path.join(tb.env.TESTBED_DIR, 'datapath', 'pods', uid.slice(0, 8), 'netns');
    if (!fs.existsSync(file)) return undefined;
    const netns = fs.readFileSync(file, 'utf8').trim();
    return spawnSync('ip', ['-n', netns, 'link', 'show', 'eth0']).status === 0 ? netns : undefined;
  });
}

const ingressOf = (tb: Testbed) => (wkJson<any>(tb, ['-n', NS, 'get', 'service', SVC])?.status?.loadBalancer?.ingress ?? []) as { ip?: string; hostname?: string }[];

/** Registers the hairpin tests inside the amphora-proxy row's describe block. */
export function hairpinTests(ctx: () => HairpinContext): void {
  test('the hairpin, hostname published: a pod on the pod-less worker calling <fip>.nip.io, and the bare IP kube-proxy then does not know, is answered through the amphora with the PROXY header parsed', async () => {
    const c = ctx();
    const w = c.controllerNode();
    const other = workers(c.tb).find((x) => x.name !== w)!;
    expect(ingressOf(c.tb)).toEqual([{ hostname: `${c.fip}.nip.io` }]);
    const netns = await clientPod(c.tb, other.name);
    const byName = await settle(120_000, () => Array.from({ length: N }, () => curlFrom(netns, c.fip, `${c.fip}.nip.io`)), (b) => b.every((a) => a.ok));
    const byIp = Array.from({ length: N }, () => curlFrom(netns, c.fip));
    note(c.tb, `hairpin, hostname published, from pod ${CLIENT_NS}/caller on ${other.name} (${netns}): by ${c.fip}.nip.io ${tally(byName).join('; ')}; by IP ${tally(byIp).join('; ')} (amphora ${c.ampIp})`);
    for (const b of [byName, byIp]) {
      expect(b.filter((a) => !a.ok).map((a) => a.error)).toEqual([]);
      expect([...new Set(b.map((a) => `node=${a.node} peer=${a.peer}`))]).toEqual([`node=${w} peer=${c.ampIp}`]);
    }
  });

  test('the hairpin, IP published (enable-ingress-hostname off): the pod calling the bare IP bypasses the amphora and every request fails (no PROXY header), the internet client is still answered; doctor warns proxy-hostname-missing; kaas\'s cloud.conf brings the hostname back', async () => {
    const c = ctx();
    const w = c.controllerNode();
    const other = workers(c.tb).find((x) => x.name !== w)!;
    const off = await applyEdge(c.tb, 'amphora-proxy, IP published (hand edit)', c.sets, { full: false, command: 'apply-ingress', extra: ['--force'], handEdit: hostnameOff });
    expect(off.dry.code).toBe(0);
    await until('the Service publishing its IP', 300_000, () => { const i = ingressOf(c.tb); return i.length === 1 && i[0].ip === c.fip && !i[0].hostname; });
    const netns = await clientPod(c.tb, other.name);
    // Until kube-proxy on the pod's node has the load-balancer IP in its rules.
    const fromPod = await settle(120_000, () => Array.from({ length: N }, () => curlFrom(netns, c.fip)), (b) => b.every((a) => !a.ok));
    const outside = burst(c.dp, c.fip, N);
    const d = kaas(c.tb, ['doctor', c.tb.cluster, '-o', 'json'], { sets: c.sets });
    const findings = (JSON.parse(d.stdout) as { findings: { check: string; severity: string }[] }).findings;
    note(c.tb, `hairpin, IP published: from pod on ${other.name} by IP ${tally(fromPod).join('; ')}; from the internet client ${tally(outside).join('; ')}; doctor exit ${d.code}: ${findings.map((f) => `${f.check}/${f.severity}`).join(', ')}`);
    expect(fromPod.filter((a) => a.ok)).toEqual([]);
    expect(tally(outside)).toEqual([`${N} node=${w} client=${c.dp.clientAddress} peer=${c.ampIp}`]);
    expect(findings.filter((f) => f.check === 'proxy-hostname-missing').map((f) => f.severity)).toEqual(['warning']);

    const back = await applyEdge(c.tb, 'amphora-proxy (kaas\'s cloud.conf again)', c.sets, { full: false, command: 'apply-ingress' });
    note(c.tb, `hairpin: kaas's cloud.conf again, apply-ingress exit ${back.apply.code}`);
    expect(back.apply.code).toBe(0);
    await until('the Service publishing <fip>.nip.io again', 300_000, () => { const i = ingressOf(c.tb); return i.length === 1 && i[0].hostname === `${c.fip}.nip.io`; });
    wk(c.tb, ['delete', 'namespace', CLIENT_NS, '--wait=false']);
  });
}
