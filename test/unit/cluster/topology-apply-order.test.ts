import { parseAllDocuments } from 'yaml';
import { applyInOrder, topologyApplyOrder } from '../../../lib/cluster/topology/apply-order.js';
import type { ObjectDiff } from '../../../lib/cluster/live/reconcile.js';
import type { Kubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import type { KubeObject } from '../../../lib/render/documents.js';

// Review 2026-11-27 n4: a topology upgrade applied class and version as separate objects, so the
// topology controller could roll the control plane onto the new image at the old version.

const tpl: KubeObject = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', metadata: { name: 'cp-genc01-kaas-gen02', namespace: 'scs1' }, spec: { template: { spec: { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } } } } };
const cc: KubeObject = { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'ClusterClass', metadata: { name: 'scs1', namespace: 'scs1' }, spec: {} };
const cluster = (version: string): KubeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'scs1', namespace: 'scs1' }, spec: { topology: { classRef: { name: 'scs1' }, version, controlPlane: { replicas: 1 } } } });
const clusterDiff = (paths: [string, unknown, unknown][]): ObjectDiff => ({ kind: 'Cluster', name: 'scs1', action: 'update', fields: paths.map(([path, live, wanted]) => ({ path, live, wanted })) });
const upgrade = clusterDiff([['spec.topology.version', 'v1.34.10', 'v1.35.1']]);

describe('topologyApplyOrder: an upgrade\'s class and version reach the topology controller together', () => {
  it.each([
    ['the class alone (a flavor): one step', [tpl, cc], [] as ObjectDiff[], 1],
    ['the version alone (no class change): one step', [cluster('v1.34.11')], [clusterDiff([['spec.topology.version', 'v1.34.10', 'v1.34.11']])], 1],
    ['replicas and the class: one step (no version moves)', [tpl, cc, cluster('v1.34.10')], [clusterDiff([['spec.topology.controlPlane.replicas', 1, 3]])], 1],
    ['version and class: pause, class, resume at the new version', [tpl, cc, cluster('v1.35.1')], [upgrade], 3],
  ] as const)('%s', (_what, objects, diffs, steps) => {
    const o = topologyApplyOrder([...objects], [...diffs]);
    expect(o.steps).toHaveLength(steps);
    expect(o.steps.flatMap((s) => s.objects).filter((x) => x.kind !== 'Cluster' || steps === 1)).toEqual(objects.filter((x) => x.kind !== 'Cluster' || steps === 1));
  });

  it('the pause keeps the live version, the last step carries the new version without paused (server-side apply removes the field), resume is the live version unpaused', () => {
    const o = topologyApplyOrder([tpl, cc, cluster('v1.35.1')], [upgrade]);
    const [pause, klass, last] = o.steps;
    expect(pause.objects).toEqual([{ ...cluster('v1.34.10'), spec: { ...(cluster('v1.34.10').spec as object), paused: true } }]);
    expect(klass.objects).toEqual([tpl, cc]);
    expect(last.objects).toEqual([cluster('v1.35.1')]);
    expect(o.resume).toEqual(cluster('v1.34.10'));
  });
});

/** A kubectl that records each apply's objects (kind/name[@version][ paused]) and fails the one named. */
function recorder(failOn?: string) {
  const applied: string[] = [];
  const show = (o: Record<string, any>) => `${o.kind}/${o.metadata.name}${o.spec?.topology ? `@${o.spec.topology.version}` : ''}${o.spec?.paused ? ' paused' : ''}`; // eslint-disable-line @typescript-eslint/no-explicit-any
  const k = {
    run: async () => ({ exitCode: 1, stdout: 'diff', stderr: '' }),
    apply: async (manifest: string) => {
      const objs = parseAllDocuments(manifest).map((d) => d.toJS() as Record<string, any>); // eslint-disable-line @typescript-eslint/no-explicit-any
      if (failOn && objs.some((o) => o.kind === failOn)) throw new Error(`the apiserver refused ${failOn}`);
      applied.push(objs.map(show).join(' + '));
      return objs.map((o) => `${o.kind.toLowerCase()}/${o.metadata.name} serverside-applied`).join('\n');
    },
  } as unknown as Kubectl;
  return { k, applied };
}

describe('applyInOrder', () => {
  it('an upgrade: paused Cluster, then the class with its templates, then the Cluster at the new version', async () => {
    const { k, applied } = recorder();
    const r = await applyInOrder(k, topologyApplyOrder([tpl, cc, cluster('v1.35.1')], [upgrade]), memoryLogger(), 'cluster scs1', 'scs1');
    expect(applied).toEqual(['Cluster/scs1@v1.34.10 paused', 'OpenStackMachineTemplate/cp-genc01-kaas-gen02 + ClusterClass/scs1', 'Cluster/scs1@v1.35.1']);
    expect(r.changed).toBe(true);
    expect(r.applied).toHaveLength(4);
  });

  it('the class refused after the pause: the Cluster is resumed at its live version and the error goes on', async () => {
    const { k, applied } = recorder('ClusterClass');
    const log = memoryLogger();
    await expect(applyInOrder(k, topologyApplyOrder([tpl, cc, cluster('v1.35.1')], [upgrade]), log, 'cluster scs1', 'scs1')).rejects.toThrow(/refused ClusterClass/);
    expect(applied).toEqual(['Cluster/scs1@v1.34.10 paused', 'Cluster/scs1@v1.34.10']);
  });

  it('when even the resume fails, the log names the command that resumes it', async () => {
    const { k } = recorder('ClusterClass');
    let calls = 0;
    const apply = k.apply.bind(k);
    (k as { apply: Kubectl['apply'] }).apply = async (m, o) => {
      calls++;
      if (calls === 2) throw new Error('refused'); // the class step
      if (calls === 3) throw new Error('connection refused'); // the resume
      return apply(m, o);
    };
    const log = memoryLogger();
    await expect(applyInOrder(k, topologyApplyOrder([tpl, cc, cluster('v1.35.1')], [upgrade]), log, 'cluster scs1', 'scs1')).rejects.toThrow('refused');
    expect(log.lines.join('\n')).toMatch(/Cluster scs1\/scs1 is still paused after the failure: resume it with kubectl patch cluster scs1 -n scs1 --type merge -p '\{"spec":\{"paused":false\}\}'/);
  });
});
