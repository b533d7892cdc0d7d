import { createCluster } from '../../../lib/cluster/create.js';
import { fakeManagementCluster, type FakeManagementCluster } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 240_000;

type Sb = ReturnType<typeof sandbox>;
const run = (sb: Sb, mgmt: FakeManagementCluster, cloud: ReturnType<typeof fakeCloud>, sets: string[] = [], dryRun = false) =>
  createCluster({ ...runOptions(sb, { dryRun }), sets: [...runOptions(sb).sets, ...sets] }, fakeDeps(mgmt, cloud));

const names = (m: FakeManagementCluster, kind: string) => Object.values(m.objects()).filter((o) => o.kind === kind).map((o) => o.metadata.name).sort();
const obj = (m: FakeManagementCluster, kind: string, name: string, ns = 'demo') => m.objects()[`${kind}/${ns}/${name}`];

describe('create-cluster re-runs against a stateful management cluster', () => {
  let sb: Sb;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof fakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    cloud = fakeCloud(exampleCloudState());
  });
  afterEach(() => mgmt.cleanup());

  it('first run creates namespace demo and the objects; a re-run applies nothing', async () => {
    const r = await run(sb, mgmt, cloud);
    expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toMatch(/objects applied in namespace demo \(created\)/);
    expect(names(mgmt, 'Namespace')).toEqual(['demo']);
    expect(names(mgmt, 'OpenStackMachineTemplate')).toHaveLength(2);
    const before = mgmt.mutations().length;
    const again = await run(sb, mgmt, cloud);
    expect(again.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
    // Only the add-ons (workload cluster) are applied again, nothing on the management cluster.
    expect(mgmt.mutations().slice(before).filter((c) => c.argv.includes(sb.mgmt))).toEqual([]);
  }, T);
});
