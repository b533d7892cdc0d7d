import fs from 'node:fs';
import path from 'node:path';
import type { DoctorReport } from '../../../lib/checks/findings.js';
import { tempDir } from '../../support/cli.js';
import { createLb, NEUTRON, OCTAVIA, setLbStatus, setQuotas, settled, sqliteRetry, testProject, type TestProject } from '../../support/doctor-project.js';
import { kaasOnPeer, withPeer } from '../../support/peer.js';

/**
 * `kaas doctor --cloud-only` against the real Octavia and Neutron of the peer, in a project of its
 * own, with the problems made there: an amphora LB left PENDING_CREATE (the peer's amphora driver
 * has no worker), one forced into ERROR (set in Octavia's database: no API can), two OVN LBs with
 * one OCCM name (OCCM's re-creation loop), an unattached OCCM floating IP, quotas lowered to what
 * is used. The OVN pool with an HTTP monitor cannot be made: the ovn provider refuses it at the API
 * (HTTP 501), asserted here; that check is covered by the table tests.
 */
const T = 240_000;
const PROJECT = 'kaas-doctor-it';
const CLUSTER = 'drtest';
let t: TestProject;

beforeAll(async () => {
  t = await withPeer(() => testProject(PROJECT));
  setLbStatus({ projectId: t.projectId }, 'DELETED'); // leftovers of earlier runs
  // The unattached floating IP a run makes stays in this shared project when the run fails or is cut off;
  // the next "clean project" then finds it (and each further run one more).
  await withPeer(async () => {
    const fips = (await t.demo.call<{ floatingips: { id: string; project_id?: string }[] }>('network', NEUTRON, { method: 'GET', path: `/v2.0/floatingips?project_id=${t.projectId}` })).data.floatingips;
    for (const f of fips) await sqliteRetry(() => t.demo.call('network', NEUTRON, { method: 'DELETE', path: `/v2.0/floatingips/${f.id}`, expect: [204, 404] }));
  });
  await withPeer(() => setQuotas(t, { load_balancer: -1, listener: -1, pool: -1, health_monitor: -1 }, { floatingip: 50, port: 500 }));
}, T);

function doctor(args: string[]) {
  const r = kaasOnPeer(['doctor', ...args, '--cloud', PROJECT, '-o', 'json'], { OS_CLIENT_CONFIG_FILE: t.cloudsFile });
  return { ...r, report: (r.stdout ? JSON.parse(r.stdout) : undefined) as DoctorReport };
}
const by = (r: DoctorReport, check: string) => r.findings.filter((f) => f.check === check);

