import { createCluster } from '../../../lib/cluster/create/create.js';
import type { ProcessRunner } from '../../../lib/exec/runner.js';
import { fakeManagementCluster } from '../../fakes/fake-tools.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/**
 * How many kubectl processes one create-cluster starts, counted at the seam every kubectl call goes
 * through (the ProcessRunner under lib/kube/kubectl.ts), against the fake management cluster. Each
 * is a process start plus its own discovery and requests against the apiserver, the client part of
 * create-cluster that the testbed benchmark (test/bench/testbed.bench.ts) times against the plain
 * path. The bounds are what the batched reads and applies reach; they fail when a step goes back to
 * one kubectl per object.
 */
const T = 400_000;
const MAX_MGMT = 14;
const MAX_ALL = 21;
const LIVE_KINDS = [
  'clusters.v1beta2.cluster.x-k8s.io', 'openstackclusters.v1beta1.infrastructure.cluster.x-k8s.io', 'kubeadmcontrolplanes.v1beta2.controlplane.cluster.x-k8s.io',
  'machinedeployments.v1beta2.cluster.x-k8s.io', 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io', 'kubeadmconfigtemplates.v1beta2.bootstrap.cluster.x-k8s.io',
].join(',');

type Call = { tool: string; argv: string[] };

function counting(base: ProcessRunner, calls: Call[]): ProcessRunner {
  return { run: (cmd, args, opts) => (calls.push({ tool: cmd, argv: args }), base.run(cmd, args, opts)) };
}

/** kubectl's verb and resource, without the target flags (e.g. "get clusters.v1beta2.cluster.x-k8s.io"). */
function what(c: Call): string {
  const a = c.argv.filter((x, i, all) => x !== '--kubeconfig' && all[i - 1] !== '--kubeconfig');
  return a.slice(0, 2).join(' ');
}

describe('create-cluster: kubectl processes of one run', () => {
  it('a first create of cluster demo on a ready management cluster stays within the bounds', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      const calls: Call[] = [];
      const deps = fakeDeps(mgmt);
      deps.runner = counting(deps.runner, calls);
      const r = await createCluster(runOptions(sb), deps);
      expect(r.waited).toBe(true);
      const kubectl = calls.filter((c) => c.tool === 'kubectl');
      const onMgmt = kubectl.filter((c) => c.argv[1] === sb.mgmt);
      const onWorkload = kubectl.filter((c) => c.argv[1] === sb.workload);
      const listing = kubectl.map((c) => `${c.argv[1] === sb.mgmt ? 'mgmt' : 'workload'}: ${what(c)}`).join('\n');
      // Before the batched reads: 25 on the management cluster (4 preflight reads, 8 reads of the live
      // objects, one per object), 32 in all. The preflight now reads both CRDs in one run, the live
      // objects in two (all kinds in one list, the Secrets by name). 18 and 25 before the next step:
      // the Namespace is read with the Secrets (no `get namespace` of its own), new objects are applied
      // without a `kubectl diff` after the server's dry-run, and each poll of the machine wait reads
      // the control plane and the MachineDeployment in one run.
      expect({ mgmt: onMgmt.length <= MAX_MGMT, all: kubectl.length <= MAX_ALL, listing }).toEqual({ mgmt: true, all: true, listing });
      expect(onWorkload.length).toBe(7);
      // The checks are all still made: the preflight's three reads, one list of the live objects, the
      // server's dry-run of every object before the one apply.
      expect(onMgmt.slice(0, 3).map(what)).toEqual(['api-versions', 'get customresourcedefinition', 'get deployments']);
      expect(onMgmt.map(what)).toContain(`get ${LIVE_KINDS}`);
      const applies = onMgmt.filter((c) => c.argv.includes('apply')).map((c) => c.argv.includes('--dry-run=server') ? 'dry-run' : 'apply');
      expect(applies).toEqual(['dry-run', 'apply']);
    } finally {
      mgmt.cleanup();
    }
  }, T);
});
