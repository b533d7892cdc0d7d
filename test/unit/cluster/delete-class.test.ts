import { ownClassOfGoneCluster, referencedTemplates, removeClassAndLeftovers } from '../../../lib/cluster/delete/class.js';
import { readTopology } from '../../../lib/cluster/topology/topology.js';
import { ExecError } from '../../../lib/exec/runner.js';
import type { Kubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';

/**
 * delete-cluster on the management cluster after the Cluster: its own ClusterClass with the templates,
 * and kaas's labelled leftovers; never a template a surviving ClusterClass refers to (review
 * 2026-11-27 N1), a refused class deletion keeps the class and goes on (n8), and a cluster that is
 * gone (a delete finished in the background) still has its class removed (n7).
 */
type Obj = { apiVersion?: string; kind: string; metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> }; spec?: unknown };
const NS = 'scs1';
const KAAS = { 'cluster.x-k8s.io/cluster-name': 'scs1', 'app.kubernetes.io/managed-by': 'kaas' };
const ref = (kind: string, name: string) => ({ templateRef: { kind, name } });
const cc = (name: string, worker: string, ns = NS): Obj => ({
  kind: 'ClusterClass', metadata: { name, namespace: ns },
  spec: {
    infrastructure: ref('OpenStackClusterTemplate', `${name}-geno01`),
    controlPlane: { ...ref('KubeadmControlPlaneTemplate', `${name}-control-plane-genc01`), machineInfrastructure: ref('OpenStackMachineTemplate', `capi-${name}-control-plane-genc01`) },
    workers: { machineDeployments: [{ class: 'md-0', bootstrap: ref('KubeadmConfigTemplate', `capi-${name}-md-0-genw01`), infrastructure: ref('OpenStackMachineTemplate', worker) }] },
  },
});
const osmt = (name: string, labels?: Record<string, string>, previous?: string): Obj => ({
  kind: 'OpenStackMachineTemplate', metadata: { name, namespace: NS, ...(labels ? { labels } : {}), ...(previous ? { annotations: { 'kaas.scs.community/previous-generation': previous } } : {}) },
});
const cluster = (name: string, className = 'scs1', ns = NS): Obj => ({ kind: 'Cluster', metadata: { name, namespace: ns }, spec: { topology: { classRef: { name: className }, workers: { machineDeployments: [{ class: 'md-0', name: 'md-0' }] } } } });
const secret = (): Obj => ({ kind: 'Secret', metadata: { name: 'scs1-cloud-config', namespace: NS, labels: KAAS } });

const KIND_OF: Record<string, string> = {
  'clusterclasses.v1beta2.cluster.x-k8s.io': 'ClusterClass', 'clusters.v1beta2.cluster.x-k8s.io': 'Cluster',
  'openstackclustertemplates.v1beta1.infrastructure.cluster.x-k8s.io': 'OpenStackClusterTemplate', 'openstackmachinetemplates.v1beta1.infrastructure.cluster.x-k8s.io': 'OpenStackMachineTemplate',
  'machinedeployments.v1beta2.cluster.x-k8s.io': 'MachineDeployment', clusterclass: 'ClusterClass', openstackmachinetemplate: 'OpenStackMachineTemplate',
  kubeadmconfigtemplate: 'KubeadmConfigTemplate', kubeadmcontrolplanetemplate: 'KubeadmControlPlaneTemplate', openstackclustertemplate: 'OpenStackClusterTemplate', secret: 'Secret',
};
const kindOf = (spec: string) => KIND_OF[spec.split('/')[0]] ?? KIND_OF[spec.split('/')[0].replace('.v1beta2.cluster.x-k8s.io', '')] ?? spec;

