import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { deleteCluster } from '../../../lib/cluster/delete/delete.js';
import { mergeContexts, writeSecretFile } from '../../../lib/state/kubeconfig.js';
import { exampleCloudState, fakeCloud, type FakeCloudState } from './fake-cloud.js';
import { recordApplied } from '../../../lib/ingress/applied.js';
import { localKey } from '../../../lib/state/local-state.js';
import { calls, fakeClock, fakeDeps, fakeTools, R, runOptions, sandbox } from './scenario.js';

const T = 180_000;
/** What apply-ingress recorded (shortened). */
const INGRESS_RECORD = '---\napiVersion: v1\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n';
const LB = 'kube_service_demo_app_web';
const CLUSTER_ACTION = 'Cluster default/demo (CAPO deletes its servers, network and kube-API load balancer)';

/** A cloud where the demo cluster left things behind, next to another cluster's. */
function leftoverCloud(): FakeCloudState {
  return {
    ...exampleCloudState(),
    loadBalancers: [
      { id: 'lb-web', name: LB, vipPortId: 'port-1' },
      { id: 'lb-stale', name: 'kube_service_demo_old_gone', vipPortId: 'port-2' },
      { id: 'lb-other', name: 'kube_service_other_app_web', vipPortId: 'port-3' },
    ],
    floatingIps: [{ id: 'fip-2', address: '203.0.113.77', portId: 'port-2' }, { id: 'fip-3', address: '203.0.113.78', portId: 'port-3' }],
    serverGroups: [{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }, { id: 'g2', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }, { id: 'g3', name: 'capi-other-worker', policy: 'soft-anti-affinity' }],
    securityGroups: [
      { id: 'sg0', name: 'default' },
      { id: 'sg1', name: 'k8s-cluster-default-demo-secgroup-controlplane' },
      // OCCM's member groups: lb-sg-<Service UID>-<ns>-<name>; only the description names the cluster.
      { id: 'sg2', name: 'lb-sg-0b5c1f2e-8d3a-4c1e-9f7a-2a6b3c4d5e6f-old-gone', description: 'Security Group for old/gone Service LoadBalancer in cluster demo' },
      { id: 'sg3', name: 'k8s-cluster-default-other-secgroup-worker' },
      { id: 'sg4', name: 'lb-sg-7c1d2e3f-4a5b-4c6d-8e9f-0a1b2c3d4e5f-app-web', description: 'Security Group for app/web Service LoadBalancer in cluster other' },
      { id: 'sg5', name: 'lb-sg-9d8c7b6a-5f4e-4d3c-2b1a-0f9e8d7c6b5a-app-web', description: 'Security Group for app/web Service LoadBalancer in cluster demo-2' },
    ],
  };
}

/**
 * A sandbox with the workload kubeconfig on disk, the calls that find Cluster demo (created before kaas
 * had namespaces: in default), delete it, and find no leftovers.
 */
