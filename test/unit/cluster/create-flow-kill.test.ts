import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { exampleCloudState, type FakeCloudState } from './fake-cloud.js';
import { fakeManagementCluster } from '../../fakes/fake-tools.js';
import { sandbox } from './scenario.js';

/**
 * Interruption, for real: create-cluster runs in its own process (harness.ts) against the fake
 * management cluster and a file-backed fake cloud; it is SIGKILLed while it waits for the control
 * plane (after server groups were created and the objects applied). The re-run converges: the groups
 * are reused, nothing is re-applied on the management cluster, and the flow finishes.
 */
const T = 240_000;

function harnessEnv(fakeEnv: Record<string, string>, sb: ReturnType<typeof sandbox>, cloudFile: string) {
  return { ...process.env, ...fakeEnv, KAAS_HARNESS_HOME: sb.home, KAAS_HARNESS_MGMT: sb.mgmt, KAAS_HARNESS_CLOUD: cloudFile };
}

describe('create-cluster killed between steps', () => {
  it('SIGKILL while waiting, then a re-run converges without re-applying', async () => {
    const sb = sandbox();
    const cloudFile = path.join(sb.home, 'cloud.json');
    writeFileSync(cloudFile, JSON.stringify(exampleCloudState()));
    const harness = path.resolve('dist/test/unit/cluster/harness.js');

    // Run 1: the control plane never initializes (its controller makes no progress) until the kill.
    const mgmt = fakeManagementCluster(sb.mgmt);
    mgmt.controllers(false);
    try {
      const kcpReads = () => mgmt.calls().filter((x) => x.argv.includes('kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io') && x.argv.includes('demo-control-plane')).length;
      const child = spawn(process.execPath, [harness], { env: harnessEnv(mgmt.env, sb, cloudFile), stdio: 'ignore' });
      const exited = new Promise<NodeJS.Signals | null>((resolve) => child.on('exit', (_code, signal) => resolve(signal)));
      for (let i = 0; i < 1200 && kcpReads() < 3; i++) await new Promise((r) => setTimeout(r, 100));
      child.kill('SIGKILL');
      expect(await exited).toBe('SIGKILL');
      expect(mgmt.objects()['KubeadmControlPlane/demo/demo-control-plane']).toBeDefined();
      const afterKill = JSON.parse(readFileSync(cloudFile, 'utf8')) as FakeCloudState;
      expect(afterKill.serverGroups.map((g) => g.name)).toEqual(['capi-demo-controller', 'capi-demo-worker']);
      expect(existsSync(sb.workload)).toBe(false);
      const applied = mgmt.mutations().length;

      // Run 2: resumes.
      mgmt.controllers(true);
      const r = spawnSync(process.execPath, [harness], { env: harnessEnv(mgmt.env, sb, cloudFile), encoding: 'utf8', timeout: 180_000 });
      expect(r.stderr).not.toMatch(/^error/m);
      expect(r.status).toBe(0);
      expect(mgmt.mutations().slice(applied).filter((x) => x.argv.includes(sb.mgmt))).toEqual([]);
      const steps = JSON.parse(r.stdout.trim().split('\n').pop()!) as { step: string; detail: string }[];
      expect(steps.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
      expect(steps.find((s) => s.step === 'server groups')?.detail).toMatch(/exists.*exists/);
      const final = JSON.parse(readFileSync(cloudFile, 'utf8')) as FakeCloudState;
      expect(final.serverGroups).toHaveLength(2);
      expect(existsSync(sb.workload)).toBe(true);
    } finally {
      mgmt.cleanup();
    }
  }, T);
});