/** An in-memory management cluster: gets, lists (by namespace and label), deletes; `refuse` makes a ClusterClass delete fail as CAPI's webhook does. */
function mgmt(objects: Obj[], refuse = false): { k: Kubectl; deleted: string[]; objects: Obj[] } {
  const state = { objects: [...objects], deleted: [] as string[] };
  const k = {
    async getJson(kind: string, name?: string, scope: { namespace?: string; selector?: string } = {}) {
      const kinds = kind.split(',').map((x) => kindOf(x === 'openstackmachinetemplates' ? 'openstackmachinetemplate' : x === 'kubeadmconfigtemplates' ? 'kubeadmconfigtemplate' : x === 'secrets' ? 'secret' : x));
      const sel = (scope.selector ?? '').split(',').filter(Boolean).map((s) => s.split('='));
      const items = state.objects.filter((o) => kinds.includes(o.kind) && o.metadata.namespace === scope.namespace && sel.every(([a, b]) => o.metadata.labels?.[a] === b));
      if (name) return items.find((o) => o.metadata.name === name);
      return { items };
    },
    async run(args: string[]) {
      const kind = kindOf(args[1]);
      return { exitCode: 0, stdout: JSON.stringify({ items: state.objects.filter((o) => o.kind === kind) }), stderr: '' };
    },
    async delete(resources: string[], scope: { namespace?: string } = {}) {
      for (const r of resources) {
        const kind = kindOf(r);
        const name = r.split('/')[1];
        if (kind === 'ClusterClass' && refuse) {
          throw new ExecError('kubectl', ['delete', r], 1, `Error from server (Forbidden): admission webhook "validation.clusterclass.cluster.x-k8s.io" denied the request: clusterclasses.cluster.x-k8s.io "${name}" is forbidden: ClusterClass cannot be deleted because it is used by 1 Cluster(s)`);
        }
        state.objects = state.objects.filter((o) => !(o.kind === kind && o.metadata.name === name && o.metadata.namespace === scope.namespace));
        state.deleted.push(`${kind}/${name}`);
      }
    },
  } as unknown as Kubectl;
  return { k, deleted: state.deleted, get objects() { return state.objects; } };
}

