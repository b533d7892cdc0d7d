/**
 * The load-balancer decision table of `kaas apply-ingress` (README), row by row, for real: kaas renders
 * and applies cloud.conf (create-cluster's add-on step: the kube-system/cloud-config Secret and the
 * OCCM DaemonSet whose hash annotation rolls OCCM) and ingress-nginx (apply-ingress, no dry-run) to the
 * testbed's workload apiserver; the real openstack-cloud-controller-manager v1.34.1 (workload.sh's occm
 * loop, started from that DaemonSet and Secret) builds the Octavia load balancer; the test reads it back
 * from Octavia and Neutron with its own REST reader (openstack-reader.ts) and checks kaas's own
 * verification and `kaas doctor` agree.
 *
 * What cannot be proven here (no data path: fake-virt servers, no-op amphora driver, no OVN datapath):
 * members' operating_status (no health check ever runs), so kaas's verification reports
 * `verify-lb-status` / `verify-members` on every amphora row; the test asserts that those are the only
 * mismatches kaas reports, and that kaas names the operating status Octavia really has.
 */
import { jest } from '@jest/globals';
import { applyEdge, kaas, lbName, memberIps, note, removeIngress, testbed, until, wkJson, type Run, type Testbed } from './workload-support.js';
import type { LbTree } from './openstack-reader.js';

jest.setTimeout(30 * 60_000);

/** The mismatch ids kaas's verification can only report without a data path (no health check ever runs). */
const DATA_PATH_ONLY = new Set(['verify-lb-status', 'verify-members']);

interface Row {
  variant: string;
  sets: Record<string, string>;
  provider: 'amphora' | 'ovn';
  proxy: boolean;
  etp: 'Local' | 'Cluster';
  monitor: 'HTTP' | 'TCP' | 'none';
  /** The Service status: the ingress hostname <fip>.nip.io (PROXY) or the floating IP. */
  hostname: boolean;
  /** A reason kaas's plan must give (what it read from the real cloud). */
  reason?: RegExp;
}

