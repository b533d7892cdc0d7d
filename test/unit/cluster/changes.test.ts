import { changedFields, classifyOpenStackCluster, classifyVersion, machineTemplateChanges } from '../../../lib/cluster/live/changes.js';
import { clusterNamespace, occmClusterName } from '../../../lib/plan/cluster-model.js';

/** A live OpenStackCluster as kaas renders it. */
const base = () => ({
  spec: {
    identityRef: { name: 'demo-cloud-config', cloudName: 'openstack' },
    apiServerLoadBalancer: { enabled: true },
    externalNetwork: { id: '5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa' },
    managedSubnets: [{ cidr: '10.8.0.0/20', dnsNameservers: ['5.1.66.255'] }],
    managedSecurityGroups: { allowAllInClusterTraffic: true },
    tags: ['kaas-cluster-demo'],
  },
});
type Spec = ReturnType<typeof base>['spec'] & Record<string, unknown>;
const withSpec = (f: (s: Spec) => void) => {
  const o = base();
  f(o.spec as Spec);
  return o;
};

describe('classifyOpenStackCluster: CAPO v0.14 ValidateUpdate, field by field', () => {
  it.each([
    ['nothing changed', base(), []],
    ['allowedCIDRs set while the LB stays', withSpec((s) => { s.apiServerLoadBalancer = { enabled: true, allowedCIDRs: ['203.0.113.0/24'] } as never; }), ['spec.apiServerLoadBalancer.allowedCIDRs']],
    ['identityRef (credentials Secret renamed)', withSpec((s) => { s.identityRef = { name: 'other', cloudName: 'openstack' }; }), ['spec.identityRef']],
    ['dnsNameservers of the same subnet', withSpec((s) => { s.managedSubnets = [{ cidr: '10.8.0.0/20', dnsNameservers: ['9.9.9.9'] }]; }), ['spec.managedSubnets']],
    ['security-group rules (OVN NodePorts)', withSpec((s) => { s.managedSecurityGroups = { allowAllInClusterTraffic: true, workerNodesSecurityGroupRules: [{ name: 'x' }] } as never; }), ['spec.managedSecurityGroups']],
    ['availability zones of the control plane', withSpec((s) => { s.controlPlaneAvailabilityZones = ['az1']; }), ['spec.controlPlaneAvailabilityZones']],
    ['unset vs empty list is no change', withSpec((s) => { s.apiServerLoadBalancer = { enabled: true, allowedCIDRs: [] } as never; }), []],
  ])('updates in place: %s', (_, wanted, paths) => {
    const d = classifyOpenStackCluster('demo', base(), wanted);
    expect(d.ok).toBe(true);
    expect(d.ok && d.value.map((c) => c.path)).toEqual(paths);
  });

  it.each([
    ['apiServerLoadBalancer.provider', withSpec((s) => { s.apiServerLoadBalancer = { enabled: true, provider: 'ovn' } as never; }), 'spec.apiServerLoadBalancer.provider', '(unset)', 'ovn', 'spec: Forbidden: cannot be modified'],
    ['removing the API load balancer', withSpec((s) => { s.apiServerLoadBalancer = { enabled: false }; }), 'spec.apiServerLoadBalancer.enabled', 'true', '(unset)', 'spec: Forbidden: cannot be modified'],
    ['disableAPIServerFloatingIP', withSpec((s) => { s.disableAPIServerFloatingIP = true; }), 'spec.disableAPIServerFloatingIP', '(unset)', 'true', 'spec: Forbidden: cannot be modified'],
    ['externalNetwork', withSpec((s) => { s.externalNetwork = { filter: { name: 'ext02' } } as never; }), 'spec.externalNetwork', '{"id":"5e89f304-8cb5-4e59-9ce4-a5aa9d92edaa"}', '{"filter":{"name":"ext02"}}', 'spec: Forbidden: cannot be modified'],
    ['subnet CIDR', withSpec((s) => { s.managedSubnets = [{ cidr: '10.9.0.0/20', dnsNameservers: ['5.1.66.255'] }]; }), 'spec.managedSubnets', '[{"cidr":"10.8.0.0/20"', '[{"cidr":"10.9.0.0/20"', 'managedSubnets: Forbidden: cannot change subnet CIDR from existing value to 10.9.0.0/20'],
    ['adding a subnet', withSpec((s) => { s.managedSubnets = [...s.managedSubnets, { cidr: '10.10.0.0/20', dnsNameservers: [] }]; }), 'spec.managedSubnets', '10.8.0.0/20', '10.10.0.0/20', 'managedSubnets: Forbidden: cannot add or remove subnets'],
    ['tags', withSpec((s) => { s.tags = ['other']; }), 'spec.tags', 'kaas-cluster-demo', 'other', 'spec: Forbidden: cannot be modified'],
    ['networkMTU', withSpec((s) => { s.networkMTU = 1400; }), 'spec.networkMTU', '(unset)', '1400', 'spec: Forbidden: cannot be modified'],
  ])('refuses: %s (naming the field, live and wanted values and the webhook text)', (_, wanted, path, live, want, webhook) => {
    const d = classifyOpenStackCluster('demo', base(), wanted);
    expect(d.ok).toBe(false);
    const r = !d.ok ? d.refusals[0] : undefined;
    expect(r?.message).toContain(`OpenStackCluster demo: ${path} cannot change on a running cluster`);
    expect(r?.message).toContain(live);
    expect(r?.message).toContain(want);
    expect(r?.message).toContain(webhook);
    expect(r?.hint).toMatch(/create a new cluster/);
  });

  it('allowedCIDRs together with adding the load balancer is refused (the LB must exist before and after)', () => {
    const live = withSpec((s) => { s.apiServerLoadBalancer = { enabled: false }; });
    const d = classifyOpenStackCluster('demo', live, withSpec((s) => { s.apiServerLoadBalancer = { enabled: true, allowedCIDRs: ['203.0.113.0/24'] } as never; }));
    expect(!d.ok && d.refusals.map((r) => r.message.split(' cannot')[0])).toEqual([
      'OpenStackCluster demo: spec.apiServerLoadBalancer.enabled',
      'OpenStackCluster demo: spec.apiServerLoadBalancer.allowedCIDRs',
    ]);
  });
});

