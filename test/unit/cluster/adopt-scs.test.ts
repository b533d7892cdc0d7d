import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { deleteCluster } from '../../../lib/cluster/delete/delete.js';
import { memoryLogger } from '../../../lib/log.js';
import { importScs } from '../../../lib/import/import.js';
import { fakeManagementCluster, type FakeObject } from '../../fakes/fake-tools.js';
import { exampleCloudState, fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

const T = 240_000;

/** A clusterctl.yaml as the SCS scripts keep it in ~/<cluster>/ (secrets left out). */
const CLUSTERCTL = `KUBERNETES_VERSION: v1.33.4
OPENSTACK_IMAGE_NAME: ubuntu-capi-image-v1.33.4
OPENSTACK_CONTROL_PLANE_MACHINE_FLAVOR: SCS-2V-4-20s
CONTROL_PLANE_MACHINE_COUNT: 1
CONTROL_PLANE_MACHINE_GEN: genc01
OPENSTACK_NODE_MACHINE_FLAVOR: SCS-2V-4-20s
WORKER_MACHINE_COUNT: 2
WORKER_MACHINE_GEN: genw01
NODE_CIDR: 10.8.0.0/20
RESTRICT_KUBEAPI: "[ 203.0.113.0/24, 198.51.100.7, ]"
OPENSTACK_EXTERNAL_NETWORK_ID: 5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa
OPENSTACK_DNS_NAMESERVERS: "[ 9.9.9.9, 149.112.112.112, ]"
OPENSTACK_SSH_KEY_NAME: capi-keypair
OPENSTACK_ANTI_AFFINITY: true
OPENSTACK_CLOUD: example-cloud
`;

type Spec = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

/**
 * The objects the SCS scripts leave on the management cluster, in namespace <cluster>, with the
 * SCS names (<cluster>-control-plane-<gen>, <cluster>-md-0-<gen>), server groups by ID, SCS-only
 * extras kaas does not set (security groups, files, preKubeadmCommands), no kaas labels or tags,
 * and machines running. Built from what kaas renders for the imported settings, so the fields
 * kaas sets hold the same values; stored as CAPI v1.12 keeps them (v1beta2, whatever version the
 * scripts applied).
 */
function scsObjects(rendered: FakeObject[]): FakeObject[] {
  const by = (kind: string) => structuredClone(rendered.find((o) => o.kind === kind && !o.metadata.name.startsWith('demo-md-0') === (kind !== 'MachineDeployment' && kind !== 'KubeadmConfigTemplate'))!);
  const bare = (o: FakeObject, name = o.metadata.name): FakeObject => ({ ...o, metadata: { name, namespace: 'demo' } });
  const tpl = (role: 'control-plane' | 'md-0', gen: string, group: string) => {
    const o = bare(structuredClone(rendered.find((x) => x.kind === 'OpenStackMachineTemplate' && x.metadata.name.startsWith(`demo-${role}-`))!), `demo-${role}-${gen}`);
    const s = (o.spec as Spec).template.spec;
    s.serverGroup = { id: group };
    s.securityGroups = [{ filter: { name: 'capi-allow-ssh' } }, { filter: { name: 'capi-allow-icmp' } }];
    return o;
  };
  const kct = bare(structuredClone(rendered.find((x) => x.kind === 'KubeadmConfigTemplate')!), 'demo-md-0-genw01');
  (kct.spec as Spec).template.spec.preKubeadmCommands = ['systemctl restart containerd.service'];
  const kcp = bare(by('KubeadmControlPlane'));
  const k = kcp.spec as Spec;
  k.machineTemplate.spec.infrastructureRef.name = 'demo-control-plane-genc01';
  k.kubeadmConfigSpec.files = [{ path: '/root/etcd-defrag.sh', owner: 'root:root', permissions: '0755', content: '#!/bin/bash\n' }];
  k.kubeadmConfigSpec.clusterConfiguration.apiServer = { extraArgs: [{ name: 'cloud-provider', value: 'external' }] };
  kcp.status = { initialization: { controlPlaneInitialized: true }, replicas: 1, readyReplicas: 1, availableReplicas: 1, upToDateReplicas: 1, observedGeneration: 1 };
  const md = bare(structuredClone(rendered.find((x) => x.kind === 'MachineDeployment')!));
  (md.spec as Spec).template.spec.infrastructureRef.name = 'demo-md-0-genw01';
  (md.spec as Spec).template.spec.bootstrap.configRef.name = 'demo-md-0-genw01';
  md.status = { replicas: 2, readyReplicas: 2, availableReplicas: 2, upToDateReplicas: 2, observedGeneration: 1 };
  const osc = bare(by('OpenStackCluster'));
  delete (osc.spec as Spec).tags;
  (osc.spec as Spec).managedSecurityGroups = { allowAllInClusterTraffic: false };
  const machine = (name: string, infra: string): FakeObject => ({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Machine', metadata: { name, namespace: 'demo', labels: { 'cluster.x-k8s.io/cluster-name': 'demo' } }, spec: { clusterName: 'demo', infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackMachineTemplate', name: infra } } });
  const kubeconfig = YAML.stringify({ apiVersion: 'v1', kind: 'Config', clusters: [{ name: 'demo', cluster: { server: 'https://203.0.113.10:6443' } }], contexts: [{ name: 'demo-admin@demo', context: { cluster: 'demo', user: 'demo-admin' } }], 'current-context': 'demo-admin@demo', users: [{ name: 'demo-admin', user: {} }] });
  return [
    { apiVersion: 'v1', kind: 'Namespace', metadata: { name: 'demo' } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo-cloud-config', namespace: 'demo' }, data: { 'clouds.yaml': Buffer.from('clouds: {}\n').toString('base64') } },
    { apiVersion: 'v1', kind: 'Secret', metadata: { name: 'demo-kubeconfig', namespace: 'demo' }, data: { value: Buffer.from(kubeconfig).toString('base64') } },
    // Provisioned: Cluster API copied the API load balancer's address into the Cluster (the kubeconfig's server).
    { ...bare(by('Cluster')), spec: { ...(by('Cluster').spec as Spec), controlPlaneEndpoint: { host: '203.0.113.10', port: 6443 } } }, osc, kcp, md, kct,
    tpl('control-plane', 'genc01', 'g1'), tpl('md-0', 'genw01', 'g2'),
    machine('demo-control-plane-abcde', 'demo-control-plane-genc01'), machine('demo-md-0-7d9f-1', 'demo-md-0-genw01'), machine('demo-md-0-7d9f-2', 'demo-md-0-genw01'),
  ];
}