const ROWS: Row[] = [
  { variant: 'amphora-proxy', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true' }, provider: 'amphora', proxy: true, etp: 'Local', monitor: 'HTTP', hostname: true },
  { variant: 'amphora-monitor', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false },
  { variant: 'amphora-plain', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false', occm_loadbalancer: '{create-monitor: "true"}' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false },
  { variant: 'amphora-cluster', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'false', occm_loadbalancer: '{create-monitor: "false"}' }, provider: 'amphora', proxy: false, etp: 'Cluster', monitor: 'none', hostname: false },
  { variant: 'amphora-proxy-cluster', sets: { use_ovn_lb_provider: 'false', nginx_use_proxy: 'true', occm_loadbalancer: '{create-monitor: "false"}' }, provider: 'amphora', proxy: true, etp: 'Cluster', monitor: 'none', hostname: true },
  // The same project through region RegionNoOvn of the peer's catalog: an Octavia API on the same database
  // that offers only the amphora provider (test/peer/start.sh). kaas detects that, and OCCM runs there too.
  // Before the ovn rows: the live cluster runs amphora, so `auto` has no running provider to keep.
  { variant: 'amphora-monitor (auto, the cloud offers no ovn)', sets: { cloud: 'peer-demo-noovn', use_ovn_lb_provider: 'auto', nginx_use_proxy: 'false' }, provider: 'amphora', proxy: false, etp: 'Local', monitor: 'HTTP', hostname: false, reason: /OVN not offered: providers are amphora\b/ },
  { variant: 'ovn', sets: { use_ovn_lb_provider: 'true' }, provider: 'ovn', proxy: false, etp: 'Local', monitor: 'TCP', hostname: false },
  { variant: 'ovn (auto, the cloud offers ovn)', sets: { use_ovn_lb_provider: 'auto' }, provider: 'ovn', proxy: false, etp: 'Local', monitor: 'TCP', hostname: false },
];

const SVC = { ns: 'ingress-nginx', name: 'ingress-nginx-controller' };
let tb: Testbed;

beforeAll(async () => {
  tb = testbed();
  await until('the workload Nodes (node-sync)', 600_000, () => memberIps(tb).length >= 1);
});

/** The findings' check ids in kaas's text output (verification and doctor print `check-id` per finding). */
const checkIds = (text: string) => [...new Set([...text.matchAll(/\b((?:verify|lb|ovn|fip|quota|etp|proxy|occm|ingress)-[a-z0-9-]+)\b/g)].map((m) => m[1]))];

async function applyRow(row: Row, full: boolean): Promise<{ create?: Run; apply: Run }> {
  const r = await applyEdge(tb, row.variant, row.sets, { full, command: 'apply-ingress' });
  expect(r.dry.code).toBe(0);
  return r;
}

async function readLb(): Promise<LbTree> {
  const name = lbName(tb, SVC.ns, SVC.name);
  const lbs = await until(`Octavia LB ${name}`, 600_000, async () => {
    const l = await tb.os.loadBalancers(name);
    return l.length === 1 && l[0].provisioning_status === 'ACTIVE' ? l : undefined;
  });
  return until(`${name}: listeners, pools, members`, 300_000, async () => {
    const t = await tb.os.tree(lbs[0]);
    return t.listeners.length === 2 && t.pools.length === 2 && t.pools.every((p) => p.members.length > 0) && t.fips.length === 1 ? t : undefined;
  });
}

describe.each(ROWS)('apply-ingress row $variant, through the real OCCM and Octavia', (row) => {
  let lb: LbTree;
  let svc: any;
  let runs: { create?: Run; apply: Run };

  beforeAll(async () => {
    await removeIngress(tb);
    runs = await applyRow(row, row === ROWS[0]);
    lb = await readLb();
    svc = await until('the Service status', 300_000, () => {
      const s = wkJson(tb, ['get', 'service', '-n', SVC.ns, SVC.name]);
      return s?.status?.loadBalancer?.ingress?.length ? s : undefined;
    });
  });

  test('kaas planned the row (the plan line names the variant)', () => {
    expect(`${runs.apply.stderr}${runs.apply.stdout}`).toContain(row.variant.replace(/ \(.*\)$/, ''));
    if (row.reason) expect(`${runs.apply.stderr}${runs.apply.stdout}`).toMatch(row.reason);
  });

  test('Octavia: provider, algorithm, listeners and ports', () => {
    expect(lb.lb.provider).toBe(row.provider);
    const ports = lb.listeners.map((l) => `${l.protocol}:${l.protocol_port}`).sort();
    expect(ports).toEqual(['TCP:443', 'TCP:80']);
    for (const p of lb.pools) expect(p.lb_algorithm).toBe(row.provider === 'ovn' ? 'SOURCE_IP_PORT' : 'ROUND_ROBIN');
    // allowed_cidrs: the Service has no loadBalancerSourceRanges; amphora lists 0.0.0.0/0 or nothing, OVN nothing.
    for (const l of lb.listeners) expect((l.allowed_cidrs ?? []).filter((c) => c !== '0.0.0.0/0')).toEqual([]);
  });

  test('Octavia: pool protocol (PROXY or TCP)', () => {
    for (const p of lb.pools) expect(p.protocol).toBe(row.proxy ? 'PROXY' : 'TCP');
  });

  test('Octavia: members are the nodes OCCM should use (workers; the control plane is excluded), on the Service NodePorts', () => {
    const want = memberIps(tb);
    for (const p of lb.pools) {
      expect(p.members.map((m) => m.address).sort()).toEqual(want);
      // The pool's listener's port is the Service port; its members listen on that port's NodePort.
      const listener = lb.listeners.find((l) => p.listeners.some((x) => x.id === l.id))!;
      const port = svc.spec.ports.find((x: any) => x.port === listener.protocol_port);
      expect(port).toBeDefined();
      for (const m of p.members) expect(m.protocol_port).toBe(port.nodePort);
    }
  });

  test('Service: externalTrafficPolicy and health monitor (type, port, healthCheckNodePort)', () => {
    expect(svc.spec.externalTrafficPolicy).toBe(row.etp);
    for (const p of lb.pools) {
      if (row.monitor === 'none') {
        expect(p.monitor).toBeUndefined();
        continue;
      }
      expect(p.monitor?.type).toBe(row.monitor);
      if (row.monitor === 'HTTP') {
        expect(p.monitor?.url_path).toBe('/healthz');
        expect(svc.spec.healthCheckNodePort).toBeGreaterThan(0);
        for (const m of p.members) expect(m.monitor_port).toBe(svc.spec.healthCheckNodePort);
      } else {
        for (const m of p.members) expect(m.monitor_port ?? null).toBeNull();
      }
    }
  });

  test('Neutron: one floating IP on the VIP port, from the external network CAPO uses', async () => {
    const nets = await tb.os.networks();
    const external = nets.filter((n) => n['router:external']);
    const pub = external.find((n) => n.name === tb.env.TESTBED_EXTERNAL_NETWORK)!;
    expect(lb.fips).toHaveLength(1);
    expect(lb.fips[0].floating_network_id).toBe(pub.id);
    expect(lb.fips[0].fixed_ip_address).toBe(lb.lb.vip_address);
  });

  test('Service status: the floating IP, or <fip>.nip.io with PROXY protocol', () => {
    const fip = lb.fips[0].floating_ip_address;
    const ing = svc.status.loadBalancer.ingress[0];
    if (row.hostname) expect(ing).toEqual({ hostname: `${fip}.nip.io` });
    else expect(ing.ip).toBe(fip);
    expect(svc.metadata.annotations['loadbalancer.openstack.org/load-balancer-address']).toBe(fip);
  });

  test('kaas verification agrees (apply-ingress, and create-cluster where it ran): nothing but the data-path-only mismatches', () => {
    const text = [runs.apply, runs.create].filter(Boolean).map((r) => r!.stderr + r!.stdout).join('\n');
    const ids = checkIds(text).filter((c) => c.startsWith('verify-'));
    expect(ids.filter((c) => !DATA_PATH_ONLY.has(c))).toEqual([]);
    // Each data-path mismatch kaas reports is what Octavia really says: the LB not ONLINE (amphora: no
    // amphora sends heartbeats), no member ONLINE (no health check runs; OVN: NO_MONITOR without northd).
    if (ids.includes('verify-lb-status')) {
      expect(lb.lb.operating_status).not.toBe('ONLINE');
      expect(text).toContain(`ACTIVE/${lb.lb.operating_status}`);
    }
    if (ids.includes('verify-members')) expect(lb.pools.flatMap((p) => p.members).filter((m) => m.operating_status === 'ONLINE')).toEqual([]);
    if (runs.apply.code !== 0) expect(ids.length).toBeGreaterThan(0);
  });

  test('kaas doctor agrees: no finding about the LB beyond the data path', () => {
    const d = kaas(tb, ['doctor', tb.cluster, '-o', 'json'], { sets: row.sets });
    note(tb, `${row.variant}: doctor exit ${d.code}\n${d.stdout.slice(0, 4000)}`);
    const out = JSON.parse(d.stdout) as { findings: { check: string; severity: string; message: string }[]; checked: string[] };
    const errors = out.findings.filter((f) => f.severity === 'error');
    expect(errors).toEqual([]);
    expect(out.checked).toEqual(expect.arrayContaining(['ovn-pool-monitor-type', 'ovn-pool-algorithm', 'proxy-protocol-mismatch', 'occm-config-contradicts-plan']));
  });
});
