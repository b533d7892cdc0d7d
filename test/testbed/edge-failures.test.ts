/**
 * The failure modes kaas claims to diagnose, produced for real on the testbed's workload side (the real
 * OCCM v1.34.1 against the real Octavia/Neutron), each followed by `kaas doctor` and, where kaas acts,
 * by what kaas does. Where current kaas is known to be wrong (review M2, M4) the test asserts the right
 * behaviour and fails until lib/ is fixed; the failure message says what happened instead.
 *
 * Order matters (one cluster): PROXY mismatch and the unrolled cloud.conf change on an amphora ingress,
 * then the second external network (M4), then the provider switch on the live cluster (M2: refused), then
 * the same switch with --recreate-edge-services (review 2026-11-27 N4) last.
 */
import { spawnSync } from 'node:child_process';
import { jest } from '@jest/globals';
import { checkIds, dataPathOnly, livePath } from './lb-rows.js';
import { applyEdge, dropMetricsApi, kaas, lbName, note, occmConf, removeIngress, testbed, toolHome, until, wk, wkJson, type Testbed } from './workload-support.js';

jest.setTimeout(30 * 60_000);

const AMPHORA_MONITOR = { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false' };
const SVC = { ns: 'ingress-nginx', name: 'ingress-nginx-controller' };
let tb: Testbed;

interface Doctor { findings: { check: string; severity: string; message: string; fix: string; resource: { name: string } }[]; checked: string[] }
const doctor = (sets: Record<string, string> = AMPHORA_MONITOR): Doctor => {
  const d = kaas(tb, ['doctor', tb.cluster, '-o', 'json'], { sets });
  note(tb, `doctor exit ${d.code}\n${d.stdout.slice(0, 4000)}\n${d.stderr.slice(-1000)}`);
  return JSON.parse(d.stdout) as Doctor;
};

beforeAll(async () => {
  tb = testbed();
  await removeIngress(tb);
  const r = await applyEdge(tb, 'failures-base', AMPHORA_MONITOR, { full: false, command: 'apply-ingress' });
  expect(r.dry.code).toBe(0);
  await until('the ingress LB ACTIVE', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, SVC.ns, SVC.name)))[0]?.provisioning_status === 'ACTIVE');
});

test('PROXY mismatch between the LB and the proxy: OCCM makes PROXY pools, nginx does not speak PROXY; doctor names it with the fix', async () => {
  wk(tb, ['-n', SVC.ns, 'annotate', 'service', SVC.name, '--overwrite', 'loadbalancer.openstack.org/proxy-protocol=true']);
  try {
    const name = lbName(tb, SVC.ns, SVC.name);
    await until('OCCM to turn the pools into PROXY', 600_000, async () => {
      const [lb] = await tb.os.loadBalancers(name);
      const t = lb && await tb.os.tree(lb);
      return t && t.pools.length === 2 && t.pools.every((p) => p.protocol === 'PROXY');
    });
    const d = doctor();
    const f = d.findings.find((x) => x.check === 'proxy-protocol-mismatch');
    expect(f).toBeDefined();
    expect(f!.severity).toBe('error');
    expect(f!.fix).toMatch(/kaas apply-ingress/);
  } finally {
    wk(tb, ['-n', SVC.ns, 'annotate', 'service', SVC.name, 'loadbalancer.openstack.org/proxy-protocol-']);
  }
  await until('OCCM to turn the pools back into TCP', 600_000, async () => {
    const [lb] = await tb.os.loadBalancers(lbName(tb, SVC.ns, SVC.name));
    const t = lb && await tb.os.tree(lb);
    return t && t.pools.length === 2 && t.pools.every((p) => p.protocol === 'TCP');
  });
});

test('a cloud.conf change that did not reach OCCM (Secret edited, OCCM not restarted): doctor warns, apply-ingress refuses', async () => {
  const secret = wkJson(tb, ['-n', 'kube-system', 'get', 'secret', 'cloud-config'])!;
  const before = Buffer.from(secret.data['cloud.conf'], 'base64').toString();
  const edited = before.replace('[LoadBalancer]', '[LoadBalancer]\ncreate-monitor=true');
  wk(tb, ['-n', 'kube-system', 'patch', 'secret', 'cloud-config', '--type', 'merge', '-p', JSON.stringify({ data: { 'cloud.conf': Buffer.from(edited).toString('base64') } })]);
  try {
    // The occm loop, like the DaemonSet, restarts only on a pod-template change: the running OCCM keeps the old file.
    await new Promise((r) => setTimeout(r, 8000));
    const d = doctor();
    const f = d.findings.find((x) => x.check === 'occm-not-restarted');
    const a = kaas(tb, ['apply-ingress', tb.cluster, '--verify-timeout', '10'], { sets: AMPHORA_MONITOR });
    note(tb, `unrolled cloud.conf: apply-ingress exit ${a.code}\n${a.stderr.slice(-2000)}`);
    // Both must see it: doctor names it with the fix, apply-ingress refuses (the Secret's hash is not the
    // one on OCCM's pod template). Asserted together so that the failure shows both outcomes.
    expect({
      doctorFinding: f ? { severity: f.severity, fixRestarts: /rollout restart daemonset\/openstack-cloud-controller-manager/.test(f.fix) } : 'none',
      applyIngressRefused: a.code !== 0 && /restart|hash|roll/i.test(a.stderr),
    }).toEqual({ doctorFinding: { severity: 'warning', fixRestarts: true }, applyIngressRefused: true });
  } finally {
    wk(tb, ['-n', 'kube-system', 'patch', 'secret', 'cloud-config', '--type', 'merge', '-p', JSON.stringify({ data: { 'cloud.conf': Buffer.from(before).toString('base64') } })]);
  }
});

