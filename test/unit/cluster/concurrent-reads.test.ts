import { prefetchPlanReads, type ClusterCloud } from '../../../lib/cluster/cloud.js';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { gatherManagementFacts } from '../../../lib/cluster/preflight.js';
import type { ProcessRunner, RunOptions, RunResult } from '../../../lib/exec/runner.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { fakeManagementCluster } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/**
 * create-cluster's reads go out together where they do not depend on each other (the testbed bench,
 * docs/development/benchmarks.md): the plan's cloud reads beside the capabilities, the management
 * preflight's reads beside the cloud's once the cloud answered, the CRDs beside the Deployments.
 * What stays in order: the first management read alone (an unreachable cluster stops there), and
 * what is judged (the plan's refusal first, then the preflight's).
 */

const T = 120_000;
const turn = () => new Promise<void>((r) => setImmediate(r));

/** An in-process kubectl runner: answers by verb after one event-loop turn, recording what had started by then. */
function scriptedKubectl(answer: (args: string[]) => RunResult) {
  const started: string[] = [];
  const startedWhenAnswered = new Map<string, string[]>();
  const runner: ProcessRunner = {
    async run(_cmd: string, args: string[]) {
      const what = args.slice(0, 2).join(' ');
      started.push(what);
      await turn();
      startedWhenAnswered.set(what, [...started]);
      return answer(args);
    },
  };
  return { kubectl: createKubectl(runner), started, startedWhenAnswered };
}

const ok = (stdout: string): RunResult => ({ exitCode: 0, stdout, stderr: '' });
const list = (items: unknown[]) => ok(JSON.stringify({ apiVersion: 'v1', kind: 'List', items }));

describe('the management preflight reads the CRDs and the Deployments at the same time', () => {
  it('both are under way before either answers, and reached() sees the served versions once both went out', async () => {
    const s = scriptedKubectl((args) => (args[0] === 'api-versions' ? ok('cluster.x-k8s.io/v1beta2\nv1\n') : list([])));
    let startedAtReached: string[] = [];
    let served: string[] = [];
    const facts = await gatherManagementFacts(s.kubectl, { reached: (v) => { served = v; startedAtReached = [...s.started]; } });
    expect(s.started).toEqual(['api-versions', 'get customresourcedefinition', 'get deployments']);
    // One after the other, the CRD read would have answered before the Deployments were asked.
    expect(s.startedWhenAnswered.get('get customresourcedefinition')).toContain('get deployments');
    expect(startedAtReached).toEqual(s.started);
    expect(served).toEqual(['cluster.x-k8s.io/v1beta2', 'v1']);
    expect(facts.deployments).toEqual([]);
  });

  it('an unreachable cluster stops at the first read: nothing else is asked and reached() is not called', async () => {
    const s = scriptedKubectl(() => ({ exitCode: 1, stdout: '', stderr: 'The connection to the server 127.0.0.1:6443 was refused\n' }));
    let reached = false;
    const err = await gatherManagementFacts(s.kubectl, { reached: () => { reached = true; } }).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/kubectl api-versions/);
    expect(s.started).toEqual(['api-versions']);
    expect(reached).toBe(false);
  });
});

/** A cloud with class methods (a `this` to keep) counting each read. */
class CountingCloud {
  counts: Record<string, number> = { imageNames: 0, flavors: 0, serverGroups: 0 };
  constructor(private readonly failFlavors = false) {}
  async imageNames() {
    this.counts.imageNames++;
    return [`image-${this.counts.imageNames}`];
  }
  async flavors() {
    this.counts.flavors++;
    if (this.failFlavors) throw new Error('nova: HTTP 503');
    return [{ name: 'm1', disk: 20 }];
  }
  async serverGroups() {
    this.counts.serverGroups++;
    return [];
  }
  async octaviaVersion() {
    return `2.${Object.values(this.counts).reduce((a, b) => a + b, 0)}`;
  }
}