describe('referencedTemplates and ownClassOfGoneCluster (pure)', () => {
  it.each([
    ['every class\'s references, namespaced', [cc('a', 'w-a'), cc('b', 'w-b', 'other')], undefined, ['scs1/openstackmachinetemplate/w-a', 'other/openstackmachinetemplate/w-b']],
    ['but the class being deleted', [cc('a', 'w-a'), cc('b', 'w-b')], { namespace: NS, name: 'a' }, ['scs1/openstackmachinetemplate/w-b']],
    ['a class of the same name elsewhere still counts', [cc('a', 'w-a', 'other')], { namespace: NS, name: 'a' }, ['other/openstackmachinetemplate/w-a']],
  ])('%s', (_what, classes, except, has) => {
    const s = referencedTemplates(classes, except);
    for (const h of has) expect(s).toContain(h);
    expect([...s].filter((x) => x.includes('openstackmachinetemplate/w-'))).toEqual(has);
  });

  it.each([
    ['named after the cluster (the SCS template)', [cc('x', 'w'), cc('demo', 'w')], 'demo'],
    ['labelled by kaas with the cluster name', [cc('x', 'w'), { ...cc('mine', 'w'), metadata: { name: 'mine', namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': 'demo', 'app.kubernetes.io/managed-by': 'kaas' } } }], 'mine'],
    ['labelled with the name but not by kaas: not its own', [{ ...cc('theirs', 'w'), metadata: { name: 'theirs', namespace: NS, labels: { 'cluster.x-k8s.io/cluster-name': 'demo' } } }], undefined],
    ['none', [cc('x', 'w')], undefined],
  ])('the class of a gone cluster: %s', (_what, classes, want) => {
    expect(ownClassOfGoneCluster(classes, 'demo')?.metadata.name).toBe(want);
  });
});

/** delete-cluster's step on `m` for cluster scs1: what it did, and what it said. */
async function cleanup(m: ReturnType<typeof mgmt>, o: { clusterGone?: boolean; dryRun?: boolean } = {}) {
  const topology = o.clusterGone ? undefined : await readTopology(m.k, NS, 'scs1');
  const actions: string[] = [];
  const logger = memoryLogger(false);
  await removeClassAndLeftovers(m.k, { cluster: 'scs1', namespace: NS, topology, clusterGone: o.clusterGone ?? false, dryRun: o.dryRun ?? false }, actions, logger);
  return { actions, said: logger.lines.join('\n') };
}

describe('removeClassAndLeftovers (delete-cluster, after the Cluster)', () => {
  // kaas made capi-scs1-md-0-genw02 for scs1 (labelled with its name); the class points at it.
  const base = () => [
    cc('scs1', 'capi-scs1-md-0-genw02'), cluster('scs1'),
    osmt('capi-scs1-md-0-genw01'), osmt('capi-scs1-md-0-genw02', KAAS, 'capi-scs1-md-0-genw01'), osmt('capi-scs1-control-plane-genc01'), secret(),
  ];

  it('N1: a class another cluster uses stays, and so does the generation it refers to (before: deleted by the labelled-leftovers sweep)', async () => {
    const m = mgmt([...base(), cluster('b')]);
    const { actions, said } = await cleanup(m);
    expect(m.deleted).toEqual(['Secret/scs1-cloud-config']);
    expect(actions).toEqual(['Secret scs1/scs1-cloud-config']);
    expect(said).toMatch(/OpenStackMachineTemplate scs1\/capi-scs1-md-0-genw02 stays: ClusterClass scs1 refers to it/);
  });

  it('N1: the cluster\'s own class goes with its templates, but a template a copied class refers to stays', async () => {
    const m = mgmt([...base(), cc('copy', 'capi-scs1-md-0-genw02'), cluster('b', 'copy')]);
    const { actions } = await cleanup(m);
    expect(m.deleted).toEqual([
      'ClusterClass/scs1', 'OpenStackClusterTemplate/scs1-geno01', 'KubeadmControlPlaneTemplate/scs1-control-plane-genc01', 'OpenStackMachineTemplate/capi-scs1-control-plane-genc01',
      'KubeadmConfigTemplate/capi-scs1-md-0-genw01', 'OpenStackMachineTemplate/capi-scs1-md-0-genw01', 'Secret/scs1-cloud-config',
    ]);
    expect(m.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toContain('OpenStackMachineTemplate/capi-scs1-md-0-genw02');
    expect(actions[0]).toBe('clusterclass/scs1 in scs1 (the cluster\'s own ClusterClass)');
  });

  it('n8: a refused class deletion keeps the class and its templates, warns, and the rest goes on (before: the ExecError ended delete-cluster)', async () => {
    const m = mgmt(base(), true);
    const { actions, said } = await cleanup(m);
    expect(m.deleted).toEqual(['Secret/scs1-cloud-config']);
    expect(actions).toEqual(['Secret scs1/scs1-cloud-config']);
    expect(said).toMatch(/ClusterClass scs1\/scs1 was not deleted \(.*used by 1 Cluster\(s\)\): it stays with its templates; delete it yourself once no cluster uses it: kubectl delete clusterclass scs1 -n scs1/);
  });

  it('n7: the Cluster is gone (CAPI finished a delete that timed out): its own class and templates are found by its name and deleted', async () => {
    const m = mgmt(base().filter((o) => o.kind !== 'Cluster'));
    await cleanup(m, { clusterGone: true });
    expect(m.deleted).toEqual([
      'ClusterClass/scs1', 'OpenStackClusterTemplate/scs1-geno01', 'KubeadmControlPlaneTemplate/scs1-control-plane-genc01', 'OpenStackMachineTemplate/capi-scs1-control-plane-genc01',
      'KubeadmConfigTemplate/capi-scs1-md-0-genw01', 'OpenStackMachineTemplate/capi-scs1-md-0-genw02', 'OpenStackMachineTemplate/capi-scs1-md-0-genw01', 'Secret/scs1-cloud-config',
    ]);
    expect(m.objects).toEqual([]);
  });

  it('n7: a gone cluster\'s class that another cluster uses stays; a dry run deletes nothing', async () => {
    const m = mgmt([...base().filter((o) => o.metadata.name !== 'scs1' || o.kind !== 'Cluster'), cluster('b')]);
    await cleanup(m, { clusterGone: true });
    expect(m.deleted).toEqual(['Secret/scs1-cloud-config']);
    const dry = mgmt(base().filter((o) => o.kind !== 'Cluster'));
    const { actions: listed } = await cleanup(dry, { clusterGone: true, dryRun: true });
    expect(dry.deleted).toEqual([]);
    expect(listed[0]).toBe('clusterclass/scs1 in scs1 (the cluster\'s own ClusterClass)');
    expect(listed).toHaveLength(8);
  });
});