test('ROUND_ROBIN / HTTP monitor / allowed_cidrs on OVN: the ovn provider refuses each (HTTP 501), so only OCCM\'s config can cause them; doctor names that config', async () => {
  // The states doctor's ovn-pool-* / ovn-listener-allowed-cidrs checks look for cannot exist on this
  // Octavia: the ovn provider refuses them at the API (read here with the independent reader's token).
  const lb = await tb.os.loadBalancers();
  expect(await tb.os.providers()).toContain('ovn');
  expect(lb.filter((l) => l.provider === 'ovn').length).toBeGreaterThanOrEqual(0);
  // What happens for real: OCCM told lb-provider=ovn without lb-method=SOURCE_IP_PORT (SCS handle_ovn_lb.sh
  // on an old OCCM config, or a hand edit), restarted — it asks Octavia for ROUND_ROBIN pools and is refused.
  const ovn = { use_ovn_lb_provider: 'true' };
  const r = await applyEdge(tb, 'ovn-round-robin', ovn, { full: false, command: 'apply-ingress', extra: ['--no-verify'] });
  expect(r.dry.code).toBe(0);
  await removeIngress(tb);
  const secret = wkJson(tb, ['-n', 'kube-system', 'get', 'secret', 'cloud-config'])!;
  const conf = Buffer.from(secret.data['cloud.conf'], 'base64').toString().replace(/^lb-method=.*\n/m, '');
  wk(tb, ['-n', 'kube-system', 'patch', 'secret', 'cloud-config', '--type', 'merge', '-p', JSON.stringify({ data: { 'cloud.conf': Buffer.from(conf).toString('base64') } })]);
  wk(tb, ['-n', 'kube-system', 'rollout', 'restart', 'daemonset/openstack-cloud-controller-manager']);
  await until('OCCM restarted without lb-method', 180_000, () => occmConf(tb) !== '' && !/lb-method/.test(occmConf(tb)));
  const ns = 'kaas-ovn-rr';
  try {
    wk(tb, ['create', 'namespace', ns]);
    wk(tb, ['-n', ns, 'create', 'service', 'loadbalancer', 'rr', '--tcp', '80:8080']);
    const ev = await until('OCCM refused by the ovn provider', 600_000, () => {
      const e = wk(tb, ['-n', ns, 'get', 'events', '-o', 'jsonpath={range .items[*]}{.reason}: {.message}{"\\n"}{end}']);
      return /ROUND_ROBIN|501|does not support/.test(e) ? e : undefined;
    });
    note(tb, `OVN without lb-method: Service events\n${ev}`);
    const [rr] = await tb.os.loadBalancers(lbName(tb, ns, 'rr'));
    const t = rr && await tb.os.tree(rr);
    expect(t?.pools.filter((p) => p.lb_algorithm === 'ROUND_ROBIN') ?? []).toEqual([]);
    const d = doctor(ovn);
    const f = d.findings.find((x) => x.check === 'occm-config-contradicts-plan');
    expect(f?.message).toMatch(/SOURCE_IP_PORT|lb-method/);
  } finally {
    try { wk(tb, ['-n', ns, 'delete', 'service', 'rr', '--wait=true', '--timeout=300s']); } catch { /* ignore */ }
    dropMetricsApi(tb);
    try { wk(tb, ['delete', 'namespace', ns, '--wait=false']); } catch { /* ignore */ }
    // Each refused create (OCCM retries with backoff) leaves the ovn provider's VIP port `ovn-lb-vip-<LB id>`
    // behind in Neutron (Octavia refuses the LB with 501 after the provider made the port; the LB never
    // exists). They keep the cluster network in use: CAPO's network delete loops on 409 NetworkInUse until
    // kaas's delete-cluster removes them (sweepOrphanOvnVipPorts), which edge-delete counts. Recorded here.
    const os = (args: string[]) => spawnSync('openstack', ['--os-cloud', 'peer-admin', ...args], { encoding: 'utf8', env: { PATH: tb.env.PATH, OS_CLIENT_CONFIG_FILE: tb.env.OS_CLIENT_CONFIG_FILE, HOME: toolHome() } }).stdout ?? '';
    const live = new Set((await tb.os.loadBalancers()).map((l) => l.id));
    const leaked = os(['port', 'list', '-f', 'value', '-c', 'ID', '-c', 'Name']).split('\n').map((l) => l.trim().split(/\s+/))
      .filter(([, n]) => n?.startsWith('ovn-lb-vip-') && !live.has(n.slice('ovn-lb-vip-'.length)));
    note(tb, `OVN refusals left ${leaked.length} ovn-lb-vip port(s) of LBs that never existed: ${leaked.map(([, n]) => n).join(', ')}`);
    // OCCM back on kaas's amphora cloud.conf: the next scenarios' Services must not meet the broken one.
    await applyEdge(tb, 'ovn-restore', AMPHORA_MONITOR, { full: false, command: 'apply-ingress', extra: ['--no-verify'] });
  }
});

