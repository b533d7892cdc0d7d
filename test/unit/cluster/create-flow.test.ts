import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createCluster } from '../../../lib/cluster/create.js';
import { ORC_VERSION } from '../../../lib/cluster/preflight.js';
import type { KaasError } from '../../../lib/errors.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { calls, fakeClock, fakeDeps, fakeTools, R, runOptions, sandbox } from './scenario.js';

/** The calls of a create-cluster run from "objects applied" on, up to the end. */
function fromWaits(c: ReturnType<typeof calls>, kcpStart: string[]) {
  return [
    ...kcpStart.map((f) => c.kcp(f)),
    c.kubeconfigSecret(false),
    c.kubeconfigSecret(true),
    c.getKubeconfig(),
    c.applyAddon('name: openstack-cloud-controller-manager'),
    c.ciliumDaemonSet(false),
    c.cilium('install'),
    c.kcp('get-kcp-initialized.json'),
    c.md('get-md-scaling.json'),
    c.kcp('get-kcp-ready.json'),
    c.md('get-md-ready.json'),
    c.applyAddon('name: csi-cinder-controllerplugin'),
    c.applyAddon('name: metrics-server'),
    ...c.rollouts(),
  ];
}

/** Each fake tool call starts a node process: give the flows time on a loaded machine. */
const T = 180_000;

