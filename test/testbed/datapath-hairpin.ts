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
import { burst, requestFrom, settle, tally, workers, type DataPath } from './datapath-support.js';
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

const ingressOf = (tb: Testbed) => (wkJson<any>(tb, ['-n', NS, 'get', 'service', SVC])?.status?.loadBalancer?.ingress ?? []) as { ip?: string; hostname?: string; ipMode?: string }[];

/** The severities of doctor's findings of one check, with the row's settings. */
function doctorFindings(c: HairpinContext, check: string): string[] {
  const d = kaas(c.tb, ['doctor', c.tb.cluster, '-o', 'json'], { sets: c.sets });
  return (JSON.parse(d.stdout) as { findings: { check: string; severity: string }[] }).findings.filter((f) => f.check === check).map((f) => f.severity);
}

/** Registers the hairpin tests inside the amphora-proxy row's describe block. */
export function hairpinTests(ctx: () => HairpinContext): void {
  test('the hairpin, hostname published: a pod on the pod-less worker calling <fip>.nip.io, and the bare IP kube-proxy then does not know, is answered through the amphora with the PROXY header parsed', async () => {
    const c = ctx();
    const w = c.controllerNode();
    const other = workers(c.tb).find((x) => x.name !== w)!;
    expect(ingressOf(c.tb)).toEqual([{ hostname: `${c.fip}.nip.io` }]);
    const netns = await clientPod(c.tb, other.name);
    const byName = await settle(120_000, () => Array.from({ length: N }, () => requestFrom(netns, c.fip, `${c.fip}.nip.io`)), (b) => b.every((a) => a.ok));
    const byIp = Array.from({ length: N }, () => requestFrom(netns, c.fip));
    note(c.tb, `hairpin, hostname published, from pod ${CLIENT_NS}/caller on ${other.name} (${netns}): by ${c.fip}.nip.io ${tally(byName).join('; ')}; by IP ${tally(byIp).join('; ')} (amphora ${c.ampIp})`);
    for (const b of [byName, byIp]) {
      expect(b.filter((a) => !a.ok).map((a) => a.error)).toEqual([]);
      expect([...new Set(b.map((a) => `node=${a.node} peer=${a.peer}`))]).toEqual([`node=${w} peer=${c.ampIp}`]);
    }
  });

  test('the hairpin, IP published (enable-ingress-hostname off): OCCM v1.36 marks it ipMode Proxy and the pod\'s calls to the bare IP still go through the amphora; published as a plain VIP (an OCCM before v1.30) kube-proxy bypasses the amphora and every pod call fails, the internet client is still answered, doctor warns proxy-hostname-missing', async () => {
    const c = ctx();
    const w = c.controllerNode();
    const other = workers(c.tb).find((x) => x.name !== w)!;
    try {
      const off = await applyEdge(c.tb, 'amphora-proxy, IP published (hand edit)', c.sets, { full: false, command: 'apply-ingress', extra: ['--force'], handEdit: hostnameOff });
      expect(off.dry.code).toBe(0);
      const published = await until('the Service publishing its IP', 300_000, () => { const i = ingressOf(c.tb); return i.length === 1 && i[0].ip === c.fip && !i[0].hostname ? i[0] : undefined; });
      const netns = await clientPod(c.tb, other.name);
      // OCCM ≥ v1.30 (KEP-1860): with PROXY protocol and no hostname it publishes ipMode Proxy, so kube-proxy adds no bypass.
      const proxied = await settle(120_000, () => Array.from({ length: N }, () => requestFrom(netns, c.fip)), (b) => b.every((a) => a.ok));
      const quiet = doctorFindings(c, 'proxy-hostname-missing');
      note(c.tb, `hairpin, IP published as ${JSON.stringify(published)}: from pod on ${other.name} by IP ${tally(proxied).join('; ')}; doctor proxy-hostname-missing: ${quiet.join(',') || 'none'}`);
      expect(published.ipMode).toBe('Proxy');
      expect([...new Set(proxied.map((a) => (a.ok ? `node=${a.node} peer=${a.peer}` : a.error)))]).toEqual([`node=${w} peer=${c.ampIp}`]);
      expect(quiet).toEqual([]);

      // The same status as an OCCM before v1.30 writes it (the IP, read as ipMode VIP). OCCM does not rewrite a
      // Service's status on a status-only change, so the hand edit stays until it syncs the Service again.
      wk(c.tb, ['-n', NS, 'patch', 'service', SVC, '--subresource', 'status', '--type', 'merge', '-p', JSON.stringify({ status: { loadBalancer: { ingress: [{ ip: c.fip, ipMode: 'VIP' }] } } })]);
      const bypassed = await settle(120_000, () => Array.from({ length: N }, () => requestFrom(netns, c.fip)), (b) => b.every((a) => !a.ok));
      const outside = burst(c.dp, c.fip, N);
      const warned = doctorFindings(c, 'proxy-hostname-missing');
      note(c.tb, `hairpin, IP published as ipMode VIP: from pod on ${other.name} by IP ${tally(bypassed).join('; ')}; from the internet client ${tally(outside).join('; ')}; doctor proxy-hostname-missing: ${warned.join(',') || 'none'}`);
      expect(bypassed.filter((a) => a.ok)).toEqual([]);
      expect(tally(outside)).toEqual([`${N} node=${w} client=${c.dp.clientAddress} peer=${c.ampIp}`]);
      expect(warned).toEqual(['warning']);
    } finally {
      // kaas's own cloud.conf again (OCCM restarts and syncs the Service: the hostname comes back), pass or fail.
      const back = await applyEdge(c.tb, 'amphora-proxy (kaas\'s cloud.conf again)', c.sets, { full: false, command: 'apply-ingress' });
      note(c.tb, `hairpin: kaas's cloud.conf again, apply-ingress exit ${back.apply.code}`);
      await until('the Service publishing <fip>.nip.io again', 300_000, () => { const i = ingressOf(c.tb); return i.length === 1 && i[0].hostname === `${c.fip}.nip.io`; });
      wk(c.tb, ['delete', 'namespace', CLIENT_NS, '--wait=false']);
      expect(back.apply.code).toBe(0);
    }
  });
}