describe('changedFields: what the real server adds or reads back differently is no change (seen on the testbed)', () => {
  it.each([
    ['a default the server filled in (identityRef.type)', { identityRef: { name: 's', cloudName: 'c', type: 'Secret' } }, { identityRef: { name: 's', cloudName: 'c' } }, []],
    ['a v1beta2 reference as kaas renders it and CAPI reads back a v1beta1 one it converted', { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' } },
      { controlPlaneRef: { apiGroup: 'controlplane.cluster.x-k8s.io', kind: 'KubeadmControlPlane', name: 'cp' } }, []],
    ['a reference to another API group is a change', { infrastructureRef: { apiGroup: 'infrastructure.cluster.x-k8s.io', kind: 'OpenStackCluster', name: 'c' } },
      { infrastructureRef: { apiGroup: 'infrastructure.example.org', kind: 'OpenStackCluster', name: 'c' } }, ['spec.infrastructureRef.apiGroup']],
    ['extra args converted from a v1beta1 map (sorted by name) equal the rendered list', { extraArgs: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] },
      { extraArgs: [{ name: 'a', value: '1' }, { name: 'b', value: '2' }] }, []],
    ['an extra arg value that differs changes the list', { extraArgs: [{ name: 'a', value: '1' }] }, { extraArgs: [{ name: 'a', value: '2' }] }, ['spec.extraArgs']],
    ['a value kaas sets that differs', { identityRef: { name: 's', type: 'Secret' } }, { identityRef: { name: 't' } }, ['spec.identityRef.name']],
  ])('%s', (_, live, wanted, paths) => {
    expect(changedFields(live, wanted, 'spec').map((c) => c.path)).toEqual(paths);
  });

  it('classifyOpenStackCluster: the live identityRef with its defaulted type is unchanged', () => {
    const live = withSpec((s) => { s.identityRef = { ...s.identityRef, type: 'Secret' } as never; });
    const d = classifyOpenStackCluster('demo', live, base());
    expect(d.ok && d.value).toEqual([]);
  });
});

describe('machineTemplateChanges: only the fields kaas sets count', () => {
  const live = { flavor: 'SCS-2V-4-20s', image: { filter: { name: 'ubuntu-capi-image-v1.33.4' } }, securityGroups: [{ filter: { name: 'capi-allow-ssh' } }] };
  it.each([
    ['same flavor and image, SCS extras live', { flavor: 'SCS-2V-4-20s', image: { filter: { name: 'ubuntu-capi-image-v1.33.4' } } }, []],
    ['flavor', { flavor: 'SCS-4V-8', image: { filter: { name: 'ubuntu-capi-image-v1.33.4' } } }, ['spec.template.spec.flavor']],
    ['image', { flavor: 'SCS-2V-4-20s', image: { filter: { name: 'ubuntu-capi-image-v1.34.1' } } }, ['spec.template.spec.image.filter.name']],
    ['root volume added', { flavor: 'SCS-2V-4-20s', image: { filter: { name: 'ubuntu-capi-image-v1.33.4' } }, rootVolume: { sizeGiB: 25 } }, ['spec.template.spec.rootVolume.sizeGiB']],
    ['server group', { flavor: 'SCS-2V-4-20s', image: { filter: { name: 'ubuntu-capi-image-v1.33.4' } }, serverGroup: { filter: { name: 'capi-demo-worker' } } }, ['spec.template.spec.serverGroup.filter.name']],
  ])('%s', (_, wanted, paths) => {
    expect(machineTemplateChanges(live, wanted).map((c) => c.path)).toEqual(paths);
  });
});

describe('classifyVersion: one minor at a time, never down', () => {
  it.each([
    ['v1.33.4', 'v1.33.4', 'unchanged'],
    ['v1.33.4', 'v1.33.6', 'upgrade'],
    ['v1.33.4', 'v1.34.1', 'upgrade'],
    ['v1.33.4', 'v1.35.0', /skips a minor version/],
    ['v1.34.1', 'v1.33.4', /cannot be downgraded/],
    ['v1.33.6', 'v1.33.4', /cannot be downgraded/],
  ])('%s → %s: %s', (live, wanted, want) => {
    const d = classifyVersion('KubeadmControlPlane demo-control-plane', live, wanted);
    if (typeof want === 'string') expect(d.ok && d.value).toBe(want);
    else expect(!d.ok && d.refusals[0].message).toMatch(want);
  });
});

describe('namespace and OCCM cluster-name: unique per cloud project', () => {
  it.each([
    ['', 'demo', undefined, 'demo', 'demo'],
    ['', 'demo', 'default', 'default', 'demo'], // made before kaas had namespaces: its LBs keep their names
    ['team-a', 'demo', undefined, 'team-a', 'team-a-demo'],
    ['team-b', 'demo', undefined, 'team-b', 'team-b-demo'],
  ])('namespace setting %j, cluster %s, found in %s → namespace %s, OCCM --cluster-name %s', (setting, cluster, found, ns, occm) => {
    const namespace = clusterNamespace(setting, cluster, found);
    expect(namespace).toBe(ns);
    expect(occmClusterName(namespace, cluster)).toBe(occm);
  });
});