describe('adopting a cluster the SCS scripts created', () => {
  it('settings import records the SCS layout; create-cluster converges on the existing objects (no new ones); delete-cluster finds them', async () => {
    const sb = sandbox();
    const settingsDir = path.join(sb.home, 'settings');
    mkdirSync(settingsDir, { recursive: true });
    copyFileSync('settings/example.yaml', path.join(settingsDir, 'example.yaml'));
    const clusterctl = path.join(sb.home, 'demo', 'clusterctl.yaml');
    mkdirSync(path.dirname(clusterctl), { recursive: true });
    writeFileSync(clusterctl, CLUSTERCTL);
    const imported = await importScs({ clusterctlFile: clusterctl, cluster: 'demo', settingsDir, env: 'example', cwd: process.cwd(), dryRun: false, force: true }, { logger: memoryLogger(false) });
    const keys = (imported.data as { imported: { key: string; value: unknown }[] }).imported;
    expect(keys).toEqual(expect.arrayContaining([{ key: 'namespace', value: 'demo', from: expect.any(String) }, { key: 'workload_kubeconfig', value: '~/demo/demo.yaml', from: expect.any(String) }]));

    const mgmt = fakeManagementCluster(sb.mgmt);
    const cloud = fakeCloud({ ...exampleCloudState(), serverGroups: [{ id: 'g1', name: 'capi-demo-controller', policy: 'anti-affinity' }, { id: 'g2', name: 'capi-demo-worker', policy: 'soft-anti-affinity' }] });
    const o = { ...runOptions(sb), settingsDir };
    try {
      // What kaas renders for these settings (dry-run against the empty management cluster).
      const dry = await createCluster({ ...o, dryRun: true }, fakeDeps(mgmt, cloud));
      expect(dry.live?.objects.every((x) => x.action === 'create')).toBe(true);
      mgmt.seed(scsObjects(YAML.parseAllDocuments(dry.manifests!).map((d) => d.toJS() as FakeObject).filter(Boolean)));
      const before = Object.keys(mgmt.objects()).sort();

      const r = await createCluster(o, fakeDeps(mgmt, cloud));
      expect(Object.keys(mgmt.objects()).sort()).toEqual(before);
      const kcp = mgmt.objects()['KubeadmControlPlane/demo/demo-control-plane'];
      expect((kcp.spec as Spec).machineTemplate.spec.infrastructureRef.name).toBe('demo-control-plane-genc01');
      expect(kcp.metadata.generation).toBe(1); // no rollout
      expect((kcp.spec as Spec).kubeadmConfigSpec.files).toHaveLength(1); // SCS extras stay
      expect((mgmt.objects()['MachineDeployment/demo/demo-md-0'].spec as Spec).template.spec.infrastructureRef.name).toBe('demo-md-0-genw01');
      // The one in-place change kaas makes: its in-cluster traffic rule (CAPO allows it).
      expect((mgmt.objects()['OpenStackCluster/demo/demo'].spec as Spec).managedSecurityGroups.allowAllInClusterTraffic).toBe(true);
      expect(r.kubeconfig).toBe(path.join(sb.home, 'demo', 'demo.yaml'));
      expect(cloud.log).toEqual([]); // server groups reused

      const d = await deleteCluster({ ...o }, fakeDeps(mgmt, cloud));
      expect(d.actions).toContain('Cluster demo/demo (CAPO deletes its servers, network and kube-API load balancer)');
      expect(mgmt.objects()['Cluster/demo/demo']).toBeUndefined();
    } finally {
      mgmt.cleanup();
    }
  }, T);
});