describe('prefetchPlanReads', () => {
  it('asks images and flavors at once, server groups (Nova too) right after the flavors; the first call of each gets that answer, a later one asks again', async () => {
    const c = new CountingCloud();
    const p = prefetchPlanReads(c as unknown as ClusterCloud);
    expect(c.counts).toEqual({ imageNames: 1, flavors: 1, serverGroups: 0 });
    await turn();
    expect(c.counts).toEqual({ imageNames: 1, flavors: 1, serverGroups: 1 });
    expect(await p.imageNames()).toEqual(['image-1']);
    expect(await p.flavors()).toEqual([{ name: 'm1', disk: 20 }]);
    expect(await p.serverGroups()).toEqual([]);
    expect(c.counts).toEqual({ imageNames: 1, flavors: 1, serverGroups: 1 });
    // Server groups change once kaas creates them: a second read is a new one.
    await p.serverGroups();
    expect(await p.imageNames()).toEqual(['image-2']);
    expect(c.counts).toEqual({ imageNames: 2, flavors: 1, serverGroups: 2 });
    // Every other method is the cloud's own, bound to it.
    expect(await p.octaviaVersion()).toBe('2.5');
  });

  it('a prefetch that fails fails the first call, not the process (no unhandled rejection)', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (e: unknown) => unhandled.push(e);
    process.on('unhandledRejection', onUnhandled);
    try {
      const p = prefetchPlanReads(new CountingCloud(true) as unknown as ClusterCloud);
      for (let i = 0; i < 5; i++) await turn();
      expect(unhandled).toEqual([]);
      await expect(p.flavors()).rejects.toThrow('nova: HTTP 503');
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });
});

describe('create-cluster asks the management cluster while it plans', () => {
  it('the preflight\'s first read goes out before the cloud answered the image lookup, and the run still creates the cluster', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      const deps = fakeDeps(mgmt);
      const seen: string[] = [];
      const base = deps.runner;
      let opened!: () => void;
      const mgmtAsked = new Promise<void>((r) => (opened = r));
      deps.runner = { run: (cmd, args, opts) => (seen.push(args[2] ?? ''), args[2] === 'api-versions' && opened(), base.run(cmd, args, opts)) };
      // The image lookup answers only once the management cluster was asked (or after 20 s, noted: a
      // preflight that waits for the plan would never be asked before it).
      let waitedOut = false;
      const images = deps.cloud.imageNames.bind(deps.cloud);
      deps.cloud.imageNames = async () => {
        await Promise.race([mgmtAsked, new Promise<void>((r) => setTimeout(() => { waitedOut = true; r(); }, 20_000).unref())]);
        return images();
      };
      const r = await createCluster({ ...runOptions(sb), wait: false }, deps);
      expect(waitedOut).toBe(false);
      expect(seen.slice(0, 3)).toEqual(['api-versions', 'get', 'get']);
      expect(r.checks).toContainEqual({ name: 'CAPO', status: 'ok', detail: 'OpenStackCluster served as v1beta1' });
      expect(mgmt.mutations().map((c) => c.argv.slice(2, 4).join(' '))).toEqual(['create namespace', 'apply --server-side']);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('a plan the cloud refuses stops the run with its own error and ends the management reads still under way', async () => {
    const sb = sandbox();
    const state = exampleCloudState();
    state.images = [];
    const deps = fakeDeps({ env: {} }, fakeCloud(state));
    const signals: (AbortSignal | undefined)[] = [];
    // A management cluster that never answers (a black-holed address): each read ends only when aborted.
    deps.runner = {
      run: (_cmd: string, _args: string[], opts: RunOptions = {}) => new Promise<RunResult>((_resolve, reject) => {
        signals.push(opts.signal);
        opts.signal?.addEventListener('abort', () => reject(new Error('ended')));
      }),
    };
    const err = await createCluster({ ...runOptions(sb), wait: false }, deps).then(() => undefined, (e: Error) => e);
    expect(err?.message).toMatch(/image/);
    expect(signals).toHaveLength(1);
    expect(signals[0]?.aborted).toBe(true);
  }, T);
});
