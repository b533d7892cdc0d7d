import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createCluster } from '../../../lib/cluster/create.js';
import { fakeManagementCluster } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { calls, fakeClock, fakeDeps, fakeTools, runOptions, sandbox } from './scenario.js';

/** Each fake tool call starts a node process: give the flows time on a loaded machine. */
const T = 180_000;

describe('create-cluster against a fake management cluster, fake cilium and a fake cloud', () => {
  it('creates: checks, server groups, namespace, apply, waits, kubeconfig 0600 + merged context, add-ons, ingress, summary', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      const deps = fakeDeps(mgmt);
      const r = await createCluster(runOptions(sb), deps);
      expect(r.steps?.map((s) => s.step)).toEqual([
        'management cluster', 'server groups', 'cluster objects', 'control plane initialized', 'kubeconfig secret', 'workload kubeconfig',
        'add-on occm', 'add-on cilium', 'machines ready', 'add-on cinder-csi', 'add-on metrics-server', 'ingress',
      ]);
      expect(deps.cloud.log).toEqual(['create server group capi-demo-controller anti-affinity', 'create server group capi-demo-worker soft-anti-affinity']);
      expect(Object.keys(mgmt.objects()).filter((k) => !k.startsWith('Machine/')).sort()).toEqual([
        'Cluster/demo/demo', 'KubeadmConfigTemplate/demo/' + Object.values(mgmt.objects()).find((o) => o.kind === 'KubeadmConfigTemplate')!.metadata.name,
        'KubeadmControlPlane/demo/demo-control-plane', 'MachineDeployment/demo/demo-md-0', 'Namespace//demo', 'OpenStackCluster/demo/demo',
        ...Object.values(mgmt.objects()).filter((o) => o.kind === 'OpenStackMachineTemplate').map((o) => `OpenStackMachineTemplate/demo/${o.metadata.name}`).sort(),
        'Secret/demo/demo-cloud-config', 'Secret/demo/demo-kubeconfig',
      ].sort());
      expect(r.kubeconfig).toBe(sb.workload);
      expect(statSync(sb.workload).mode & 0o777).toBe(0o600);
      const merged = YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8'));
      expect(merged.contexts.map((x: { name: string }) => x.name)).toEqual(['demo-admin@demo']);
      expect(statSync(path.join(sb.home, '.kube', 'config')).mode & 0o777).toBe(0o600);
      // The OCCM secret carries the rendered cloud.conf; the CAPO secret only the application credential.
      const occm = mgmt.calls().find((x) => x.stdin.includes('openstack-cloud-controller-manager'))!.stdin;
      expect(occm).toContain('application-credential-id=f0e1d2c3b4a5');
      expect(occm).toMatch(/name: CLUSTER_NAME\s+value: "?demo"?\n/);
      const capo = mgmt.calls().find((x) => x.argv.includes('apply') && x.stdin.includes('kind: OpenStackCluster'))!.stdin;
      expect(capo).not.toMatch(/password/i);
      // Secrets never reach the log.
      expect(deps.logger.lines.join('\n')).not.toContain('test-appcred-secret-value');
      expect(deps.logger.lines.join('\n')).not.toContain('dGVzdC1rZXktZG8tbm90LXByaW50');
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('interrupted while waiting for the control plane, a re-run converges: nothing re-applied, groups reused', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    const cloud = fakeCloud(exampleCloudState());
    try {
      // Run 1: killed (the first sleep of the first wait throws, as SIGKILL would end the process there).
      mgmt.controllers(false);
      const killed = fakeClock(() => {
        throw new Error('killed');
      });
      await expect(createCluster(runOptions(sb), fakeDeps(mgmt, cloud, killed))).rejects.toThrow('killed');
      expect(cloud.log).toHaveLength(2);
      const applied = mgmt.mutations().length;

      // Run 2: the objects are there (nothing to apply on the management cluster), the groups exist.
      mgmt.controllers(true);
      const r = await createCluster(runOptions(sb), fakeDeps(mgmt, cloud));
      expect(cloud.log).toHaveLength(2);
      expect(mgmt.mutations().slice(applied).filter((c) => c.argv.includes(sb.mgmt))).toEqual([]);
      expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged in namespace demo');
      expect(r.steps?.find((s) => s.step === 'server groups')?.detail).toMatch(/capi-demo-controller \(anti-affinity, exists\)/);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('times out a wait with the last state and a hint', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      mgmt.controllers(false);
      const o = { ...runOptions(sb), timeouts: { pollMs: 1000, controlPlaneSec: 1 } };
      await expect(createCluster(o, fakeDeps(mgmt))).rejects.toMatchObject({
        message: expect.stringMatching(/control plane initialized: not done within 1s \(last state: Ready: Waiting for the first control plane machine/),
        hint: expect.stringMatching(/resumes where it stopped/),
      });
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('refuses a management cluster without Cluster API, before touching anything', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([c.apiVersions('api-versions-no-capi.txt')]);
    try {
      const deps = fakeDeps(fake);
      await expect(createCluster(runOptions(sb), deps)).rejects.toMatchObject({ message: expect.stringMatching(/does not serve cluster\.x-k8s\.io\/v1beta1/), hint: expect.stringMatching(/clusterctl init --infrastructure openstack/) });
      fake.assertDone();
      expect(deps.cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('an unreachable management cluster is an error with kubectl\'s words and a hint', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([c.connectionRefused()]);
    try {
      const deps = fakeDeps(fake);
      await expect(createCluster(runOptions(sb), deps)).rejects.toMatchObject({
        message: expect.stringMatching(/kubectl api-versions exited with 1:[\s\S]*connection refused/),
        hint: expect.stringMatching(/mgmt_kubeconfig/),
      });
      fake.assertDone();
      expect(deps.cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('refuses a password cloud: only application credentials go to the management cluster', async () => {
    const sb = sandbox();
    const fake = fakeTools([]);
    try {
      const o = { ...runOptions(sb), cloud: 'password-cloud' };
      await expect(createCluster(o, fakeDeps(fake))).rejects.toMatchObject({ message: expect.stringMatching(/authenticates with a password/), exitCode: 2 });
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);
});
