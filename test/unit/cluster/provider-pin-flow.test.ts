import { readFileSync } from 'node:fs';
import { exampleCloudState } from './fake-cloud.js';
import { flowScenario } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 300_000;

/**
 * Review M2: OCCM keeps each load balancer's provider but re-sets every pool's algorithm from
 * cloud.conf, so a provider switch under live Services breaks them. The re-run must keep the live
 * provider under auto, and refuse an explicit switch while LoadBalancer Services exist.
 */
describe('create-cluster re-run: the Service load-balancer provider of a running cluster', () => {
  // Octavia older than Wallaby: auto picks amphora on the first run.
  const flow = flowScenario(() => ({ ...exampleCloudState(), octaviaVersion: '2.23' }));
  const liveCloudConf = () => {
    const state = JSON.parse(readFileSync(flow.mgmt.env.KAAS_FAKE_STATE, 'utf8')) as { clusters: Record<string, { objects: Record<string, { data?: Record<string, string> }> }> };
    const secret = state.clusters[flow.sb.workload].objects['Secret/kube-system/cloud-config'];
    return Buffer.from(secret.data!['cloud.conf'], 'base64').toString('utf8');
  };

  it('auto after the cloud gained OVN keeps amphora (was: cloud.conf switched to lb-provider=ovn under the live LBs)', async () => {
    await flow.run(['use_ovn_lb_provider=auto']);
    expect(liveCloudConf()).not.toMatch(/lb-provider/);
    flow.mgmt.seed([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } }], flow.sb.workload);
    flow.cloud.state.octaviaVersion = '2.26';
    const r = await flow.run(['use_ovn_lb_provider=auto']);
    expect(liveCloudConf()).not.toMatch(/lb-provider=ovn|SOURCE_IP_PORT/);
    expect(r.reasons.join('\n')).toMatch(/use_ovn_lb_provider: auto keeps the provider the cluster runs \(amphora, from its cloud\.conf\); on this cloud auto would now pick ovn/);
  }, T);

  it('an explicit switch while a LoadBalancer Service exists is refused before anything is applied (exit 2, the Services named)', async () => {
    flow.cloud.state.octaviaVersion = '2.26';
    await flow.run(['use_ovn_lb_provider=false']);
    flow.mgmt.seed([{ apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } }], flow.sb.workload);
    const before = flow.mgmt.mutations().length;
    await expect(flow.run(['use_ovn_lb_provider=true'])).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/switches the Service load-balancer provider \(amphora → ovn\) while LoadBalancer Services exist/),
      problems: ['app/web'],
    });
    expect(flow.mgmt.mutations().slice(before)).toEqual([]);
    expect(liveCloudConf()).not.toMatch(/lb-provider/);
  }, T);
});
