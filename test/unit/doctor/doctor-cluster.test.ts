import path from 'node:path';
import { DOCTOR_CHECKS } from '../../../lib/checks/catalogue.js';
import { runDoctor, type DoctorOptions } from '../../../lib/doctor/doctor.js';
import { incompleteError } from '../../../lib/checks/findings.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeRunner, fakeTools, RECORDED, type FakeCall, type FakeTools } from '../../fakes/fake-tools.js';
import { workloadHome, fakeKubectlFor } from '../../support/workload.js';
import { snapshotCalls } from './kube-scenario.js';

/**
 * doctor's cluster side through the process-level kubectl fake (recorded object shapes). The cloud
 * is unreachable here on purpose: its checks are listed as skipped, the cluster checks still run.
 */
let fake: FakeTools | undefined;
afterEach(() => fake?.cleanup());

function setup(calls: (kc: string) => FakeCall[]) {
  const { home, kubeconfig } = workloadHome();
  fake = fakeTools(calls(kubeconfig));
  const o: DoctorOptions = {
    cluster: 'demo', settingsDir: 'settings', env: 'example', environ: { OS_CLIENT_CONFIG_FILE: path.resolve('test/fixtures/cluster/clouds.yaml') }, cwd: process.cwd(), home,
    cloud: 'example-cloud', kubeconfig, sets: ['use_ovn_lb_provider=false'],
  };
  const deps = {
    logger: memoryLogger(), runner: fakeRunner(fake), now: () => Date.parse('2026-05-01T12:00:00Z'),
    kubectlFor: fakeKubectlFor(() => fake!),
    connect: () => Promise.reject(new Error('connect ECONNREFUSED keystone.example:5000')),
  };
  return { o, deps };
}

