import { classCleanup, classTemplates, nextGeneration, planTopology, type LiveTopology, type TopologyWanted } from '../../../lib/cluster/topology/topology.js';

// The shapes are those the real CAPI v1.12 / CAPO v0.14 answered on the testbed for the SCS template
// (test/testbed/clusterclass.test.ts holds kaas to them end to end).
const osmt = (name: string, flavor: string, image = 'ubuntu-capi-image-v1.34.10') => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate',
  metadata: { name, namespace: 'scs1', annotations: { 'kubectl.kubernetes.io/last-applied-configuration': '{}' } },
  spec: { template: { spec: { flavor, image: { filter: { name: image } }, sshKeyName: 'capi-keypair', securityGroups: [{ filter: { name: 'capi-allow-ssh' } }], identityRef: { name: 'scs1-cloud-config', cloudName: 'c' } } } },
});
const osct = (name: string, allowedCIDRs?: string[]) => ({
  apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackClusterTemplate', metadata: { name, namespace: 'scs1' },
  spec: { template: { spec: { apiServerLoadBalancer: { enabled: true, ...(allowedCIDRs ? { allowedCIDRs } : {}) }, managedSubnets: [{ cidr: '10.8.0.0/20' }] } } },
});
const clusterClass = (extra: Record<string, unknown> = {}) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'ClusterClass', metadata: { name: 'scs1', namespace: 'scs1' },
  spec: {
    infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackClusterTemplate', name: 'scs1-geno01' } },
    controlPlane: {
      templateRef: { apiVersion: 'controlplane.cluster.x-k8s.io/v1beta2', kind: 'KubeadmControlPlaneTemplate', name: 'scs1-control-plane-genc01' },
      machineInfrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-control-plane-genc01' } },
    },
    workers: { machineDeployments: [{ class: 'md-0', bootstrap: { templateRef: { kind: 'KubeadmConfigTemplate', name: 'capi-scs1-md-0-genw01' } }, infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-md-0-genw01' } } }] },
    ...extra,
  },
});
const cluster = (version = 'v1.34.10', cp = 1, workers = 1, pools?: unknown[]) => ({
  apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'scs1', namespace: 'scs1' },
  spec: {
    controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'scs1-control-plane' },
    topology: { classRef: { name: 'scs1' }, version, controlPlane: { replicas: cp }, workers: { machineDeployments: pools ?? [{ class: 'md-0', name: 'md-0-no1', replicas: workers }] } },
  },
});

function live(o: { cluster?: ReturnType<typeof cluster>; cc?: ReturnType<typeof clusterClass>; others?: string[]; cidrs?: string[]; existing?: string[] } = {}): LiveTopology {
  const c = o.cluster ?? cluster();
  const cc = o.cc ?? clusterClass();
  const templates = classTemplates(cc, c.spec.topology.workers.machineDeployments as { class: string }[]);
  const objs: Record<string, unknown> = {
    'scs1-geno01': osct('scs1-geno01', o.cidrs),
    'capi-scs1-control-plane-genc01': osmt('capi-scs1-control-plane-genc01', 'small'),
    'capi-scs1-md-0-genw01': osmt('capi-scs1-md-0-genw01', 'small'),
  };
  for (const t of templates) t.live = objs[t.name] as never;
  return {
    namespace: 'scs1', cluster: c as never, clusterClass: cc as never, classNamespace: 'scs1', className: 'scs1', otherUsers: o.others ?? [], templates,
    existingTemplates: o.existing ?? Object.keys(objs), previousGeneration: {}, machineDeployments: [{ topologyName: 'md-0-no1', name: 'scs1-md-0-no1-x7k2p' }],
  };
}
const wanted = (w: Partial<TopologyWanted> & { cpFlavor?: string; wFlavor?: string; image?: string; cidrs?: string[] } = {}): TopologyWanted => ({
  version: w.version ?? 'v1.34.10', controlPlaneReplicas: w.controlPlaneReplicas ?? 1, workerReplicas: w.workerReplicas ?? 1,
  controlPlaneMachine: { flavor: w.cpFlavor ?? 'small', image: { filter: { name: w.image ?? 'ubuntu-capi-image-v1.34.10' } }, sshKeyName: 'kaas-key' },
  workerMachine: { flavor: w.wFlavor ?? 'small', image: { filter: { name: w.image ?? 'ubuntu-capi-image-v1.34.10' } } },
  openStackCluster: { apiServerLoadBalancer: { enabled: true, ...(w.cidrs ? { allowedCIDRs: w.cidrs } : {}) } },
  ...(w.nodeFiles ? { nodeFiles: w.nodeFiles } : {}),
});
const lines = (d: ReturnType<typeof planTopology>) => (d.ok ? d.value.diffs.map((x) => `${x.action} ${x.kind}/${x.name}`) : d.refusals.map((r) => r.message));