test('M4: two external networks — the Service floating IP comes from the network CAPO uses (kaas pins floating-network-id)', async () => {
  // A second external network, made by the cloud admin, that is not the cluster router's gateway.
  const os = (args: string[]) => {
    const r = spawnSync('openstack', ['--os-cloud', 'peer-admin', ...args], { encoding: 'utf8', env: { PATH: tb.env.PATH, OS_CLIENT_CONFIG_FILE: tb.env.OS_CLIENT_CONFIG_FILE, HOME: toolHome() } });
    if (r.status !== 0) throw new Error(`openstack ${args.join(' ')}: ${r.stderr}`);
    return r.stdout;
  };
  const made: string[] = [];
  for (const n of ['aaa-ext-0', 'aaa-ext-1', 'aaa-ext-2']) {
    const id = os(['network', 'create', '--external', '-f', 'value', '-c', 'id', n]).trim();
    made.push(id);
    os(['subnet', 'create', '--network', id, '--subnet-range', `192.0.2.${made.length * 64}/26`, '--no-dhcp', `${n}-subnet`]);
  }
  const ns = 'kaas-m4';
  try {
    wk(tb, ['create', 'namespace', ns]);
    wk(tb, ['-n', ns, 'create', 'service', 'loadbalancer', 'm4', '--tcp', '80:8080']);
    const name = lbName(tb, ns, 'm4');
    const t = await until('the M4 LB with its floating IP', 600_000, async () => {
      const [lb] = await tb.os.loadBalancers(name);
      if (!lb || lb.provisioning_status !== 'ACTIVE') return undefined;
      const tr = await tb.os.tree(lb);
      return tr.fips.length ? tr : undefined;
    }).catch(async (e) => {
      const ev = wk(tb, ['-n', ns, 'get', 'events', '--field-selector', 'involvedObject.name=m4', '-o', 'custom-columns=R:.reason,M:.message']);
      throw new Error(`${String(e)}\nService events:\n${ev}`);
    });
    const pub = (await tb.os.networks()).find((n) => n.name === tb.env.TESTBED_EXTERNAL_NETWORK)!;
    const picked = (await tb.os.networks()).find((n) => n.id === t.fips[0].floating_network_id)?.name;
    note(tb, `M4: OCCM took the floating IP ${t.fips[0].floating_ip_address} from ${picked}`);
    expect({ floatingNetwork: picked }).toEqual({ floatingNetwork: pub.name });
  } finally {
    try { wk(tb, ['-n', ns, 'delete', 'service', 'm4', '--wait=true', '--timeout=300s']); } catch { /* reported by the counts below */ }
    try { wk(tb, ['delete', 'namespace', ns, '--wait=false']); } catch { /* ignore */ }
    await until('the M4 LB gone', 600_000, async () => (await tb.os.loadBalancers(lbName(tb, ns, 'm4'))).length === 0).catch(() => undefined);
    for (const id of made) { try { os(['network', 'delete', id]); } catch { /* a leftover port (FIP) keeps it */ } }
  }
});

