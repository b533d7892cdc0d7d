import { readFileSync } from 'node:fs';
import { createCluster } from '../../../lib/cluster/create.js';
import { fakeManagementCluster, type FakeManagementCluster } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

type Sb = ReturnType<typeof sandbox>;

/**
 * Review M2: OCCM keeps each load balancer's provider but re-sets every pool's algorithm from
 * cloud.conf, so a provider switch under live Services breaks them. The re-run must keep the live
 * provider under auto, and refuse an explicit switch while LoadBalancer Services exist.
 */
describe('create-cluster re-run: the Service load-balancer provider of a running cluster', () => {
  let sb: Sb;
  let mgmt: FakeManagementCluster;
  let cloud: ReturnType<typeof fakeCloud>;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    // Octavia older than Wallaby: auto picks amphora on the first run.
    cloud = fakeCloud({ ...exampleCloudState(), octaviaVersion: '2.23' });
  });
  afterEach(() => mgmt.cleanup());

  const run = (sets: string[], extra: { recreateEdgeServices?: boolean } = {}) =>
    createCluster({ ...runOptions(sb), sets: [...runOptions(sb).sets, ...sets], ...extra }, fakeDeps(mgmt, cloud));
  const liveCloudConf = () => {
    const state = JSON.parse(readFileSync(mgmt.env.KAAS_FAKE_STATE, 'utf8')) as { clusters: Record<string, { objects: Record<string, { data?: Record<string, string> }> }> };
    const secret = state.clusters[sb.workload].objects['Secret/kube-system/cloud-config'];
    return Buffer.from(secret.data!['cloud.conf'], 'base64').toString('utf8');
  };

  it('auto after the cloud gained OVN keeps amphora (was: cloud.conf switched to lb-provider=ovn under the live LBs)', async () => {
    await run(['use_ovn_lb_provider=auto']);
    expect(liveCloudConf()).not.toMatch(/lb-provider/);
    mgmt.seed([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } }], sb.workload);
    cloud.state.octaviaVersion = '2.26';
    const r = await run(['use_ovn_lb_provider=auto']);
    expect(liveCloudConf()).not.toMatch(/lb-provider=ovn|SOURCE_IP_PORT/);
    expect(r.reasons.join('\n')).toMatch(/use_ovn_lb_provider: auto keeps the provider the cluster runs \(amphora, from its cloud\.conf\); on this cloud auto would now pick ovn/);
  }, T);

  it('an explicit switch while a LoadBalancer Service exists is refused before anything is applied (exit 2, the Services named)', async () => {
    cloud.state.octaviaVersion = '2.26';
    await run(['use_ovn_lb_provider=false']);
    mgmt.seed([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } }], sb.workload);
    const before = mgmt.mutations().length;
    await expect(run(['use_ovn_lb_provider=true'])).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/switches the Service load-balancer provider \(amphora → ovn\) while LoadBalancer Services exist/),
      problems: ['app/web'],
    });
    expect(mgmt.mutations().slice(before)).toEqual([]);
    expect(liveCloudConf()).not.toMatch(/lb-provider/);
  }, T);
});
