import { fakeRunner } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { flowScenario } from './scenario.js';

/** Each fake call starts a node process: give the flows time on a loaded machine. */
const T = 240_000;

describe('create-cluster re-runs against a stateful management cluster', () => {
  const flow = flowScenario();

  it('first run creates namespace demo and the objects; a re-run applies nothing', async () => {
    const installed = flow.names('Namespace');
    const r = await flow.run();
    expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toMatch(/objects applied in namespace demo \(created\)/);
    expect(flow.names('Namespace').filter((n) => !installed.includes(n))).toEqual(['demo']);
    expect(flow.names('OpenStackMachineTemplate')).toHaveLength(2);
    const before = flow.mgmt.mutations().length;
    const again = await flow.run();
    expect(again.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
    // Only the add-ons (workload cluster) are applied again, nothing on the management cluster.
    expect(flow.mgmt.mutations().slice(before).filter((c) => c.argv.includes(flow.sb.mgmt))).toEqual([]);
  }, T);

  it('a changed restrict_kubeapi updates only allowedCIDRs, in place', async () => {
    await flow.run();
    const gen = (kind: string, name: string) => flow.obj(kind, name)?.metadata.generation;
    const before = { kcp: gen('KubeadmControlPlane', 'demo-control-plane'), md: gen('MachineDeployment', 'demo-md-0'), templates: flow.names('OpenStackMachineTemplate') };
    const r = await flow.run(['restrict_kubeapi=["203.0.113.0/24"]', 'mgmt_host_cidrs=["198.51.100.7/32"]']);
    const osc = flow.obj('OpenStackCluster', 'demo')!;
    expect((osc.spec!.apiServerLoadBalancer as { allowedCIDRs: string[] }).allowedCIDRs).toEqual(expect.arrayContaining(['203.0.113.0/24', '198.51.100.7/32']));
    expect(osc.metadata.generation).toBe(2);
    expect({ kcp: gen('KubeadmControlPlane', 'demo-control-plane'), md: gen('MachineDeployment', 'demo-md-0'), templates: flow.names('OpenStackMachineTemplate') }).toEqual(before);
    expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toMatch(/objects applied in namespace demo$/);
  }, T);

  it('a changed worker flavor makes a new worker template, repoints the MachineDeployment and deletes the old template once unreferenced', async () => {
    await flow.run();
    const oldWorker = (flow.obj('MachineDeployment', 'demo-md-0')!.spec as { template: { spec: { infrastructureRef: { name: string } } } }).template.spec.infrastructureRef.name;
    const oldCp = flow.names('OpenStackMachineTemplate').find((n) => n.startsWith('demo-control-plane-'))!;
    const r = await flow.run(['worker_flavor=SCS-2V-4']);
    const md = flow.obj('MachineDeployment', 'demo-md-0')!;
    const now = (md.spec as { template: { spec: { infrastructureRef: { name: string } } } }).template.spec.infrastructureRef.name;
    expect(now).not.toBe(oldWorker);
    expect(now).toMatch(/^demo-md-0-[0-9a-f]{8}$/);
    expect((flow.obj('OpenStackMachineTemplate', now)!.spec as { template: { spec: { flavor: string } } }).template.spec.flavor).toBe('SCS-2V-4');
    // The control plane keeps its template; the old worker template is gone after the rollout.
    expect(flow.names('OpenStackMachineTemplate')).toEqual([oldCp, now].sort());
    expect(r.steps?.find((s) => s.step === 'old machine templates')?.detail).toBe(`deleted ${oldWorker}`);
    // Every worker machine runs on the new template: its OpenStackMachine was cloned from it.
    const machines = Object.values(flow.mgmt.objects()).filter((o) => o.kind === 'OpenStackMachine' && o.metadata.name.startsWith('demo-md-0'));
    expect(machines.length).toBe(2);
    expect(machines.map((m) => (m.metadata as unknown as { annotations: Record<string, string> }).annotations['cluster.x-k8s.io/cloned-from-name'])).toEqual(machines.map(() => now));
  }, T);

  it.each([
    ['node_cidr=10.9.0.0/20', /spec\.managedSubnets cannot change on a running cluster \(live: .*10\.8\.0\.0\/20.*wanted: .*10\.9\.0\.0\/20.*cannot change subnet CIDR from existing value to 10\.9\.0\.0\/20/],
    ['external_network=ext02', /spec\.externalNetwork cannot change on a running cluster .*spec: Forbidden: cannot be modified/],
  ])('%s is refused before anything is applied (exit 2, live and wanted values, what to do)', async (set, message) => {
    flow.cloud = fakeCloud({ ...exampleCloudState(), externalNetworks: [...exampleCloudState().externalNetworks, { id: '0b3c7a51-1c4e-4f0a-9a55-2f1d5c6e7f80', name: 'ext02' }] });
    await flow.run(['external_network=ext01']);
    const before = flow.mgmt.mutations().length;
    const serverGroups = flow.cloud.log.length;
    await expect(flow.run(['external_network=ext01', set])).rejects.toMatchObject({ exitCode: 2, message: expect.stringMatching(message), hint: expect.stringMatching(/create a new cluster/) });
    expect(flow.mgmt.mutations().slice(before)).toEqual([]);
    expect(flow.cloud.log).toHaveLength(serverGroups);
  }, T);

  it('a new cluster refuses server groups of its name that already hold another cluster\'s servers; a running cluster keeps its own', async () => {
    // Another cluster named demo (another namespace, environment or management cluster) fills the groups kaas would reuse.
    const taken = () => ({ ...exampleCloudState(), serverGroups: [
      { id: 'g-ctl', name: 'capi-demo-controller', policy: 'anti-affinity', members: ['srv-other-1'] },
      { id: 'g-wrk', name: 'capi-demo-worker', policy: 'soft-anti-affinity', members: [] }] });
    flow.cloud = fakeCloud(taken());
    const before = flow.mgmt.mutations().length;
    await expect(flow.run(['anti_affinity=true'])).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(/^Cluster demo\/demo does not exist yet, but server group capi-demo-controller \(g-ctl\) already holds 1 server \(srv-other-1\)/),
      hint: expect.stringMatching(/setting prefix/),
    });
    expect(flow.mgmt.mutations().slice(before)).toEqual([]);
    expect(flow.cloud.log).toEqual([]);
    // The same groups empty: reused, and the cluster is made.
    flow.cloud = fakeCloud({ ...taken(), serverGroups: taken().serverGroups.map((g) => ({ ...g, members: [] })) });
    const made = await flow.run(['anti_affinity=true']);
    expect(made.steps?.find((s) => s.step === 'server groups')?.detail).toBe('capi-demo-controller (anti-affinity, exists), capi-demo-worker (soft-anti-affinity, exists)');
    // Once the cluster runs, its machines are in the groups: a re-run goes on.
    flow.cloud = fakeCloud({ ...taken(), serverGroups: taken().serverGroups.map((g) => ({ ...g, members: ['srv-demo-1'] })) });
    const again = await flow.run(['anti_affinity=true']);
    expect(again.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
  }, T);

  it('--dry-run against the live cluster prints the change per object and applies nothing', async () => {
    await flow.run();
    const before = flow.mgmt.mutations().length;
    const r = await flow.run(['worker_count=5'], { dryRun: true });
    expect(flow.mgmt.mutations()).toHaveLength(before);
    expect(r.live?.namespace).toBe('demo');
    const md = r.live!.objects.find((o) => o.kind === 'MachineDeployment')!;
    expect(md).toMatchObject({ action: 'update', fields: [{ path: 'spec.replicas', live: 2, wanted: 5 }] });
    expect(r.live!.objects.filter((o) => o.action !== 'unchanged').map((o) => o.kind)).toEqual(['MachineDeployment']);
  }, T);
});

describe('the management-cluster fake refuses what CAPO refuses', () => {
  const flow = flowScenario();
  it('an in-place change of the API load-balancer provider fails with the webhook\'s words, as kubectl prints it', async () => {
    const { sb, mgmt } = flow;
    const runner = fakeRunner(mgmt);
    const osc = (provider: string) => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackCluster
metadata: {name: demo, namespace: default}
spec:
  identityRef: {name: demo-cloud-config, cloudName: openstack}
  apiServerLoadBalancer: {enabled: true, provider: ${provider}}
  managedSubnets: [{cidr: 10.8.0.0/20}]
`;
    const apply = (text: string) => runner.run('kubectl', ['--kubeconfig', sb.mgmt, 'apply', '--server-side', '--field-manager=kaas', '-f', '-'], { input: text, reject: false });
    expect(await apply(osc('amphora'))).toMatchObject({ exitCode: 0, stdout: 'openstackcluster.infrastructure.cluster.x-k8s.io/demo serverside-applied\n' });
    const r = await apply(osc('ovn'));
    expect(r.exitCode).toBe(1);
    expect(r.stderr).toBe('The OpenStackCluster "demo" is invalid: spec: Forbidden: cannot be modified\n');
    // allowedCIDRs may change while the load balancer stays.
    expect((await apply(osc('amphora').replace('provider: amphora', 'provider: amphora, allowedCIDRs: [192.0.2.0/24]'))).exitCode).toBe(0);
    // A machine template's spec never changes in place.
    const tpl = (flavor: string) => `apiVersion: infrastructure.cluster.x-k8s.io/v1beta1
kind: OpenStackMachineTemplate
metadata: {name: t, namespace: default}
spec: {template: {spec: {flavor: ${flavor}, image: {filter: {name: img}}}}}
`;
    expect((await apply(tpl('a'))).exitCode).toBe(0);
    const t = await apply(tpl('b'));
    expect(t.stderr).toMatch(/OpenStackMachineTemplate spec\.template\.spec field is immutable\. Please create a new resource instead\./);
    // Objects that break the CRD schema are refused too.
    const bad = await apply(osc('amphora').replace('managedSubnets', 'managedSubnetz'));
    expect(bad.exitCode).toBe(1);
    expect(bad.stderr).toMatch(/managedSubnetz/);
  }, T);
});
