import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { ORC_VERSION } from '../../../lib/cluster/preflight.js';
import type { KaasError } from '../../../lib/errors.js';
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
      const installed = new Set(Object.keys(mgmt.objects()));
      const deps = fakeDeps(mgmt);
      const r = await createCluster(runOptions(sb), deps);
      expect(r.steps?.map((s) => s.step)).toEqual([
        'management cluster', 'server dry-run', 'server groups', 'cluster objects', 'control plane initialized', 'kubeconfig secret', 'workload kubeconfig',
        'add-on occm', 'add-on cilium', 'machines ready', 'add-on cinder-csi', 'add-on metrics-server', 'cloud-config rollout', 'ingress',
      ]);
      expect(r.steps?.[0].detail).toBe('CAPO serves v1beta1');
      expect(r.checks.filter((x) => x.status === 'failed')).toEqual([]);
      expect(r.checks).toContainEqual({ name: 'ORC', status: 'ok', detail: 'Image served as v1alpha1' });
      expect(r.checks).toContainEqual({ name: 'controllers', status: 'ok', detail: expect.stringContaining('orc-system/orc-controller-manager') });
      expect(deps.cloud.log).toEqual(['create server group capi-demo-controller anti-affinity', 'create server group capi-demo-worker soft-anti-affinity']);
      expect(Object.keys(mgmt.objects()).filter((k) => !k.startsWith('Machine/') && !k.startsWith('OpenStackMachine/') && !installed.has(k)).sort()).toEqual([
        'Cluster/demo/demo', 'KubeadmConfigTemplate/demo/' + Object.values(mgmt.objects()).find((o) => o.kind === 'KubeadmConfigTemplate')!.metadata.name,
        'KubeadmControlPlane/demo/demo-control-plane', 'MachineDeployment/demo/demo-md-0', 'Namespace//demo', 'OpenStackCluster/demo/demo',
        ...Object.values(mgmt.objects()).filter((o) => o.kind === 'OpenStackMachineTemplate').map((o) => `OpenStackMachineTemplate/demo/${o.metadata.name}`).sort(),
        'Secret/demo/demo-cloud-config', 'Secret/demo/demo-kubeconfig',
      ].sort());
      expect(r.kubeconfig).toBe(sb.workload);
      expect(statSync(sb.workload).mode & 0o777).toBe(0o600);
      const merged = YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8'));
      // Prefixed with environment and namespace: another environment's cluster demo keeps its own entry.
      expect(merged.contexts.map((x: { name: string }) => x.name)).toEqual(['example/demo/demo-admin@demo']);
      expect(statSync(path.join(sb.home, '.kube', 'config')).mode & 0o777).toBe(0o600);
      // The OCCM secret carries the rendered cloud.conf; the CAPO secret only the application credential.
      const occm = mgmt.calls().find((x) => x.stdin.includes('openstack-cloud-controller-manager'))!.stdin;
      expect(occm).toContain('application-credential-id=f0e1d2c3b4a5');
      expect(occm).toMatch(/name: CLUSTER_NAME\s+value: "?demo"?\n/);
      // After the add-ons, kaas waits until OCCM and Cinder CSI run the pod template with the current cloud.conf hash.
      const workload = mgmt.calls().filter((x) => x.argv[1] === sb.workload);
      const rollouts = workload.filter((x) => x.argv[2] === 'rollout');
      expect(rollouts.map((x) => [x.argv.slice(2).join(' '), x.exitCode])).toEqual([
        ['rollout status daemonset/openstack-cloud-controller-manager --namespace kube-system --timeout=300s', 0],
        ['rollout status deployment/csi-cinder-controllerplugin --namespace kube-system --timeout=300s', 0],
        ['rollout status daemonset/csi-cinder-nodeplugin --namespace kube-system --timeout=300s', 0],
      ]);
      const lastAddon = workload.map((x) => x.stdin.includes('name: metrics-server')).lastIndexOf(true);
      expect(workload.indexOf(rollouts[0])).toBeGreaterThan(lastAddon);
      expect(occm).toMatch(/kaas\.dev\/cloud-config-hash: "?sha256:[0-9a-f]{64}/);
      expect(r.steps?.find((x) => x.step === 'cloud-config rollout')?.detail).toMatch(/^openstack-cloud-controller-manager, csi-cinder-controllerplugin, csi-cinder-nodeplugin run cloud\.conf sha256:/);
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
        message: expect.stringMatching(/control plane initialized: not done within 1s \(last state: Available: Control plane not yet initialized/),
        hint: expect.stringMatching(/resumes where it stopped/),
      });
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('refuses a bare management cluster before touching anything, listing every missing piece sorted with its fix', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt, { installed: 'bare' });
    try {
      const deps = fakeDeps(mgmt);
      const err = await createCluster(runOptions(sb), deps).then(() => undefined, (e: KaasError) => e);
      expect(err?.message).toBe('the management cluster is not ready for kaas (10 missing pieces)');
      const init = `clusterctl init --infrastructure openstack --kubeconfig ${sb.mgmt}`;
      const orc = `kubectl --kubeconfig ${sb.mgmt} apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`;
      expect(err?.problems).toEqual([
        `CAPO (cluster-api-provider-openstack) is not installed (no OpenStackCluster CRD) — ${init}`,
        `CAPO (cluster-api-provider-openstack): no Deployment capo-controller-manager — ${init}`,
        `Cluster API core: cluster.x-k8s.io/v1beta2 is not served — ${init}`,
        `Cluster API core: no Deployment capi-controller-manager — ${init}`,
        `Cluster API kubeadm bootstrap provider: bootstrap.cluster.x-k8s.io/v1beta2 is not served — ${init}`,
        `Cluster API kubeadm bootstrap provider: no Deployment capi-kubeadm-bootstrap-controller-manager — ${init}`,
        `Cluster API kubeadm control-plane provider: controlplane.cluster.x-k8s.io/v1beta2 is not served — ${init}`,
        `Cluster API kubeadm control-plane provider: no Deployment capi-kubeadm-control-plane-controller-manager — ${init}`,
        `ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — ${orc}`,
        `ORC (openstack-resource-controller): no Deployment orc-controller-manager — ${orc}`,
      ]);
      expect(err?.hint).toMatch(/ORC before clusterctl init/);
      // Nothing applied, nothing created on the cloud: the preflight only reads.
      expect(mgmt.mutations()).toEqual([]);
      // The CRDs and the Deployments are read at the same time: the fake logs them as they end.
      const asked = mgmt.calls().map((x) => x.argv.slice(2, 4).join(' '));
      expect([asked[0], ...asked.slice(1).sort()]).toEqual(['api-versions', 'get customresourcedefinition', 'get deployments']);
      expect(deps.cloud.log).toEqual([]);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('after `clusterctl init` alone: names the ORC install line (CAPO v0.12+) and the unavailable CAPO controller', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt, { installed: 'clusterctl-init' });
    try {
      const deps = fakeDeps(mgmt);
      const err = await createCluster(runOptions(sb), deps).then(() => undefined, (e: KaasError) => e);
      expect(err?.message).toBe('the management cluster is not ready for kaas (3 missing pieces)');
      expect(err?.problems).toEqual([
        `CAPO (cluster-api-provider-openstack): Deployment capo-system/capo-controller-manager is not available — kubectl --kubeconfig ${sb.mgmt} -n capo-system describe deployment capo-controller-manager; kubectl --kubeconfig ${sb.mgmt} -n capo-system logs deployment/capo-controller-manager`,
        `ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — kubectl --kubeconfig ${sb.mgmt} apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`,
        `ORC (openstack-resource-controller): no Deployment orc-controller-manager — kubectl --kubeconfig ${sb.mgmt} apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`,
      ]);
      expect(mgmt.mutations()).toEqual([]);
      expect(deps.cloud.log).toEqual([]);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('--dry-run reports the preflight as checks (missing ORC listed with its fix), prints the manifests and changes nothing', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt, { installed: 'clusterctl-init' });
    try {
      const r = await createCluster(runOptions(sb, { dryRun: true }), fakeDeps(mgmt));
      expect(r.manifests).toContain('kind: OpenStackCluster');
      expect(r.checks.filter((x) => x.status === 'failed').map((x) => x.detail)).toEqual([
        expect.stringMatching(/^CAPO \(cluster-api-provider-openstack\): Deployment capo-system\/capo-controller-manager is not available/),
        expect.stringMatching(/^ORC \(openstack-resource-controller\) is not installed .*apply --server-side -f https:\/\/github\.com\/k-orc\//),
        expect.stringMatching(/^ORC \(openstack-resource-controller\): no Deployment orc-controller-manager/),
      ]);
      expect(r.checks).toContainEqual({ name: 'CAPO', status: 'ok', detail: 'OpenStackCluster served as v1beta1' });
      expect(r.checks).toContainEqual({ name: 'Cluster API', status: 'ok', detail: expect.stringContaining('cluster.x-k8s.io/v1beta2') });
      expect(r.live?.namespace).toBe('demo');
      expect(mgmt.mutations()).toEqual([]);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('--dry-run on a bare management cluster lists the missing pieces and stays offline (no per-object diff of APIs that are not served)', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt, { installed: 'bare' });
    try {
      const deps = fakeDeps(mgmt);
      const r = await createCluster(runOptions(sb, { dryRun: true }), deps);
      expect(r.checks.filter((x) => x.status === 'failed')).toHaveLength(10);
      expect(r.live).toBeUndefined();
      expect(r.manifests).toContain('kind: OpenStackCluster');
      expect(deps.logger.lines.join('\n')).toMatch(/Cluster API or CAPO not installed, the dry-run stays offline/);
      expect(mgmt.calls().map((x) => x.argv[2])).toEqual(['api-versions', 'get', 'get']);
      expect(mgmt.mutations()).toEqual([]);
    } finally {
      mgmt.cleanup();
    }
  }, T);

  it('--dry-run with an unreachable management cluster skips the preflight with kubectl\'s words', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([c.connectionRefused()]);
    try {
      const r = await createCluster(runOptions(sb, { dryRun: true }), fakeDeps(fake));
      fake.assertDone();
      expect(r.checks.find((x) => x.name === 'management cluster')).toEqual({ name: 'management cluster', status: 'skipped', detail: expect.stringMatching(/^not reachable, not checked: The connection to the server 127\.0\.0\.1:1 was refused/) });
      expect(r.manifests).toContain('kind: OpenStackCluster');
    } finally {
      fake.cleanup();
    }
  }, T);

  it('waits for the cloud-config rollout: OCCM that does not roll out stops the flow with kubectl\'s words, before the ingress', async () => {
    const sb = sandbox();
    const mgmt = fakeManagementCluster(sb.mgmt);
    try {
      mgmt.controllers(false, 'workload');
      const deps = fakeDeps(mgmt);
      const err = await createCluster(runOptions(sb), deps).then(() => undefined, (e: KaasError) => e);
      expect(err?.message).toBe('daemonset/openstack-cloud-controller-manager did not become ready within 300s: error: timed out waiting for the condition');
      expect(err?.hint).toBe(`look at the pods: kubectl --kubeconfig ${sb.workload} get pods --namespace kube-system`);
      expect(deps.logger.lines.join('\n')).toMatch(/✓ add-on metrics-server/);
      expect(deps.logger.lines.join('\n')).not.toMatch(/✓ ingress/);
    } finally {
      mgmt.cleanup();
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
