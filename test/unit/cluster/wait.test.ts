import type { ControlPlaneStatus, MachineDeploymentStatus, ReplicaStatus } from '../../../lib/kube/cluster-api.js';
import { memoryLogger } from '../../../lib/log.js';
import { controlPlaneAt, machinesProgress } from '../../../lib/cluster/create/progress.js';
import { machineWaits } from '../../../lib/cluster/timeouts.js';
import { retryingProbe, waitFor } from '../../../lib/cluster/wait.js';
import { ExecError } from '../../../lib/exec/runner.js';
import { fakeClock } from './scenario.js';

const rs = (replicas: number, ready: number, updated: number, current = replicas): ReplicaStatus => ({ exists: true, replicas, readyReplicas: ready, upToDateReplicas: updated, currentReplicas: current, observed: true, notes: [] });

describe('machine waits time out on "no progress", not on a fixed total', () => {
  // A rollout of 20 workers, one at a time, 10 minutes per worker: 200 minutes, counts moving all along.
  const rollout = (clock: ReturnType<typeof fakeClock>) => async () => {
    const updated = Math.min(20, Math.floor((clock.now() - 1_000_000) / 600_000));
    return machinesProgress(rs(1, 1, 1), rs(20, 20, updated, updated < 20 ? 21 : 20));
  };

  it('a slow rollout whose counts keep moving finishes, and each change of the counts is logged', async () => {
    const clock = fakeClock();
    const logger = memoryLogger(false);
    const w = machineWaits(5, { controllers: 1, workers: 20 });
    const secs = await waitFor({ title: 'machines ready', timeoutSec: w.machinesSec, stallSec: w.stallSec, intervalMs: 60_000, logger, clock, hint: 'h', probe: rollout(clock) });
    expect(secs).toBeGreaterThan(180 * 60);
    expect(logger.lines.filter((l) => l.includes('machines ready: control plane 1/1 ready, 1/1 up to date; workers 20/20 ready, 7/20 up to date, 21 machines (old ones still there)'))).toHaveLength(1);
  });

  it('a rollout that stops moving fails after one machine slot without progress, with the counts it is stuck at', async () => {
    const clock = fakeClock();
    const w = machineWaits(5, { controllers: 1, workers: 20 });
    const stuck = async () => machinesProgress(rs(1, 1, 1), rs(20, 20, 3, 21));
    await expect(waitFor({ title: 'machines ready', timeoutSec: w.machinesSec, stallSec: w.stallSec, intervalMs: 60_000, logger: memoryLogger(false), clock, hint: 'kubectl get machines', probe: stuck })).rejects.toMatchObject({
      message: 'machines ready: no progress for 900s (stuck at: control plane 1/1 ready, 1/1 up to date; workers 20/20 ready, 3/20 up to date, 21 machines (old ones still there))',
      hint: 'kubectl get machines; running the command again resumes where it stopped',
    });
    expect(clock.now() - 1_000_000).toBe(900_000);
  });
});

describe('controlPlaneAt: the control plane runs the new version on every machine', () => {
  const cp = (version: string | undefined, r: ReplicaStatus): ControlPlaneStatus => ({ ...r, initialized: true, ...(version ? { version } : {}) });
  it.each<[string, ControlPlaneStatus, boolean]>([
    ['old version reported', cp('v1.33.4', rs(3, 3, 1, 4)), false],
    ['new version, rollout done', cp('v1.34.1', rs(3, 3, 3)), true],
    ['new version reported but an old machine left', cp('v1.34.1', rs(3, 3, 3, 4)), false],
    ['no version yet', cp(undefined, rs(1, 0, 0)), false],
  ])('%s → done %s', (_n, status, done) => {
    expect(controlPlaneAt(status, 'v1.34.1').done).toBe(done);
  });
});

describe('machinesProgress after a kubernetes_version change: done only when control plane and workers are at the target (review 2026-11-27 n5)', () => {
  const cp = (version: string | undefined, r: ReplicaStatus = rs(3, 3, 3)): ControlPlaneStatus => ({ ...r, initialized: true, ...(version ? { version } : {}) });
  const md = (version: string | undefined, r: ReplicaStatus = rs(3, 3, 3)): MachineDeploymentStatus => ({ ...r, ...(version ? { version } : {}) });
  it.each<[string, ControlPlaneStatus, MachineDeploymentStatus, boolean]>([
    ['control plane done, workers not yet bumped by the topology controller (counts all "rolled out")', cp('v1.35.2'), md('v1.34.4'), false],
    ['control plane still at the old minor, workers bumped', cp('v1.34.4'), md('v1.35.2'), false],
    ['both at the target but a worker still rolling', cp('v1.35.2'), md('v1.35.2', rs(3, 3, 2, 4)), false],
    ['control plane has no version yet', cp(undefined), md('v1.35.2'), false],
    ['both at the target and rolled out', cp('v1.35.2'), md('v1.35.2'), true],
  ])('%s → done %s', (_n, c, m, done) => {
    expect(machinesProgress(c, m, 'v1.35.2').done).toBe(done);
  });

  it('the progress names both versions, so the stall timer sees the workers move', () => {
    expect(machinesProgress(cp('v1.35.2'), md('v1.34.4'), 'v1.35.2').progress).toBe('control plane 3/3 ready, 3/3 up to date, runs v1.35.2; workers 3/3 ready, 3/3 up to date, rolled to v1.34.4 (want v1.35.2)');
  });

  it('without a version change only the counts decide (a create or a worker_count change)', () => {
    expect(machinesProgress(cp('v1.34.4'), md('v1.34.4'))).toEqual({ done: true, progress: 'control plane 3/3 ready, 3/3 up to date; workers 3/3 ready, 3/3 up to date' });
  });
});

describe('retryingProbe (the Cluster wait of delete-cluster: review 2026-11-27 n2)', () => {
  it.each([
    ['a transient error is "not done yet", with its last line as progress', new ExecError('kubectl', ['get'], 1, 'The connection to the server 127.0.0.1:1 was refused'), { done: false, progress: 'The connection to the server 127.0.0.1:1 was refused; retrying' }],
  ])('%s', async (_what, error, want) => {
    expect(await retryingProbe((e) => e instanceof ExecError, async () => { throw error; })()).toEqual(want);
  });

  it('any other error still ends the wait, and a probe that answers is passed through', async () => {
    await expect(retryingProbe((e) => e instanceof ExecError, async () => { throw new TypeError('bug'); })()).rejects.toThrow('bug');
    expect(await retryingProbe(() => true, async () => ({ done: true, progress: 'gone' }))()).toEqual({ done: true, progress: 'gone' });
  });

  it('a wait over it survives a failing poll and finishes', async () => {
    let n = 0;
    const probe = retryingProbe((e) => e instanceof ExecError, async () => {
      n++;
      if (n === 1) throw new ExecError('kubectl', ['get'], 1, 'Unable to connect to the server: EOF');
      return { done: n >= 3, progress: `poll ${n}` };
    });
    await waitFor({ title: 'Cluster demo deleted', timeoutSec: 600, intervalMs: 1000, logger: memoryLogger(false), clock: fakeClock(), hint: 'h', probe });
    expect(n).toBe(3);
  });
});