describe('kaas doctor, cluster side (kubectl fake)', () => {
  it('reads the cluster once and reports ETP Local without monitor, the stale OCCM, the retired ingress-nginx; cloud checks skipped with the reason', async () => {
    const { o, deps } = setup((kc) => snapshotCalls(kc, { secret: { stdoutFile: `${RECORDED}/get-secret-cloud-config-changed.json` } }));
    const r = await runDoctor(o, deps);
    fake!.assertDone();
    expect(r.exitCode).toBe(1);
    expect(r.data.findings.map((f) => `${f.severity} ${f.check} ${f.resource.id}`)).toEqual([
      'error etp-local-no-monitor app/web',
      'warning ingress-nginx-retired ingress-nginx/ingress-nginx-controller',
      'warning occm-config-drift kube-system/cloud-config',
      'warning occm-not-restarted kube-system/cloud-config',
    ]);
    expect(r.data.findings[0].fix).toBe('kubectl annotate service -n app web --overwrite loadbalancer.openstack.org/enable-health-monitor=true (or occm_loadbalancer create-monitor: "true" for every Service)');
    expect(r.data.couldNotRun).toContainEqual({ check: 'lb-error', reason: 'cloud example-cloud not readable: connect ECONNREFUSED keystone.example:5000' });
    expect(r.data.couldNotRun.map((s) => s.check)).toContain('lb-orphaned');
    expect(r.data.checked).toContain('proxy-protocol-mismatch');
    expect(r.text).toMatch(/^ERRORS \(1\)$/m);
    // The cloud.conf secret read from the cluster never reaches the report.
    expect(JSON.stringify(r.data)).not.toContain('s3cr3t-value');
  });

  // Issue 23, item 6: with the cloud unreadable too, nothing was checked: that was "no findings", exit 0.
  it('an unreachable cluster and an unreadable cloud: every check could not run, each listed with its reason, exit 1 (not health)', async () => {
    const { o, deps } = setup((kc) => [{ tool: 'kubectl', argv: ['--kubeconfig', kc, 'version', '-o', 'json'], response: { stderrFile: `${RECORDED}/error-connection-refused.txt`, exitCode: 1 } }]);
    const r = await runDoctor(o, deps);
    fake!.assertDone();
    expect(r.exitCode).toBe(1);
    expect(r.data.findings).toEqual([]);
    expect(r.data.checked).toEqual([]);
    expect(r.data.skipped).toEqual([]);
    const cluster = 'cluster demo not reachable: The connection to the server 127.0.0.1:1 was refused - did you specify the right host or port?';
    expect(r.data.couldNotRun).toContainEqual({ check: 'etp-local-no-monitor', reason: cluster });
    expect(r.data.couldNotRun).toContainEqual({ check: 'lb-error', reason: 'cloud example-cloud not readable: connect ECONNREFUSED keystone.example:5000' });
    expect(r.data.couldNotRun).toHaveLength(DOCTOR_CHECKS.length);
    // Per check, in the text: "could not run: <why>"; never a bare "no findings".
    for (const c of DOCTOR_CHECKS) expect(r.text).toMatch(new RegExp(`^  ${c.id}: could not run: (cloud|cluster) `, 'm'));
    expect(r.text).not.toMatch(/^no findings$/m);
    // Issue 31: the error line goes to stderr (not into the report on stdout), with the causes' hints.
    expect(r.text).not.toMatch(/^error: /m);
    expect(r.stderr).toMatch(new RegExp(`^error: ${DOCTOR_CHECKS.length} check\\(s\\) could not run \\(.*\\); this is not a clean bill of health$`, 'm'));
  });

  it('the stderr error of an incomplete report carries the hints of its causes, each once and on one line', () => {
    const data = { findings: [], checked: [], skipped: [], couldNotRun: [{ check: 'lb-error', reason: 'cloud c not readable: Octavia: GET x failed' }, { check: 'lb-stuck', reason: 'cloud c not readable: Octavia: GET x failed' }] };
    expect(incompleteError(data, ['Octavia did not answer like its API', 'Octavia did not answer like its API', 'a\nhint: fake'])).toBe(
      'error: 2 check(s) could not run (cloud c not readable: Octavia: GET x failed); this is not a clean bill of health\nhint: Octavia did not answer like its API\nhint: a\\u000ahint: fake');
    expect(incompleteError({ ...data, couldNotRun: [] }, ['x'])).toBeUndefined();
  });

  // Issue 23, item 6 (rest): the cluster side unreachable was a skip with exit 0 — doctor green with half its checks not run.
  it('only the cluster unreachable: its checks could not run, exit 1; --cloud-only (a choice) stays a skip', async () => {
    const { o, deps } = setup((kc) => [{ tool: 'kubectl', argv: ['--kubeconfig', kc, 'version', '-o', 'json'], response: { stderrFile: `${RECORDED}/error-connection-refused.txt`, exitCode: 1 } }]);
    const r = await runDoctor(o, deps);
    const clusterChecks = DOCTOR_CHECKS.filter((c) => c.needs[0] === 'cluster').map((c) => c.id);
    expect(r.data.couldNotRun.filter((s) => s.reason.startsWith('cluster demo not reachable')).map((s) => s.check).sort()).toEqual([...clusterChecks].sort());
    expect(r.exitCode).toBe(1);
  });
  it('--cloud-only never runs kubectl', async () => {
    const { o, deps } = setup(() => []);
    const r = await runDoctor({ ...o, cloudOnly: true }, deps);
    expect(fake!.calls()).toEqual([]);
    // lb-orphaned needs both sides: the first missing one (the cloud here) gives its reason.
    expect(r.data.skipped.filter((s) => s.reason === '--cloud-only')).toHaveLength(10);
    expect(r.data.skipped.map((s) => s.reason)).toEqual(Array(10).fill('--cloud-only'));
    // lb-orphaned needs both sides: the first missing one (the unreadable cloud here) could not be read.
    expect(r.data.couldNotRun.map((s) => s.check)).toContain('lb-orphaned');
  });
});