describe('planTopology (a ClusterClass cluster: spec.topology and the class templates only)', () => {
  it('settings as live: everything unchanged, nothing to apply; the fields kaas does not own (sshKeyName, security groups) do not count', () => {
    const d = planTopology({ live: live(), wanted: wanted() });
    expect(lines(d)).toEqual([
      'unchanged OpenStackClusterTemplate/scs1-geno01', 'unchanged OpenStackMachineTemplate/capi-scs1-control-plane-genc01',
      'unchanged OpenStackMachineTemplate/capi-scs1-md-0-genw01', 'unchanged ClusterClass/scs1', 'unchanged Cluster/scs1',
    ]);
    expect(d.ok && d.value.objects).toEqual([]);
    expect(d.ok && d.value.names).toEqual({ controlPlane: 'scs1-control-plane', machineDeployment: 'scs1-md-0-no1-x7k2p' });
  });

  it('registry_mirrors: a class cluster keeps the class\'s files, and the plan warns instead of dropping the setting silently', () => {
    const file = { path: '/etc/containerd/certs.d/docker.io/hosts.toml', owner: 'root:root', permissions: '0644', content: 'server = "https://m.example"\n' };
    const d = planTopology({ live: live(), wanted: wanted({ nodeFiles: [file] }) });
    expect(d.ok && d.value.objects).toEqual([]);
    expect(d.reasons.filter((r) => r.includes('registry_mirrors'))).toEqual([
      'warning: registry_mirrors is not applied to Cluster scs1/scs1: it is made from ClusterClass scs1, whose KubeadmConfigTemplate and KubeadmControlPlaneTemplate kaas does not change; the nodes keep the class\'s files (add /etc/containerd/certs.d/<registry>/hosts.toml to the class\'s templates\' files: to change them)',
    ]);
    expect(planTopology({ live: live(), wanted: wanted({ nodeFiles: [] }) }).reasons.join('\n')).not.toContain('registry_mirrors');
  });

  // Review 2026-11-27 n10: kaas made server groups for class clusters that no class template used.
  it('anti_affinity: no template change, and the plan says it is not applied (create makes no server groups for a class cluster)', () => {
    const w = wanted();
    w.controlPlaneMachine.serverGroup = { filter: { name: 'k8s-scs1-controller' } };
    w.workerMachine.serverGroup = { filter: { name: 'k8s-scs1-worker' } };
    const d = planTopology({ live: live(), wanted: w });
    expect(d.ok && d.value.objects).toEqual([]);
    expect(d.reasons.filter((r) => r.includes('anti_affinity'))).toEqual([expect.stringMatching(/^warning: anti_affinity is not applied to Cluster scs1\/scs1: .*kaas creates no server groups for it/)]);
    expect(planTopology({ live: live(), wanted: wanted() }).reasons.join('\n')).not.toContain('anti_affinity');
  });

  it('replicas: the Cluster topology only (a partial object keyed by the pool name), no template', () => {
    const d = planTopology({ live: live(), wanted: wanted({ controlPlaneReplicas: 3, workerReplicas: 4 }) });
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.value.objects).toEqual([{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'scs1', namespace: 'scs1' }, spec: { topology: { classRef: { name: 'scs1' }, version: 'v1.34.10', controlPlane: { replicas: 3 }, workers: { machineDeployments: [{ class: 'md-0', name: 'md-0-no1', replicas: 4 }] } } } }]);
    // Only the workers changing: still the whole intent (version, both counts), so that nothing kaas applied before is dropped.
    const w = planTopology({ live: live(), wanted: wanted({ workerReplicas: 2 }) });
    expect(w.ok && w.value.objects[0].spec).toEqual({ topology: { classRef: { name: 'scs1' }, version: 'v1.34.10', controlPlane: { replicas: 1 }, workers: { machineDeployments: [{ class: 'md-0', name: 'md-0-no1', replicas: 2 }] } } });
  });

  it('a flavor: a new generation of that template (the rest of it kept, server fields dropped), the class repointed by its class key', () => {
    const d = planTopology({ live: live(), wanted: wanted({ wFlavor: 'large' }) });
    if (!d.ok) throw new Error(d.refusals[0].message);
    const [tpl, cc] = d.value.objects;
    expect(tpl.metadata).toEqual({
      name: 'capi-scs1-md-0-genw01-kaas-gen02', namespace: 'scs1',
      labels: { 'cluster.x-k8s.io/cluster-name': 'scs1', 'app.kubernetes.io/managed-by': 'kaas' },
      annotations: { 'kaas.scs.community/previous-generation': 'capi-scs1-md-0-genw01' },
    });
    expect((tpl.spec as { template: { spec: unknown } }).template.spec).toEqual({ ...osmt('x', 'large').spec.template.spec });
    // Every reference kaas manages, the unchanged ones as they are (server-side apply removes what an apply leaves out).
    expect(cc).toEqual({ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'ClusterClass', metadata: { name: 'scs1', namespace: 'scs1' }, spec: {
      infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackClusterTemplate', name: 'scs1-geno01' } },
      controlPlane: { machineInfrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-control-plane-genc01' } } },
      workers: { machineDeployments: [{ class: 'md-0', infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-md-0-genw01-kaas-gen02' } } }] },
    } });
    expect(d.value.diffs.find((x) => x.kind === 'ClusterClass')!.fields.map((f) => f.path)).toEqual(['spec.workers.machineDeployments[md-0].infrastructure.templateRef.name']);
    expect(d.value.objects).toHaveLength(2);
  });

  // Review 2026-11-27 n6: a new generation replaced whole fields, dropping what the class's author set beside kaas's.
  it.each([
    ['a root disk: type and availability zone kept', { rootVolume: { sizeGiB: 50, type: 'ssd', availabilityZone: { name: 'az1' } } }, { rootVolume: { sizeGiB: 80 } }, { rootVolume: { sizeGiB: 80, type: 'ssd', availabilityZone: { name: 'az1' } } }],
    ['an image by name: the filter\'s tags kept', { image: { filter: { name: 'ubuntu-capi-image-v1.34.10', tags: ['scs'] } } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1', tags: ['scs'] } } }],
    ['an image by id: replaced by kaas\'s filter (CAPO takes one selector)', { image: { id: 'a1b2' } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } }],
    ['an ORC image reference: replaced by kaas\'s filter', { image: { imageRef: { name: 'ubuntu' } } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } }, { image: { filter: { name: 'ubuntu-capi-image-v1.35.1' } } }],
  ] as const)('a new generation merges kaas\'s sub-fields into the live field: %s', (_what, liveFields, wantFields, result) => {
    const l = live();
    const t = l.templates.find((x) => x.role.startsWith('workers'))!;
    Object.assign((t.live as unknown as { spec: { template: { spec: object } } }).spec.template.spec, structuredClone(liveFields));
    const w = wanted();
    Object.assign(w.workerMachine, structuredClone(wantFields));
    const d = planTopology({ live: l, wanted: w });
    if (!d.ok) throw new Error(d.refusals[0].message);
    const spec = (d.value.objects[0].spec as { template: { spec: Record<string, unknown> } }).template.spec;
    const key = Object.keys(result)[0] as keyof typeof result;
    expect(spec[key]).toEqual(result[key]);
    // The rest of the template as it was.
    expect(spec.securityGroups).toEqual([{ filter: { name: 'capi-allow-ssh' } }]);
  });

  it('restrict_kubeapi: a new OpenStackClusterTemplate with the allowed CIDRs; opening again removes them', () => {
    const d = planTopology({ live: live(), wanted: wanted({ cidrs: ['10.0.0.0/8', '172.24.4.1/32'] }) });
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect((d.value.objects[0].spec as { template: { spec: { apiServerLoadBalancer: unknown } } }).template.spec.apiServerLoadBalancer).toEqual({ enabled: true, allowedCIDRs: ['10.0.0.0/8', '172.24.4.1/32'] });
    const open = planTopology({ live: live({ cidrs: ['10.0.0.0/8'] }), wanted: wanted() });
    if (!open.ok) throw new Error(open.refusals[0].message);
    expect((open.value.objects[0].spec as { template: { spec: { apiServerLoadBalancer: unknown } } }).template.spec.apiServerLoadBalancer).toEqual({ enabled: true });
    // The same CIDRs in another order are no change.
    expect(lines(planTopology({ live: live({ cidrs: ['b/32', 'a/8'] }), wanted: wanted({ cidrs: ['a/8', 'b/32'] }) }))).toContain('unchanged OpenStackClusterTemplate/scs1-geno01');
  });

  // Review 2026-11-27 N3: the M1 check on the topology path. CAPO v0.14 skips allowedCIDRs without an
  // error where the live API LB's provider has no VIP ACLs (loadbalancer.go IsOctaviaFeatureSupported).
  it.each([
    ['Octavia reports ovn for the live API LB (the class sets no provider: the cloud default)', { id: 'lb-api', octaviaProvider: 'ovn' }, ['10.0.0.0/8'], undefined, /restrict_kubeapi cannot be enforced on cluster scs1: its kube-API load balancer lb-api uses the Octavia provider ovn/],
    ['the live OpenStackCluster asks for ovn, Octavia not asked', { specProvider: 'ovn', unknown: 'the cloud is not asked' }, ['10.0.0.0/8'], undefined, /uses the Octavia provider ovn/],
    ['the CIDRs are already in the template (kaas reported them enforced on every run)', { id: 'lb-api', octaviaProvider: 'ovn' }, ['10.0.0.0/8'], ['10.0.0.0/8'], /restrict_kubeapi cannot be enforced/],
    ['amphora: a new generation with the CIDRs', { id: 'lb-api', octaviaProvider: 'amphora' }, ['10.0.0.0/8'], undefined, undefined],
    ['opening again on ovn is fine (nothing to enforce)', { id: 'lb-api', octaviaProvider: 'ovn' }, [], ['10.0.0.0/8'], undefined],
  ] as const)('restrict_kubeapi on the live API LB: %s', (_what, apiLb, want, liveCidrs, refusal) => {
    const d = planTopology({ live: live({ cidrs: liveCidrs ? [...liveCidrs] : undefined }), wanted: wanted({ cidrs: want.length ? [...want] : undefined }), apiLb });
    if (refusal) {
      expect(d.ok).toBe(false);
      expect(lines(d).join('\n')).toMatch(refusal);
      expect(!d.ok && d.refusals[0].hint).toMatch(/keep restrict_kubeapi: \[\]/);
    } else {
      expect(lines(d)).toContain('create OpenStackClusterTemplate/scs1-geno01-kaas-gen02');
    }
  });

  it('restrict_kubeapi with the API LB not created yet: planned, with a warning that its provider is not known', () => {
    const d = planTopology({ live: live(), wanted: wanted({ cidrs: ['10.0.0.0/8'] }), apiLb: { unknown: 'CAPO has not created it yet (no status.apiServerLoadBalancer.id)' } });
    expect(lines(d)).toContain('create OpenStackClusterTemplate/scs1-geno01-kaas-gen02');
    expect(d.reasons.join('\n')).toMatch(/warning: kube-API load balancer of scs1: its Octavia provider is not known \(CAPO has not created it yet/);
  });

  it('a Kubernetes patch upgrade: topology.version and both machine templates (the image follows the version); the upgrade wait starts from the control plane\'s version', () => {
    const d = planTopology({ live: live(), wanted: wanted({ version: 'v1.34.11', image: 'ubuntu-capi-image-v1.34.11' }), controlPlaneVersion: 'v1.34.10' });
    expect(lines(d)).toEqual([
      'unchanged OpenStackClusterTemplate/scs1-geno01',
      'create OpenStackMachineTemplate/capi-scs1-control-plane-genc01-kaas-gen02', 'create OpenStackMachineTemplate/capi-scs1-md-0-genw01-kaas-gen02',
      'update ClusterClass/scs1', 'update Cluster/scs1',
    ]);
    expect(d.ok && d.value.upgrade).toEqual({ from: 'v1.34.10', to: 'v1.34.11' });
  });

  it('refuses the next minor while the previous upgrade still rolls (topology v1.34, control plane on v1.33): kubeadm would skip v1.34', () => {
    const d = planTopology({ live: live(), wanted: wanted({ version: 'v1.35.2', image: 'ubuntu-capi-image-v1.35.2' }), controlPlaneVersion: 'v1.33.9' });
    expect(!d.ok && d.refusals.map((r) => [r.message, r.hint])).toContainEqual([
      'Cluster scs1 (its control plane runs v1.33.9): Kubernetes v1.33.9 → v1.35.2 skips a minor version (v1.34.x); kubeadm and Cluster API upgrade one minor at a time',
      'the upgrade to v1.34.10 is still rolling: run create-cluster with kubernetes_version=v1.34.10 until it finishes, then with kubernetes_version=v1.35.2',
    ]);
  });

  it.each([
    ['a minor skip', { version: 'v1.36.1' }, {}, /skips a minor version \(v1\.35\.x\)/],
    ['a downgrade', { version: 'v1.33.9' }, {}, /cannot be downgraded/],
    ['a version the class does not allow', { version: 'v1.34.11' }, { cc: clusterClass({ kubernetesVersions: ['v1.34.10'] }) }, /allows Kubernetes v1\.34\.10, not v1\.34\.11/],
    ['a template change in a class other clusters use', { wFlavor: 'large' }, { others: ['prod/b', 'scs1/c'] }, /used by prod\/b, scs1\/c too: a new workers \(class md-0\) template in the class would roll those clusters as well/],
    ['two worker pools', {}, { cluster: cluster('v1.34.10', 1, 1, [{ class: 'md-0', name: 'a', replicas: 1 }, { class: 'md-0', name: 'b', replicas: 1 }]) }, /has 2 worker pools \(a, b\)/],
    ['a class that is gone', {}, { cc: null }, /refers to ClusterClass scs1\/scs1, which does not exist/],
  ])('refused: %s', (_, w, l, message) => {
    const lv = live(l as never);
    if ((l as { cc?: unknown }).cc === null) lv.clusterClass = undefined;
    const d = planTopology({ live: lv, wanted: wanted(w) });
    expect(d.ok).toBe(false);
    expect(lines(d).join('\n')).toMatch(message);
  });

  it('references in v1alpha7 (not served by CAPO v0.14; Cluster API cannot reconcile the class): repointed to v1beta1, same names, with a reason', () => {
    const cc = JSON.parse(JSON.stringify(clusterClass()).split('infrastructure.cluster.x-k8s.io/v1beta1').join('infrastructure.cluster.x-k8s.io/v1alpha7'));
    const d = planTopology({ live: live({ cc }), wanted: wanted() });
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(lines(d)).toContain('update ClusterClass/scs1');
    const patch = d.value.objects.find((o) => o.kind === 'ClusterClass')!;
    expect(patch.spec).toEqual({
      infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackClusterTemplate', name: 'scs1-geno01' } },
      controlPlane: { machineInfrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-control-plane-genc01' } } },
      workers: { machineDeployments: [{ class: 'md-0', infrastructure: { templateRef: { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', name: 'capi-scs1-md-0-genw01' } } }] },
    });
    expect(d.value.objects.filter((o) => o.kind !== 'ClusterClass')).toEqual([]);
    expect(d.reasons.join('\n')).toMatch(/as infrastructure.cluster.x-k8s.io\/v1alpha7, which CAPO v0.14 does not serve/);
  });

  it('replicas change in a shared class is fine (the class is not touched)', () => {
    expect(planTopology({ live: live({ others: ['prod/b'] }), wanted: wanted({ workerReplicas: 3 }) }).ok).toBe(true);
  });
});

describe('nextGeneration: a kaas suffix, never the class author\'s own counter (review 2026-11-27 n11)', () => {
  it.each([
    ['capi-scs1-md-0-genw01', [], 'capi-scs1-md-0-genw01-kaas-gen02'],
    ['capi-scs1-md-0-genw09', [], 'capi-scs1-md-0-genw09-kaas-gen02'],
    ['capi-scs1-md-0-genw01-kaas-gen02', [], 'capi-scs1-md-0-genw01-kaas-gen03'],
    ['scs1-geno01-kaas-gen09', [], 'scs1-geno01-kaas-gen10'],
    ['scs1-geno01', ['scs1-geno01-kaas-gen02', 'scs1-geno01-kaas-gen03'], 'scs1-geno01-kaas-gen04'],
    ['my-template', [], 'my-template-kaas-gen02'],
    // A Cluster Stacks release's template: its -v2 is the stack's release, -v3 belongs to the next one.
    ['openstack-scs2-1-34-v2-worker-openstack', [], 'openstack-scs2-1-34-v2-worker-openstack-kaas-gen02'],
    ['openstack-scs2-1-34-v2', ['openstack-scs2-1-34-v3'], 'openstack-scs2-1-34-v2-kaas-gen02'],
    // A generation an earlier kaas named by the counter (genw02, annotated) gets the suffix from here on.
    ['capi-scs1-md-0-genw02', ['capi-scs1-md-0-genw03'], 'capi-scs1-md-0-genw02-kaas-gen02'],
  ])('%s (taken %j) → %s', (name, taken, next) => expect(nextGeneration(name, taken)).toBe(next));
});

describe('classCleanup (delete-cluster)', () => {
  it('the cluster\'s own class: the class, every template it refers to and the generations kaas replaced', () => {
    const l = live();
    (l.clusterClass!.spec as Record<string, unknown>).workers = { machineDeployments: [{ class: 'md-0', bootstrap: { templateRef: { name: 'capi-scs1-md-0-genw01' } }, infrastructure: { templateRef: { name: 'capi-scs1-md-0-genw03' } } }] };
    l.previousGeneration = { 'openstackmachinetemplate/capi-scs1-md-0-genw03': 'capi-scs1-md-0-genw02', 'openstackmachinetemplate/capi-scs1-md-0-genw02': 'capi-scs1-md-0-genw01' };
    expect(classCleanup(l, 'scs1').delete).toEqual([
      'clusterclass.v1beta2.cluster.x-k8s.io/scs1', 'openstackclustertemplate/scs1-geno01', 'kubeadmcontrolplanetemplate/scs1-control-plane-genc01',
      'openstackmachinetemplate/capi-scs1-control-plane-genc01', 'kubeadmconfigtemplate/capi-scs1-md-0-genw01', 'openstackmachinetemplate/capi-scs1-md-0-genw03',
      'openstackmachinetemplate/capi-scs1-md-0-genw02', 'openstackmachinetemplate/capi-scs1-md-0-genw01',
    ]);
  });

  it('a class others use, or one not named after the cluster, stays (and says why)', () => {
    expect(classCleanup(live({ others: ['x/y'] }), 'scs1')).toEqual({ delete: [], keep: 'ClusterClass scs1 stays: x/y use it too' });
    expect(classCleanup(live(), 'other').keep).toMatch(/not this cluster's own class/);
  });
});

// Review 2026-11-27 N2: a class that patches the fields from variables (the Cluster Stacks class).
describe('planTopology on a class that patches flavor and image from variables', () => {
  const cpSel = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackMachineTemplate', matchResources: { controlPlane: true } };
  const mdSel = { ...cpSel, matchResources: { controlPlane: false, machineDeploymentClass: { names: ['md-0'] } } };
  const patched = () => clusterClass({
    variables: [
      { name: 'controlPlaneFlavor', schema: { openAPIV3Schema: { type: 'string', default: 'SCS-2V-4' } } },
      { name: 'workerFlavor', schema: { openAPIV3Schema: { type: 'string', default: 'SCS-4V-8' } } },
      { name: 'imageName', schema: { openAPIV3Schema: { type: 'string', default: 'ubuntu-capi-image' } } },
      { name: 'imageAddVersion', schema: { openAPIV3Schema: { type: 'boolean', default: true } } },
      { name: 'sshKeyName', schema: { openAPIV3Schema: { type: 'string', default: '' } } },
    ],
    patches: [
      { name: 'controlPlaneFlavor', definitions: [{ selector: cpSel, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/flavor', valueFrom: { variable: 'controlPlaneFlavor' } }] }] },
      { name: 'workerFlavor', definitions: [{ selector: mdSel, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/flavor', valueFrom: { variable: 'workerFlavor' } }] }] },
      { name: 'workerImage', definitions: [{ selector: mdSel, jsonPatches: [{ op: 'add', path: '/spec/template/spec/image', valueFrom: { template: 'filter:\n  name: {{ .imageName }}{{ if .imageAddVersion }}-{{ .builtin.machineDeployment.version }}{{ end }}\n' } }] }] },
    ],
  });
  const withVars = (vars: { name: string; value: unknown }[]) => {
    const c = cluster();
    (c.spec.topology as Record<string, unknown>).variables = vars;
    return c;
  };
  const mine = [{ name: 'controlPlaneFlavor', value: 'SCS-4V-8' }, { name: 'workerFlavor', value: 'small' }, { name: 'imageName', value: 'ubuntu-capi-image' }];

  it('a flavor change sets the Cluster\'s variables, writes no template generation and leaves the class alone', () => {
    const d = planTopology({ live: live({ cc: patched(), cluster: withVars([{ name: 'sshKeyName', value: 'user-key' }]) }), wanted: wanted({ cpFlavor: 'SCS-4V-8' }) });
    expect(lines(d)).toEqual([
      'unchanged OpenStackClusterTemplate/scs1-geno01', 'unchanged OpenStackMachineTemplate/capi-scs1-control-plane-genc01',
      'unchanged OpenStackMachineTemplate/capi-scs1-md-0-genw01', 'unchanged ClusterClass/scs1', 'update Cluster/scs1',
    ]);
    const objs = d.ok ? d.value.objects : [];
    expect(objs.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Cluster/scs1']);
    // Only kaas's variables: the user's sshKeyName is left to its owner by server-side apply.
    expect((objs[0].spec as { topology: { variables: unknown } }).topology.variables).toEqual(mine);
    expect(d.ok && d.value.diffs.find((x) => x.kind === 'Cluster')?.fields.map((x) => x.path)).toEqual([
      'spec.topology.variables[controlPlaneFlavor]', 'spec.topology.variables[workerFlavor]', 'spec.topology.variables[imageName]',
    ]);
    expect(d.reasons).toContain('control-plane machines: controller flavor: through variable controlPlaneFlavor (patch controlPlaneFlavor of ClusterClass scs1); its templates stay');
    expect(d.reasons).toContain('control-plane machines: controller image (kubernetes_version): through a new template generation (no patch of ClusterClass scs1 sets /spec/template/spec/image)');
  });

  it('a re-run with the variables in place plans nothing and applies nothing', () => {
    const d = planTopology({ live: live({ cc: patched(), cluster: withVars([...mine, { name: 'sshKeyName', value: 'user-key' }]) }), wanted: wanted({ cpFlavor: 'SCS-4V-8' }) });
    expect(d.ok && d.value.objects).toEqual([]);
    expect(lines(d)).toContain('unchanged Cluster/scs1');
  });

  it('a version change carries kaas\'s variables along (its whole intent), the image through imageName', () => {
    const d = planTopology({ live: live({ cc: patched(), cluster: withVars(mine) }), wanted: wanted({ cpFlavor: 'SCS-4V-8', version: 'v1.35.1', image: 'ubuntu-capi-image-v1.35.1' }) });
    const objs = d.ok ? d.value.objects : [];
    // The control plane's image has no patch: a new generation; the workers' goes through imageName, which stays.
    expect(objs.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['OpenStackMachineTemplate/capi-scs1-control-plane-genc01-kaas-gen02', 'ClusterClass/scs1', 'Cluster/scs1']);
    expect((objs[2].spec as { topology: { variables: unknown } }).topology.variables).toEqual(mine);
  });
});

// The Cluster Stacks class (openstack-scs2-1-34-v2, rendered by helm): its OpenStackClusterTemplate says
// apiServerLoadBalancer.enabled: false, a patch turns it on with provider ovn (the default) or amphora, and
// the allowed CIDRs go through a variable only with octavia-amphora (enabledIf).
describe('planTopology on a class whose patches make the kube-API load balancer (Cluster Stacks shape)', () => {
  const osctSel = { apiVersion: 'infrastructure.cluster.x-k8s.io/v1beta1', kind: 'OpenStackClusterTemplate', matchResources: { infrastructureCluster: true } };
  const csClass = () => clusterClass({
    variables: [
      { name: 'apiServerLoadBalancer', schema: { openAPIV3Schema: { type: 'string', default: 'octavia-ovn' } } },
      { name: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', schema: { openAPIV3Schema: { type: 'array', items: { type: 'string' } } } },
    ],
    patches: [
      { name: 'apiServerLoadBalancerOctaviaAmphora', enabledIf: '{{ eq .apiServerLoadBalancer "octavia-amphora" }}', definitions: [{ selector: osctSel, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/apiServerLoadBalancer/enabled', value: true }, { op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/provider', value: 'amphora' }] }] },
      { name: 'apiServerLoadBalancerOctaviaOVN', enabledIf: '{{ eq .apiServerLoadBalancer "octavia-ovn" }}', definitions: [{ selector: osctSel, jsonPatches: [{ op: 'replace', path: '/spec/template/spec/apiServerLoadBalancer/enabled', value: true }, { op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/provider', value: 'ovn' }] }] },
      { name: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', enabledIf: '{{ and .apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs (eq .apiServerLoadBalancer "octavia-amphora") }}', definitions: [{ selector: osctSel, jsonPatches: [{ op: 'add', path: '/spec/template/spec/apiServerLoadBalancer/allowedCIDRs', valueFrom: { variable: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs' } }] }] },
    ],
  });
  const csLive = (vars: { name: string; value: unknown }[] = []) => {
    const c = cluster();
    (c.spec.topology as Record<string, unknown>).variables = vars;
    const t = live({ cc: csClass(), cluster: c });
    const osctT = t.templates.find((x) => x.kind === 'OpenStackClusterTemplate')!;
    (osctT.live as unknown as { spec: { template: { spec: Record<string, unknown> } } }).spec.template.spec.apiServerLoadBalancer = { enabled: false };
    return t;
  };

  it('the class default (ovn): restrict_kubeapi is refused, not set through a variable the class ignores (the kube-API would stay open)', () => {
    const d = planTopology({ live: csLive(), wanted: wanted({ cidrs: ['10.0.0.0/8'] }), apiLb: { specProvider: 'ovn', id: 'lb-api', octaviaProvider: 'ovn' }, apiLbEnabled: true });
    expect(d.ok).toBe(false);
    expect(lines(d).join('\n')).toMatch(/restrict_kubeapi cannot be enforced on cluster scs1: its kube-API load balancer lb-api uses the Octavia provider ovn/);
    expect(d.reasons.join('\n')).toMatch(/restrict_kubeapi: through a new template generation \(no patch of ClusterClass scs1 that applies sets .*allowedCIDRs: patch apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs would set it only when/);
  });
  it('before the topology controller made the OpenStackCluster the template decides (enabled: false: nothing to restrict, said so)', () => {
    const d = planTopology({ live: csLive(), wanted: wanted({ cidrs: ['10.0.0.0/8'] }) });
    expect(d.ok).toBe(true);
    expect(d.reasons).toContain('ClusterClass scs1 builds no kube-API load balancer: restrict_kubeapi has nothing to restrict there');
  });
  it('with octavia-amphora on the Cluster: through the variable, no template generation, the class untouched', () => {
    const d = planTopology({ live: csLive([{ name: 'apiServerLoadBalancer', value: 'octavia-amphora' }]), wanted: wanted({ cidrs: ['10.0.0.0/8'] }), apiLb: { specProvider: 'amphora' }, apiLbEnabled: true });
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.value.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Cluster/scs1']);
    expect((d.value.objects[0].spec as { topology: { variables: unknown } }).topology.variables).toEqual([{ name: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', value: ['10.0.0.0/8'] }]);
  });
  it('opening again on amphora: the variable set to [] (the patch off), no template generation', () => {
    const d = planTopology({ live: csLive([{ name: 'apiServerLoadBalancer', value: 'octavia-amphora' }, { name: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', value: ['10.0.0.0/8'] }]), wanted: wanted(), apiLb: { specProvider: 'amphora' }, apiLbEnabled: true });
    if (!d.ok) throw new Error(d.refusals[0].message);
    expect(d.value.objects.map((o) => `${o.kind}/${o.metadata.name}`)).toEqual(['Cluster/scs1']);
    expect((d.value.objects[0].spec as { topology: { variables: unknown } }).topology.variables).toEqual([{ name: 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', value: [] }]);
  });
  it('open and staying open on the class default: nothing planned, no note about restrict_kubeapi', () => {
    const d = planTopology({ live: csLive(), wanted: wanted(), apiLb: { specProvider: 'ovn' }, apiLbEnabled: true });
    expect(d.ok && d.value.objects).toEqual([]);
    expect(d.reasons.join('\n')).not.toMatch(/restrict_kubeapi/);
  });
});