describe('create-cluster against fake kubectl/clusterctl/cilium and a fake cloud', () => {
  it('creates: checks, server groups, diff+apply, waits, kubeconfig 0600 + merged context, add-ons, ingress, summary', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([
      ...c.preflight(), c.diff(true), c.applyCluster(),
      ...fromWaits(c, ['get-kcp-pending.json', 'get-kcp-initialized.json']),
    ]);
    try {
      const deps = fakeDeps(fake);
      const r = await createCluster(runOptions(sb), deps);
      fake.assertDone();
      expect(r.steps?.map((s) => s.step)).toEqual([
        'management cluster', 'server groups', 'cluster objects', 'control plane initialized', 'kubeconfig secret', 'workload kubeconfig',
        'add-on occm', 'add-on cilium', 'machines ready', 'add-on cinder-csi', 'add-on metrics-server', 'cloud-config rollout', 'ingress',
      ]);
      expect(deps.cloud.log).toEqual(['create server group capi-demo-controller anti-affinity', 'create server group capi-demo-worker soft-anti-affinity']);
      expect(r.kubeconfig).toBe(sb.workload);
      expect(statSync(sb.workload).mode & 0o777).toBe(0o600);
      const merged = YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8'));
      expect(merged.contexts.map((x: { name: string }) => x.name)).toEqual(['demo-admin@demo']);
      expect(statSync(path.join(sb.home, '.kube', 'config')).mode & 0o777).toBe(0o600);
      // The OCCM secret carries the rendered cloud.conf; the CAPO secret only the application credential.
      const occm = fake.calls().find((x) => x.stdin.includes('openstack-cloud-controller-manager'))!.stdin;
      expect(occm).toContain('application-credential-id=f0e1d2c3b4a5');
      const capo = fake.calls().find((x) => x.argv.includes('apply') && x.stdin.includes('kind: OpenStackCluster'))!.stdin;
      expect(capo).not.toMatch(/password/i);
      // Secrets never reach the log.
      expect(deps.logger.lines.join('\n')).not.toContain('test-appcred-secret-value');
      expect(deps.logger.lines.join('\n')).not.toContain('dGVzdC1rZXktZG8tbm90LXByaW50');
    } finally {
      fake.cleanup();
    }
  }, T);

  it('interrupted while waiting for the control plane, a re-run converges: nothing re-applied, groups reused', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const cloud = fakeCloud(exampleCloudState());
    // Run 1: killed (the first sleep of the first wait throws, as SIGKILL would end the process there).
    const first = fakeTools([...c.preflight(), c.diff(true), c.applyCluster(), c.kcp('get-kcp-pending.json')]);
    const killed = fakeClock(() => {
      throw new Error('killed');
    });
    await expect(createCluster(runOptions(sb), fakeDeps(first, cloud, killed))).rejects.toThrow('killed');
    first.assertDone();
    first.cleanup();
    expect(cloud.log).toHaveLength(2);

    // Run 2: the objects are there (kubectl diff finds nothing: no apply call), the groups exist.
    const second = fakeTools([...c.preflight(), c.diff(false), ...fromWaits(c, ['get-kcp-initialized.json'])]);
    try {
      const deps = fakeDeps(second, cloud);
      const r = await createCluster(runOptions(sb), deps);
      second.assertDone();
      expect(cloud.log).toHaveLength(2);
      expect(r.steps?.find((s) => s.step === 'cluster objects')?.detail).toBe('unchanged');
      expect(r.steps?.find((s) => s.step === 'server groups')?.detail).toMatch(/capi-demo-controller \(anti-affinity, exists\)/);
    } finally {
      second.cleanup();
    }
  }, T);

  it('a re-run that changed a template waits for the rollout, not for the old machines being ready', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const cloud = fakeCloud({ ...exampleCloudState(), serverGroups: [{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }, { id: 'g2', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }] });
    const fake = fakeTools([
      ...c.preflight(), c.diff(true), c.applyCluster(),
      c.kcp('get-kcp-ready.json'), c.kubeconfigSecret(true), c.getKubeconfig(),
      c.applyAddon('name: openstack-cloud-controller-manager'), c.ciliumDaemonSet(true), c.cilium('upgrade'),
      // The MachineDeployment controller has not seen the new template yet, then rolls the workers.
      c.kcp('get-kcp-ready.json'), c.md('get-md-stale.json'),
      c.kcp('get-kcp-ready.json'), c.md('get-md-rolling.json'),
      c.kcp('get-kcp-ready.json'), c.md('get-md-ready.json'),
      c.applyAddon('name: csi-cinder-controllerplugin'), c.applyAddon('name: metrics-server'), ...c.rollouts(),
    ]);
    try {
      const deps = fakeDeps(fake, cloud);
      const r = await createCluster(runOptions(sb), deps);
      fake.assertDone(); // all three polls of the machines were made
      expect(r.steps?.find((x) => x.step === 'machines ready')?.detail).toMatch(/2 worker nodes ready/);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('refuses a bare management cluster before touching anything, listing every missing piece sorted with its fix', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([
      c.apiVersions('api-versions-no-capi.txt'),
      c.kc(c.m('get', 'customresourcedefinition', 'openstackclusters.infrastructure.cluster.x-k8s.io', '-o', 'json'), { stderrFile: `${R}/error-crd-capo-not-found.txt`, exitCode: 1 }),
      c.orcCrd(false),
      c.deployments('get-deployments-bare.json'),
    ]);
    try {
      const deps = fakeDeps(fake);
      const err = await createCluster(runOptions(sb), deps).then(() => undefined, (e: KaasError) => e);
      fake.assertDone();
      expect(deps.cloud.log).toEqual([]);
      expect(err?.message).toBe('the management cluster is not ready for kaas (10 missing pieces)');
      const init = `clusterctl init --infrastructure openstack --kubeconfig ${sb.mgmt}`;
      const orc = `kubectl --kubeconfig ${sb.mgmt} apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`;
      expect(err?.problems).toEqual([
        `CAPO (cluster-api-provider-openstack) is not installed (no OpenStackCluster CRD) — ${init}`,
        `CAPO (cluster-api-provider-openstack): no Deployment capo-controller-manager — ${init}`,
        `Cluster API core: cluster.x-k8s.io/v1beta1 is not served — ${init}`,
        `Cluster API core: no Deployment capi-controller-manager — ${init}`,
        `Cluster API kubeadm bootstrap provider: bootstrap.cluster.x-k8s.io/v1beta1 is not served — ${init}`,
        `Cluster API kubeadm bootstrap provider: no Deployment capi-kubeadm-bootstrap-controller-manager — ${init}`,
        `Cluster API kubeadm control-plane provider: controlplane.cluster.x-k8s.io/v1beta1 is not served — ${init}`,
        `Cluster API kubeadm control-plane provider: no Deployment capi-kubeadm-control-plane-controller-manager — ${init}`,
        `ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — ${orc}`,
        `ORC (openstack-resource-controller): no Deployment orc-controller-manager — ${orc}`,
      ]);
      expect(err?.hint).toMatch(/ORC before clusterctl init/);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('after `clusterctl init` alone: names ORC (CAPO v0.12+) and the unavailable CAPO controller', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([c.apiVersions(), c.capoCrd(), c.orcCrd(false), c.deployments('get-deployments-no-orc.json')]);
    try {
      const deps = fakeDeps(fake);
      const err = await createCluster(runOptions(sb), deps).then(() => undefined, (e: KaasError) => e);
      fake.assertDone();
      expect(err?.problems).toEqual([
        `CAPO (cluster-api-provider-openstack): Deployment capo-system/capo-controller-manager is not available — kubectl --kubeconfig ${sb.mgmt} -n capo-system describe deployment capo-controller-manager; kubectl --kubeconfig ${sb.mgmt} -n capo-system logs deployment/capo-controller-manager`,
        expect.stringMatching(/^ORC \(openstack-resource-controller\) is not installed .* — kubectl --kubeconfig \S+ apply --server-side -f https:\/\/github\.com\/k-orc\/openstack-resource-controller\/releases\/download\/v2\.\d+\.\d+\/install\.yaml$/),
        expect.stringMatching(/^ORC \(openstack-resource-controller\): no Deployment orc-controller-manager/),
      ]);
      expect(deps.cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('--dry-run reports the preflight as checks (missing ORC listed with its fix) and still prints the manifests', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([c.apiVersions(), c.capoCrd(), c.orcCrd(false), c.deployments('get-deployments-no-orc.json')]);
    try {
      const r = await createCluster(runOptions(sb, { dryRun: true }), fakeDeps(fake));
      fake.assertDone();
      expect(r.manifests).toContain('kind: OpenStackCluster');
      expect(r.checks.filter((x) => x.status === 'failed').map((x) => x.detail)).toEqual([
        expect.stringMatching(/^CAPO \(cluster-api-provider-openstack\): Deployment capo-system\/capo-controller-manager is not available/),
        expect.stringMatching(/^ORC \(openstack-resource-controller\) is not installed .*apply --server-side -f https:\/\/github\.com\/k-orc\//),
        expect.stringMatching(/^ORC \(openstack-resource-controller\): no Deployment orc-controller-manager/),
      ]);
      expect(r.checks).toContainEqual({ name: 'CAPO', status: 'ok', detail: 'OpenStackCluster served as v1beta1' });
      // Read-only: nothing but the four reads.
      expect(fake.calls().map((x) => x.argv[2])).toEqual(['api-versions', 'get', 'get', 'get']);
    } finally {
      fake.cleanup();
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

  it('times out a wait with the last state and a hint', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([...c.preflight(), c.diff(false), c.kcp('get-kcp-pending.json'), c.kcp('get-kcp-pending.json')]);
    try {
      const o = { ...runOptions(sb), timeouts: { pollMs: 1000, controlPlaneSec: 1 } };
      await expect(createCluster(o, fakeDeps(fake))).rejects.toMatchObject({
        message: expect.stringMatching(/control plane initialized: not done within 1s \(last state: Ready: Waiting for the first control plane machine/),
        hint: expect.stringMatching(/resumes where it stopped/),
      });
      fake.assertDone();
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