describe('kaas doctor against the OpenStack peer', () => {
  it('a clean project: exit 0, every cloud check ran, cluster checks skipped for --cloud-only', () => {
    const r = doctor([CLUSTER, '--cloud-only']);
    expect(r.code).toBe(0);
    expect(r.report.findings).toEqual([]);
    expect(Object.keys(r.report)).toEqual(['findings', 'checked', 'skipped', 'couldNotRun']);
    expect(r.report.couldNotRun).toEqual([]);
    expect(r.report.checked).toEqual(['lb-error', 'lb-stuck-pending', 'lb-recreation-loop', 'health-monitor-not-active', 'ovn-pool-monitor-type', 'ovn-pool-algorithm', 'ovn-listener-allowed-cidrs', 'fip-unattached', 'quota-headroom']);
    expect(r.report.skipped).toContainEqual({ check: 'etp-local-no-monitor', reason: '--cloud-only' });
  }, T);

  it('finds ERROR, stuck PENDING, the OVN re-creation loop, an unattached OCCM FIP and exhausted quotas', async () => {
    const pending = await withPeer(() => createLb(t, `kube_service_${CLUSTER}_app_web`, 'amphora'));
    const broken = await withPeer(() => createLb(t, `kube_service_${CLUSTER}_app_api`, 'amphora'));
    setLbStatus({ id: broken }, 'ERROR');
    const loop = `kube_service_${CLUSTER}_ingress-nginx_ingress-nginx-controller`;
    const ovn1 = await withPeer(() => createLb(t, loop, 'ovn'));
    const ovn2 = await withPeer(() => createLb(t, loop, 'ovn'));
    await withPeer(async () => {
      expect(await settled(t, ovn1)).toBe('ACTIVE');
      expect(await settled(t, ovn2)).toBe('ACTIVE');
    });
    const ext = (await withPeer(() => t.demo.call<{ networks: { id: string }[] }>('network', NEUTRON, { method: 'GET', path: '/v2.0/networks?router%3Aexternal=true' }))).data.networks[0];
    const fip = (await withPeer(() => sqliteRetry(() => t.demo.call<{ floatingip: { id: string; floating_ip_address: string } }>('network', NEUTRON, {
      method: 'POST', path: '/v2.0/floatingips', body: { floatingip: { floating_network_id: ext.id, description: `Floating IP for Kubernetes external service app/web from cluster ${CLUSTER}` } },
    })))).data.floatingip;
    // Quotas lowered to exactly what is in use: no room for one more LoadBalancer Service.
    await withPeer(() => setQuotas(t, { load_balancer: 4 }, { floatingip: 1 }));
    await new Promise((r) => setTimeout(r, 2000));

    const r = await withPeer(async () => doctor([CLUSTER, '--cloud-only', '--stuck-after', '1s']));
    expect(r.code).toBe(1);
    expect(by(r.report, 'lb-error').map((f) => f.resource)).toEqual([{ type: 'loadbalancer', id: broken, name: `kube_service_${CLUSTER}_app_api` }]);
    expect(by(r.report, 'lb-stuck-pending').map((f) => f.resource.id)).toEqual([pending]);
    expect(by(r.report, 'lb-stuck-pending')[0].message).toMatch(/has been PENDING_CREATE for \d+ seconds/);
    const loopF = by(r.report, 'lb-recreation-loop');
    expect(loopF).toHaveLength(1);
    expect(loopF[0].resource.id.split(',').sort()).toEqual([ovn1, ovn2].sort());
    expect(loopF[0].message).toMatch(/^2 Octavia load balancers are named .* the ovn provider refuses the HTTP health monitor/);
    expect(by(r.report, 'fip-unattached').map((f) => f.resource)).toEqual([{ type: 'floatingip', id: fip.id, name: fip.floating_ip_address }]);
    expect(by(r.report, 'quota-headroom').map((f) => f.resource.name).sort()).toEqual(['floatingip', 'load_balancer']);
    expect(by(r.report, 'quota-headroom').find((f) => f.resource.name === 'load_balancer')!.message).toBe('Quota load_balancer: 4 of 4 used, 0 free, but the plan needs 1 more (one more LoadBalancer Service).');
    for (const f of r.report.findings) expect(f.fix).not.toBe('');

    // Another cluster's name sees none of it, except the project-wide quota.
    // (The edge explicitly: new clusters get the Gateway and no ingress-nginx by default, issue 33 §3.)
    const other = await withPeer(async () => doctor(['othercluster', '--cloud-only', '--stuck-after', '1s', '--set', 'deploy_nginx_ingress=true', '--set', 'deploy_gateway=false']));
    expect(new Set(other.report.findings.map((f) => f.check))).toEqual(new Set(['quota-headroom']));
    // A cluster still to be created with the gateway beside ingress-nginx needs one load balancer more (the envoy Service's).
    const lbNeed = (rep: typeof other.report) => Number(/needs (\d+) more/.exec(by(rep, 'quota-headroom').find((f) => f.resource.name === 'load_balancer')!.message)![1]);
    const withGateway = await withPeer(async () => doctor(['othercluster', '--cloud-only', '--stuck-after', '1s', '--set', 'deploy_nginx_ingress=true', '--set', 'deploy_gateway=true']));
    expect(lbNeed(withGateway.report)).toBe(lbNeed(other.report) + 1);

    // Text output groups by severity.
    const text = await withPeer(async () => kaasOnPeer(['doctor', CLUSTER, '--cloud-only', '--stuck-after', '1s', '--cloud', PROJECT], { OS_CLIENT_CONFIG_FILE: t.cloudsFile }));
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(/\nERRORS \(\d+\)\n {2}\[lb-error\] loadbalancer kube_service_drtest_app_api/);
    expect(text.stdout).toMatch(/\nWARNINGS \(1\)\n {2}\[fip-unattached\] floatingip /);
    expect(text.stdout.indexOf('ERRORS')).toBeLessThan(text.stdout.indexOf('WARNINGS'));

    await withPeer(() => setQuotas(t, { load_balancer: -1 }, { floatingip: 50 }));
    await withPeer(() => t.demo.call('network', NEUTRON, { method: 'DELETE', path: `/v2.0/floatingips/${fip.id}`, expect: [204, 404] }));
    setLbStatus({ projectId: t.projectId }, 'DELETED');
  }, T);

  it('the ovn provider refuses an HTTP health monitor at the API (HTTP 501), so the loop shows as duplicate LBs', async () => {
    const id = await withPeer(() => createLb(t, `kube_service_${CLUSTER}_app_hm`, 'ovn'));
    await withPeer(() => settled(t, id));
    const pool = await withPeer(() => sqliteRetry(() => t.demo.call<{ pool: { id: string } }>('load-balancer', OCTAVIA, {
      method: 'POST', path: '/v2/lbaas/pools', body: { pool: { loadbalancer_id: id, protocol: 'TCP', lb_algorithm: 'SOURCE_IP_PORT' } },
    })));
    await withPeer(() => settled(t, id));
    const hm = await withPeer(() => t.demo.call('load-balancer', OCTAVIA, {
      method: 'POST', path: '/v2/lbaas/healthmonitors', expect: [201, 501], body: { healthmonitor: { pool_id: pool.data.pool.id, type: 'HTTP', delay: 5, timeout: 3, max_retries: 1 } },
    }));
    expect(hm.status).toBe(501);
    setLbStatus({ projectId: t.projectId }, 'DELETED');
  }, T);

  // Issue 23, item 6: this was exit 0 — green with every cluster check not run.
  it('an unreachable cluster: cluster checks could not run with kubectl\'s reason, cloud checks still run, exit 1, no crash', () => {
    const dir = tempDir();
    const kc = path.join(dir, 'kc.yaml');
    fs.writeFileSync(kc, 'apiVersion: v1\nkind: Config\nclusters:\n- name: x\n  cluster:\n    server: https://127.0.0.1:1\ncontexts:\n- name: x\n  context:\n    cluster: x\n    user: x\ncurrent-context: x\nusers:\n- name: x\n  user:\n    token: t\n', { mode: 0o600 });
    const r = doctor([CLUSTER, '--kubeconfig', kc]);
    expect(r.code).toBe(1);
    expect(r.report.checked).toContain('lb-error');
    expect(r.report.skipped).toEqual([]);
    const reason = r.report.couldNotRun.find((s) => s.check === 'etp-local-no-monitor')!.reason;
    expect(reason).toMatch(/^cluster drtest not reachable: .*127\.0\.0\.1:1.*refused/);
  }, T);

  it('bad usage exits 2', () => {
    expect(kaasOnPeer(['doctor', CLUSTER, '--stuck-after', 'soon'], { OS_CLIENT_CONFIG_FILE: t.cloudsFile }).code).toBe(2);
    expect(kaasOnPeer(['doctor', 'Bad_Name', '--cloud', PROJECT], { OS_CLIENT_CONFIG_FILE: t.cloudsFile }).code).toBe(2);
  });
});
