import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleCloudState, type FakeCloudState } from './fake-cloud.js';
import { calls, fakeTools, sandbox } from './scenario.js';

/**
 * Interruption, for real: create-cluster runs in its own process (harness.ts) against the fake
 * tools and a file-backed fake cloud; it is SIGKILLed while it waits for the control plane (after
 * server groups were created and the objects applied). The kill follows the harness's
 * `HARNESS-WAITING` line (its first sleep), not a timer. The re-run converges: the groups are
 * reused, kubectl diff finds nothing so nothing is re-applied, and the flow finishes.
 */
const T = 240_000;

function harnessEnv(fakeEnv: Record<string, string>, sb: ReturnType<typeof sandbox>, cloudFile: string, hang = false) {
  return { ...process.env, ...fakeEnv, KAAS_HARNESS_HOME: sb.home, KAAS_HARNESS_MGMT: sb.mgmt, KAAS_HARNESS_CLOUD: cloudFile, KAAS_HARNESS_HANG: hang ? '1' : '0' };
}

describe('create-cluster killed between steps', () => {
  it('SIGKILL while waiting, then a re-run converges without re-applying', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const cloudFile = path.join(sb.home, 'cloud.json');
    writeFileSync(cloudFile, JSON.stringify(exampleCloudState()));
    const harness = path.resolve('dist/test/unit/cluster/harness.js');

    // Run 1: the control plane is not initialized at the first look; the harness then sleeps (and hangs).
    const first = fakeTools([c.apiVersions(), c.capoCrd(), c.diff(true), c.applyCluster(), c.kcp('get-kcp-pending.json')]);
    const child = spawn(process.execPath, [harness], { env: harnessEnv(first.env, sb, cloudFile, true), stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
    const waiting = await new Promise<boolean>((resolve) => {
      let out = '';
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('HARNESS-WAITING')) resolve(true);
      });
      child.on('exit', () => resolve(false));
    });
    expect({ waiting, stderr }).toEqual({ waiting: true, stderr: expect.any(String) });
    child.kill('SIGKILL');
    expect(await exited).toBe('SIGKILL');
    first.assertDone();
    const afterKill = JSON.parse(readFileSync(cloudFile, 'utf8')) as FakeCloudState;
    expect(afterKill.serverGroups.map((g) => g.name)).toEqual(['capi-demo-controller', 'capi-demo-worker']);
    expect(existsSync(sb.workload)).toBe(false);
    first.cleanup();

    // Run 2: resumes.
    const second = fakeTools([
      c.apiVersions(), c.capoCrd(), c.diff(false),
      c.kcp('get-kcp-initialized.json'), c.kubeconfigSecret(true), c.getKubeconfig(),
      c.applyAddon('name: openstack-cloud-controller-manager'), c.ciliumDaemonSet(false), c.cilium('install'),
      c.kcp('get-kcp-ready.json'), c.md('get-md-ready.json'),
      c.applyAddon('name: csi-cinder-controllerplugin'), c.applyAddon('name: metrics-server'),
    ]);
    try {
      const r = spawnSync(process.execPath, [harness], { env: harnessEnv(second.env, sb, cloudFile), encoding: 'utf8', timeout: 180_000 });
      expect(r.stderr).not.toMatch(/^error/m);
      expect(r.status).toBe(0);
      second.assertDone();
      expect(second.calls().some((x) => x.argv.includes('apply') && x.stdin.includes('kind: KubeadmControlPlane'))).toBe(false);
      const steps = JSON.parse(r.stdout.trim().split('\n').pop()!) as { step: string; detail: string }[];
      expect(steps.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged');
      expect(steps.find((s) => s.step === 'server groups')?.detail).toMatch(/exists.*exists/);
      const final = JSON.parse(readFileSync(cloudFile, 'utf8')) as FakeCloudState;
      expect(final.serverGroups).toHaveLength(2);
      expect(existsSync(sb.workload)).toBe(true);
    } finally {
      second.cleanup();
    }
  }, T);
});