test('M2: switching use_ovn_lb_provider on a live cluster with an amphora ingress LB — kaas refuses (or re-creates the edge), never leaves OCCM fighting the LB', async () => {
  const name = lbName(tb, SVC.ns, SVC.name);
  await applyEdge(tb, 'm2-base', AMPHORA_MONITOR, { full: false, command: 'apply-ingress' });
  const [before] = await until('the amphora ingress LB', 600_000, async () => (await tb.os.loadBalancers(name)).filter((l) => l.provisioning_status === 'ACTIVE'));
  expect(before.provider).toBe('amphora');
  const r = kaas(tb, ['create-cluster', tb.cluster], { sets: { use_ovn_lb_provider: 'true' } });
  note(tb, `M2: create-cluster --set use_ovn_lb_provider=true exit ${r.code} in ${r.ms} ms\n${r.stderr.slice(-4000)}`);
  const conf = Buffer.from(wkJson(tb, ['-n', 'kube-system', 'get', 'secret', 'cloud-config'])!.data['cloud.conf'], 'base64').toString();
  const [after] = await tb.os.loadBalancers(name);
  const t = after && await tb.os.tree(after);
  const state = { exit: r.code, cloudConfProvider: /lb-provider=ovn/.test(conf) ? 'ovn' : 'amphora', lbProvider: after?.provider, algorithms: t?.pools.map((p) => p.lb_algorithm) };
  note(tb, `M2 state: ${JSON.stringify(state)}`);
  // Right behaviour (review M2): either kaas refused before touching cloud.conf (exit != 0, cloud.conf still
  // amphora, the message names the provider switch), or it re-created the edge so its LB is on ovn.
  const refused = r.code !== 0 && state.cloudConfProvider === 'amphora' && /provider/i.test(r.stderr);
  const recreated = state.cloudConfProvider === 'ovn' && after?.provider === 'ovn';
  expect({ refused, recreated, ...state }).toEqual(expect.objectContaining(refused ? { refused: true } : { recreated: true }));
});

test('N4: --recreate-edge-services moves the ingress to ovn: the old Service is gone before the edge step, a new one (new uid) gets the ovn LB\'s address, and kaas never reports the old address', async () => {
  const name = lbName(tb, SVC.ns, SVC.name);
  const old = wkJson(tb, ['-n', SVC.ns, 'get', 'service', SVC.name]);
  const oldAddress: string | undefined = old?.status?.loadBalancer?.ingress?.[0]?.ip;
  expect(oldAddress).toBeTruthy();
  const r = kaas(tb, ['create-cluster', tb.cluster, '--recreate-edge-services'], { sets: { use_ovn_lb_provider: 'true', deploy_nginx_ingress: 'true', nginx_use_proxy: 'false' }, timeoutMs: 1_800_000 });
  note(tb, `N4: create-cluster --recreate-edge-services exit ${r.code} in ${r.ms} ms\n${r.stdout.slice(0, 4000)}\n${r.stderr.slice(-4000)}`);
  // The edge step is create-cluster's last: without the data path its verification can only miss what needs one
  // (members never ONLINE, monitors this Octavia leaves PENDING_CREATE: lb-rows.ts); any other failure fails here.
  const excused = new Set([...dataPathOnly(tb, 'ovn'), ...(livePath(tb, 'ovn') ? [] : ['verify-monitor-status'])]);
  const ids = checkIds(r.stderr).filter((c) => c.startsWith('verify-'));
  expect({ code: r.code, unexcused: ids.filter((c) => !excused.has(c)) }).toEqual({ code: ids.length ? 1 : 0, unexcused: [] });
  // Before the fix the apply patched the terminating Service, which OCCM's finalizer then let go: no Service.
  const now = wkJson(tb, ['-n', SVC.ns, 'get', 'service', SVC.name]);
  expect(now?.metadata?.uid).toBeTruthy();
  expect(now.metadata.uid).not.toBe(old.metadata.uid);
  expect(now.metadata.deletionTimestamp).toBeUndefined();
  const [lb] = await until('the ovn ingress LB ACTIVE', 600_000, async () => (await tb.os.loadBalancers(name)).filter((l) => l.provisioning_status === 'ACTIVE' && l.provider === 'ovn'));
  const tree = await tb.os.tree(lb);
  if (ids.includes('verify-monitor-status')) expect(tree.pools.map((p) => p.monitor?.provisioning_status ?? 'none').filter((m) => !['PENDING_CREATE', 'ACTIVE'].includes(m))).toEqual([]);
  const address: string | undefined = now.status?.loadBalancer?.ingress?.[0]?.ip;
  expect(address).toBeTruthy();
  expect(address).not.toBe(oldAddress);
  expect([lb.vip_address, ...tree.fips.map((f) => f.floating_ip_address)]).toContain(address);
  // kaas's own report names the new address, never the old one as the ingress's (the old one only in the warning that it goes away).
  const said = `${r.stdout}\n${r.stderr}`;
  expect(said).toContain(`load balancer address ${address}`);
  expect(said).not.toContain(`load balancer address ${oldAddress}`);
});

afterAll(async () => {
  // Leave the cluster with an amphora cloud.conf and no ingress for the next scenario file.
  await applyEdge(tb, 'failures-restore', AMPHORA_MONITOR, { full: false, command: 'apply-ingress' }).catch(() => undefined);
  await removeIngress(tb).catch(() => undefined);
});