function provisioned() {
  const sb = sandbox();
  writeSecretFile(sb.workload, readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'));
  const c = calls(sb.mgmt, sb.workload);
  return {
    sb, c,
    found: [c.clusterList(['default']), c.getCluster('get-cluster-provisioned.json'), c.machineTemplates()],
    deleteIt: c.kc(c.m('delete', 'clusters.v1beta2.cluster.x-k8s.io/demo', '--namespace', 'default', '--ignore-not-found', '--wait=false')),
    noLeftovers: c.kc(c.m('get', 'openstackmachinetemplates,kubeadmconfigtemplates,secrets', '--namespace', 'default', '--selector', 'cluster.x-k8s.io/cluster-name=demo,app.kubernetes.io/managed-by=kaas', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
  };
}
/** clusterctl get kubeconfig when the Cluster has no kubeconfig Secret. */
const noSecret = (c: ReturnType<typeof calls>) => ({
  tool: 'clusterctl', argv: c.getKubeconfig().argv,
  response: { stderr: 'Error: "demo-kubeconfig" not found in namespace "default": secrets "demo-kubeconfig" not found\n', exitCode: 1 },
});

async function withContext(sb: ReturnType<typeof sandbox>) {
  // A context merged by kaas before contexts were prefixed with <env>/<namespace>/.
  await mergeContexts(path.join(sb.home, '.kube', 'config'), readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'), '');
}

describe('delete-cluster against fake kubectl/clusterctl and a fake cloud', () => {
  it('deletes LoadBalancer Services and PVCs first, then the Cluster, then the leftovers; a second run is a no-op', async () => {
    const sb = sandbox();
    await withContext(sb);
    const c = calls(sb.mgmt, sb.workload);
    const selector = 'cluster.x-k8s.io/cluster-name=demo,app.kubernetes.io/managed-by=kaas';
    const leftovers = (file: string, ns = 'default') => c.kc(c.m('get', 'openstackmachinetemplates,kubeadmconfigtemplates,secrets', '--namespace', ns, '--selector', selector, '-o', 'json'), { stdoutFile: `${R}/${file}` });
    const pvs = (file: string) => c.kc(c.w('get', 'persistentvolumes', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/${file}` });
    const classes = (file: string, ns: string) => c.kc(c.m('get', 'clusterclasses.v1beta2.cluster.x-k8s.io', '--namespace', ns, '-o', 'json'), { stdoutFile: `${R}/${file}` });
    recordApplied(localKey(sb.home, 'example', '', 'demo'), 'ingress-nginx', INGRESS_RECORD);
    const fake = fakeTools([
      // A cluster kaas created before it had namespaces: found in default.
      c.clusterList(['default']),
      c.getCluster('get-cluster-provisioned.json'),
      c.machineTemplates(),
      c.getKubeconfig(),
      // Not waiting for OCCM's finalizer (review n3): kaas follows the load balancer in Octavia.
      c.kc(c.w('delete', 'service', 'ingress-nginx-controller', '--namespace', 'ingress-nginx', '--ignore-not-found', '--wait=false')),
      c.kc(c.w('delete', '-f', '-', '--ignore-not-found', '--wait=false'), {}, { stdin: INGRESS_RECORD }),
      c.kc(c.w('get', 'services', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/get-services-app.json` }),
      c.kc(c.w('get', 'persistentvolumeclaims', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/get-pvcs-all.json` }),
      c.kc(c.w('delete', 'service/web', '--namespace', 'app', '--ignore-not-found', '--wait=false')),
      c.kc(c.w('delete', 'pvc/data-0', '--namespace', 'app', '--ignore-not-found', '--wait=false')),
      // Cinder CSI deletes the volume while the cluster still runs: kaas waits for its PV.
      pvs('get-pvs-bound.json'),
      pvs('empty-list.json'),
      c.kc(c.m('delete', 'clusters.v1beta2.cluster.x-k8s.io/demo', '--namespace', 'default', '--ignore-not-found', '--wait=false')),
      // CAPI deletes the Machines first; with none left kaas deletes OCCM's load balancers that are
      // still in the cloud (CAPO could not delete the network past their ports).
      c.getCluster('get-cluster-deleting.json'),
      c.kc(c.m('get', 'machines.v1beta2.cluster.x-k8s.io', '--namespace', 'default', '--selector', 'cluster.x-k8s.io/cluster-name=demo', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
      c.getCluster(),
      leftovers('get-leftovers.json'),
      // A template among them: kept if a ClusterClass refers to it (none does here).
      classes('empty-list.json', 'default'),
      c.kc(c.m('delete', 'openstackmachinetemplate/demo-md-0-1234abcd', '--namespace', 'default', '--ignore-not-found')),
      c.kc(c.m('delete', 'secret/demo-cloud-config', '--namespace', 'default', '--ignore-not-found')),
    ]);
    const cloud = fakeCloud(leftoverCloud());
    // OCCM at work: once kaas waits, the Service's load balancer disappears.
    const clock = fakeClock(() => {
      cloud.state.loadBalancers = cloud.state.loadBalancers.filter((l) => l.name !== LB);
    });
    try {
      const r = await deleteCluster(runOptions(sb), fakeDeps(fake, cloud, clock));
      fake.assertDone();
      expect(r.actions).toEqual([
        'ingress-nginx (as recorded by apply-ingress; OCCM deletes its load balancer)',
        'Service app/web (type LoadBalancer: OCCM deletes its Octavia LB)',
        'PersistentVolumeClaim app/data-0 (Cinder CSI deletes its volume)',
        CLUSTER_ACTION,
        'floating IP 203.0.113.77 of load balancer kube_service_demo_old_gone',
        'Octavia load balancer kube_service_demo_old_gone (lb-stale)',
        'OpenStackMachineTemplate default/demo-md-0-1234abcd',
        'Secret default/demo-cloud-config',
        'server group capi-demo-controller (g1)',
        'server group capi-demo-worker (g2)',
        'security group k8s-cluster-default-demo-secgroup-controlplane (sg1)',
        'security group lb-sg-0b5c1f2e-8d3a-4c1e-9f7a-2a6b3c4d5e6f-old-gone (sg2)',
        'kubeconfig context demo-admin@demo',
        `file ${sb.workload}`,
      ]);
      expect(cloud.log).toEqual(['delete floating ip fip-2', 'delete load balancer lb-stale', 'delete server group g1', 'delete server group g2', 'delete security group sg1', 'delete security group sg2']);
      expect(cloud.state.loadBalancers.map((l) => l.name)).toEqual(['kube_service_other_app_web']);
      expect(cloud.state.securityGroups.map((g) => g.id)).toEqual(['sg0', 'sg3', 'sg4', 'sg5']);
      expect(YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8')).contexts).toEqual([]);
      expect(existsSync(sb.workload)).toBe(false);
    } finally {
      fake.cleanup();
    }

    // The Cluster is gone: its own ClusterClass (named after it) is looked for; there is none.
    const again = fakeTools([c.clusterList([]), c.getCluster(undefined, 'demo'), classes('empty-list.json', 'demo'), leftovers('empty-list.json', 'demo')]);
    try {
      const before = cloud.log.length;
      const r = await deleteCluster(runOptions(sb), fakeDeps(again, cloud));
      again.assertDone();
      expect(r.actions).toEqual([]);
      expect(cloud.log.length).toBe(before);
    } finally {
      again.cleanup();
    }
  }, T);

  it('a volume that is not released (its pod still runs) is named in a warning, and the delete goes on', async () => {
    const sb = sandbox();
    writeSecretFile(sb.workload, readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'));
    const c = calls(sb.mgmt, sb.workload);
    const pvs = () => c.kc(c.w('get', 'persistentvolumes', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/get-pvs-bound.json` });
    const fake = fakeTools([
      // A cluster kaas created before it had namespaces: found in default.
      c.clusterList(['default']),
      c.getCluster('get-cluster-provisioned.json'),
      c.machineTemplates(),
      // The management cluster's Secret first, although a kubeconfig is recorded (it may hold an expired certificate).
      c.getKubeconfig(),
      c.kc(c.w('get', 'services', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
      c.kc(c.w('get', 'persistentvolumeclaims', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/get-pvcs-all.json` }),
      c.kc(c.w('delete', 'pvc/data-0', '--namespace', 'app', '--ignore-not-found', '--wait=false')),
      pvs(), pvs(),
      c.kc(c.m('delete', 'clusters.v1beta2.cluster.x-k8s.io/demo', '--namespace', 'default', '--ignore-not-found', '--wait=false')),
      c.getCluster(),
      c.kc(c.m('get', 'openstackmachinetemplates,kubeadmconfigtemplates,secrets', '--namespace', 'default', '--selector', 'cluster.x-k8s.io/cluster-name=demo,app.kubernetes.io/managed-by=kaas', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
    ]);
    try {
      const deps = fakeDeps(fake, fakeCloud());
      const r = await deleteCluster({ ...runOptions(sb), timeouts: { pollMs: 1000, servicesSec: 1 } }, deps);
      fake.assertDone();
      expect(r.actions).toContain(CLUSTER_ACTION);
      expect(deps.logger.lines.join('\n')).toMatch(/volumes not released .*pvc-5f1c2d3e-4b5a-4c6d-8e7f-9a0b1c2d3e4f \(Cinder volume 0c9a8b7d-6e5f-4a3b-2c1d-0e9f8a7b6c5d\)/);
      expect(deps.logger.lines.join('\n')).not.toMatch(/pvc-kept/);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('an unreachable workload cluster does not block the delete: the Cluster goes, its LBs are cleaned up in the cloud', async () => {
    const { sb, c, found, deleteIt, noLeftovers } = provisioned();
    const fake = fakeTools([
      ...found,
      c.getKubeconfig(),
      c.kc(c.w('get', 'services', '--all-namespaces', '-o', 'json'), { stderrFile: 'test/fakes/recorded/kubectl-v1.32/error-connection-refused.txt', exitCode: 1 }),
      deleteIt,
      c.getCluster(),
      noLeftovers,
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      const deps = fakeDeps(fake, cloud);
      const r = await deleteCluster(runOptions(sb), deps);
      fake.assertDone();
      expect(deps.logger.lines.join('\n')).toMatch(/the workload cluster cannot be reached \(The connection to the server 127\.0\.0\.1:1 was refused.*the Cinder volumes of its PVCs are not/);
      expect(r.actions).toContain('Octavia load balancer kube_service_demo_app_web (lb-web)');
      expect(cloud.log).toContain('delete load balancer lb-web');
    } finally {
      fake.cleanup();
    }
  }, T);

  it('a kubectl error while waiting for the Cluster is retried (review 2026-11-27 n2; before, it ended delete-cluster before the cloud cleanup)', async () => {
    const { sb, c, found, deleteIt, noLeftovers } = provisioned();
    const fake = fakeTools([
      ...found,
      c.getKubeconfig(),
      c.kc(c.w('get', 'services', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
      c.kc(c.w('get', 'persistentvolumeclaims', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
      deleteIt,
      // The management API server restarts during the wait: one poll fails, the next one answers.
      c.kc(c.m('get', 'clusters.v1beta2.cluster.x-k8s.io', 'demo', '--namespace', 'default', '-o', 'json'), { stderrFile: 'test/fakes/recorded/kubectl-v1.32/error-connection-refused.txt', exitCode: 1 }),
      c.getCluster(),
      noLeftovers,
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      const deps = fakeDeps(fake, cloud);
      const r = await deleteCluster(runOptions(sb), deps);
      fake.assertDone();
      expect(r.actions).toContain('server group capi-demo-controller (g1)');
    } finally {
      fake.cleanup();
    }
  }, T);

  it('--dry-run lists everything and deletes nothing', async () => {
    const sb = sandbox();
    await withContext(sb);
    writeSecretFile(sb.workload, readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'));
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([
      // A cluster kaas created before it had namespaces: found in default.
      c.clusterList(['default']),
      c.getCluster('get-cluster-provisioned.json'),
      c.machineTemplates(),
      // No Secret: the recorded file, once its server is the Cluster's endpoint (the CA Secret unreadable: endpoint only).
      noSecret(c),
      c.kc(c.m(...c.get('secret', 'demo-ca', 'default')), { stderr: 'Error from server (NotFound): secrets "demo-ca" not found\n', exitCode: 1 }),
      c.kc(c.w('get', 'services', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/get-services-all.json` }),
      c.kc(c.w('get', 'persistentvolumeclaims', '--all-namespaces', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
      c.kc(c.m('get', 'openstackmachinetemplates,kubeadmconfigtemplates,secrets', '--namespace', 'default', '--selector', 'cluster.x-k8s.io/cluster-name=demo,app.kubernetes.io/managed-by=kaas', '-o', 'json'), { stdoutFile: `${R}/empty-list.json` }),
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      const r = await deleteCluster(runOptions(sb, { dryRun: true }), fakeDeps(fake, cloud));
      fake.assertDone();
      expect(r.dryRun).toBe(true);
      expect(r.actions).toContain('Octavia load balancer kube_service_demo_app_web (lb-web)');
      expect(r.actions).toContain('kubeconfig context demo-admin@demo');
      expect(cloud.log).toEqual([]);
      expect(existsSync(sb.workload)).toBe(true);
      expect(YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8')).contexts).toHaveLength(1);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('--dry-run without a management cluster lists the cloud side and this machine\'s, with a warning and a hint instead of kubectl\'s raw error (issue 23)', async () => {
    const sb = sandbox();
    await withContext(sb);
    writeSecretFile(sb.workload, readFileSync(`${R}/clusterctl-get-kubeconfig.yaml`, 'utf8'));
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([
      c.kc(c.m('get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'), { stderrFile: 'test/fakes/recorded/kubectl-v1.32/error-connection-refused.txt', exitCode: 1 }),
      // Is it an old Cluster API (review n9)? It cannot be asked: kubectl's error stands.
      c.connectionRefused(),
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      const deps = fakeDeps(fake, cloud);
      const r = await deleteCluster(runOptions(sb, { dryRun: true }), deps);
      fake.assertDone();
      const said = deps.logger.lines.join('\n');
      expect(said).toMatch(/the management cluster cannot be reached \(The connection to the server 127\.0\.0\.1:1 was refused.*\): the Cluster and the objects kaas applied there are not listed/);
      expect(said).toContain(`hint: kaas asked the management cluster of ${sb.mgmt}; set mgmt_kubeconfig`);
      expect(r.actions).not.toContain(CLUSTER_ACTION);
      expect(r.actions).toEqual(expect.arrayContaining(['Octavia load balancer kube_service_demo_app_web (lb-web)', `file ${sb.workload}`]));
      // A context merged before contexts were prefixed goes only when its server is provably this Cluster's.
      expect(r.actions).not.toContain('kubeconfig context demo-admin@demo');
      expect(r.actions.some((a) => a.includes('capi-demo-controller'))).toBe(true);
      expect(cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('a management cluster with Cluster API below v1.11 (no v1beta2) names the clusterctl upgrade, not the kubeconfig (review 2026-11-27 n9), nothing deleted', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const served = readFileSync(`${R}/api-versions.txt`, 'utf8').split('\n').filter((l) => !/^((bootstrap|controlplane)\.)?cluster\.x-k8s\.io\/v1beta2$/.test(l)).join('\n');
    const fake = fakeTools([
      c.kc(c.m('get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'), { stderr: 'error: the server doesn\'t have a resource type "clusters"\n', exitCode: 1 }),
      c.kc(c.m('api-versions'), { stdout: served }),
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      const e = await deleteCluster(runOptions(sb), fakeDeps(fake, cloud)).catch((x: unknown) => x) as { message: string; problems: string[]; hint: string; exitCode: number };
      fake.assertDone();
      expect(e.message).toBe('the management cluster does not serve the Cluster API version kaas reads (v1beta2, Cluster API ≥ v1.11)');
      expect(e.problems).toContain(`Cluster API core serves cluster.x-k8s.io/v1beta1 but not cluster.x-k8s.io/v1beta2, which kaas renders (kaas supports Cluster API v1.12–v1.14; from below v1.11 upgrade at most three minors per step, CAPO and ORC in between: docs/guides/management-cluster-versions.md) — clusterctl upgrade apply --core cluster-api:v1.14.2 --bootstrap kubeadm:v1.14.2 --control-plane kubeadm:v1.14.2 --kubeconfig ${sb.mgmt}`);
      expect(e.hint).not.toMatch(/cluster-info/);
      expect(e.exitCode).toBe(1);
      expect(cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);

  it('without --dry-run an unreachable management cluster is an error with kubectl\'s words and a hint (exit 1), nothing deleted', async () => {
    const sb = sandbox();
    const c = calls(sb.mgmt, sb.workload);
    const fake = fakeTools([
      c.kc(c.m('get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'), { stderrFile: 'test/fakes/recorded/kubectl-v1.32/error-connection-refused.txt', exitCode: 1 }),
      // Is it an old Cluster API (review n9)? It cannot be asked: kubectl's error stands.
      c.connectionRefused(),
    ]);
    const cloud = fakeCloud(leftoverCloud());
    try {
      await expect(deleteCluster(runOptions(sb), fakeDeps(fake, cloud))).rejects.toMatchObject({ exitCode: 1, hint: expect.stringContaining(`kubectl --kubeconfig ${sb.mgmt} cluster-info`) });
      expect(cloud.log).toEqual([]);
    } finally {
      fake.cleanup();
    }
  }, T);
});
