import { assessManagementCluster, ORC_VERSION, type ManagementFacts } from '../../../lib/cluster/preflight.js';
import { machineWaits } from '../../../lib/cluster/timeouts.js';

const READY: ManagementFacts = {
  served: ['bootstrap.cluster.x-k8s.io/v1beta1', 'bootstrap.cluster.x-k8s.io/v1beta2', 'cluster.x-k8s.io/v1beta1', 'cluster.x-k8s.io/v1beta2', 'controlplane.cluster.x-k8s.io/v1beta1',
    'controlplane.cluster.x-k8s.io/v1beta2', 'infrastructure.cluster.x-k8s.io/v1beta1', 'openstack.k-orc.cloud/v1alpha1'],
  capoCrd: ['v1beta1'],
  orcCrd: ['v1alpha1'],
  deployments: [
    ['capi-system', 'capi-controller-manager'], ['capi-kubeadm-bootstrap-system', 'capi-kubeadm-bootstrap-controller-manager'],
    ['capi-kubeadm-control-plane-system', 'capi-kubeadm-control-plane-controller-manager'], ['capo-system', 'capo-controller-manager'], ['orc-system', 'orc-controller-manager'],
  ].map(([namespace, name]) => ({ namespace, name, available: true })),
};

const without = (name: string) => ({ ...READY, deployments: READY.deployments!.filter((d) => d.name !== name) });
const ORC_FIX = `kubectl apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`;

describe('assessManagementCluster: what CAPO v0.14 needs on the management cluster', () => {
  it('a ready cluster passes every check', () => {
    const v = assessManagementCluster(READY);
    expect(v.problems).toEqual([]);
    expect(v.ok.map((c) => c.name)).toEqual(['Cluster API', 'CAPO', 'ORC', 'controllers']);
    expect(v.capoVersions).toEqual(['v1beta1']);
  });

  it.each<[string, ManagementFacts, string[]]>([
    ['no ORC CRD (CAPO ≥ v0.12 needs ORC)', { ...READY, orcCrd: undefined }, [`ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — ${ORC_FIX}`]],
    ['ORC controller missing', without('orc-controller-manager'), [`ORC (openstack-resource-controller): no Deployment orc-controller-manager — ${ORC_FIX}`]],
    ['CAPO too old (v1alpha7 only)', { ...READY, capoCrd: ['v1alpha6', 'v1alpha7'] }, ['CAPO serves OpenStackCluster v1alpha6, v1alpha7; kaas renders v1beta1 (CAPO ≥ v0.10, v0.14 recommended) — clusterctl upgrade plan (then clusterctl upgrade apply as it says)']],
    ['CAPO controller not available', { ...READY, deployments: READY.deployments!.map((d) => ({ ...d, available: d.name !== 'capo-controller-manager' })) },
      ['CAPO (cluster-api-provider-openstack): Deployment capo-system/capo-controller-manager is not available — kubectl -n capo-system describe deployment capo-controller-manager; kubectl -n capo-system logs deployment/capo-controller-manager']],
    ['kubeadm bootstrap provider missing', { ...without('capi-kubeadm-bootstrap-controller-manager'), served: READY.served.filter((g) => !g.startsWith('bootstrap.')) },
      ['Cluster API kubeadm bootstrap provider: bootstrap.cluster.x-k8s.io/v1beta2 is not served — clusterctl init --infrastructure openstack',
        'Cluster API kubeadm bootstrap provider: no Deployment capi-kubeadm-bootstrap-controller-manager — clusterctl init --infrastructure openstack']],
  ])('%s', (_n, facts, problems) => {
    expect(assessManagementCluster(facts).problems).toEqual(problems);
  });

  it('Cluster API older than v1.11 (v1beta1 only): each group says it lacks v1beta2, with the clusterctl upgrade line', () => {
    const v = assessManagementCluster({ ...READY, served: READY.served.filter((g) => !g.endsWith('/v1beta2')) }, { kubeconfig: '/m/kc' });
    const upgrade = 'clusterctl upgrade apply --core cluster-api:v1.14.2 --bootstrap kubeadm:v1.14.2 --control-plane kubeadm:v1.14.2 --kubeconfig /m/kc';
    expect(v.problems).toEqual([
      `Cluster API core serves cluster.x-k8s.io/v1beta1 but not cluster.x-k8s.io/v1beta2, which kaas renders (kaas supports Cluster API v1.12–v1.14; from below v1.11 upgrade at most three minors per step, CAPO and ORC in between: docs/guides/management-cluster-versions.md) — ${upgrade}`,
      `Cluster API kubeadm bootstrap provider serves bootstrap.cluster.x-k8s.io/v1beta1 but not bootstrap.cluster.x-k8s.io/v1beta2, which kaas renders (kaas supports Cluster API v1.12–v1.14; from below v1.11 upgrade at most three minors per step, CAPO and ORC in between: docs/guides/management-cluster-versions.md) — ${upgrade}`,
      `Cluster API kubeadm control-plane provider serves controlplane.cluster.x-k8s.io/v1beta1 but not controlplane.cluster.x-k8s.io/v1beta2, which kaas renders (kaas supports Cluster API v1.12–v1.14; from below v1.11 upgrade at most three minors per step, CAPO and ORC in between: docs/guides/management-cluster-versions.md) — ${upgrade}`,
    ]);
    expect(v.ok.map((c) => c.name)).not.toContain('Cluster API');
  });

  it('names the management kubeconfig and context in every fix', () => {
    const v = assessManagementCluster({ ...READY, orcCrd: undefined, capoCrd: undefined }, { kubeconfig: '/m/kc', context: 'mgmt' });
    expect(v.problems).toEqual([
      'CAPO (cluster-api-provider-openstack) is not installed (no OpenStackCluster CRD) — clusterctl init --infrastructure openstack --kubeconfig /m/kc --kubeconfig-context mgmt',
      `ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — kubectl --kubeconfig /m/kc --context mgmt apply --server-side -f https://github.com/k-orc/openstack-resource-controller/releases/download/${ORC_VERSION}/install.yaml`,
    ]);
  });

  it('Deployments that cannot be listed are a skipped check, not a failure', () => {
    const v = assessManagementCluster({ ...READY, deployments: undefined, deploymentsProblem: 'cannot list Deployments: forbidden' });
    expect(v.problems).toEqual([]);
    expect(v.skipped).toEqual([{ name: 'controllers', detail: 'cannot list Deployments: forbidden' }]);
  });
});

describe('assessProviderVersions: the provider versions fit each other (CAPO README compatibility table)', () => {
  const withVersions = (capi?: string, capo?: string): ManagementFacts => ({
    ...READY,
    deployments: READY.deployments!.map((d) => ({ ...d, version: d.name === 'capi-controller-manager' ? capi : d.name === 'capo-controller-manager' ? capo : undefined })),
  });
  const UPGRADE = 'clusterctl upgrade apply --core cluster-api:v1.14.2 --bootstrap kubeadm:v1.14.2 --control-plane kubeadm:v1.14.2';
  const RANGE = '(supported: Cluster API v1.12–v1.14 with CAPO v0.14.x)';
  it.each<[string, ManagementFacts, string[], string | undefined]>([
    ['CAPI v1.12 + CAPO v0.14: accepted, its end of life and the upgrade named', withVersions('v1.12.1', 'v0.14.0'), [],
      `Cluster API v1.12.1, CAPO v0.14.0 ${RANGE}; Cluster API v1.12 reaches end of life on 2026-12-08 (when Cluster API v1.15.0 ships): upgrade to v1.14.2 with ${UPGRADE}`],
    ['CAPI v1.13 + CAPO v0.14.7: accepted', withVersions('v1.13.6', 'v0.14.7'), [], `Cluster API v1.13.6, CAPO v0.14.7 ${RANGE}`],
    ['CAPI v1.14 + CAPO v0.14.7: accepted', withVersions('v1.14.2', 'v0.14.7'), [], `Cluster API v1.14.2, CAPO v0.14.7 ${RANGE}`],
    ['CAPI v1.11 + CAPO v0.14: refused, with the clusterctl line', withVersions('v1.11.4', 'v0.14.0'),
      [`Cluster API v1.11.4 is older than kaas supports (Cluster API v1.12–v1.14 with CAPO v0.14.x) — upgrade in this order: (1) Cluster API to v1.12.x: ${UPGRADE.replaceAll('v1.14.2', 'v1.12.x')} (x = the newest patch release; clusterctl upgrade plan lists it) — CAPO v0.14 needs Cluster API ≥ v1.12; Cluster API moves to the v1beta2 contract here; (2) Cluster API to v1.14.2: ${UPGRADE} — the current Cluster API release`], undefined],
    ['CAPI v1.15 (newer than tested): refused', withVersions('v1.15.0', 'v0.14.7'),
      ['Cluster API v1.15.0 with CAPO v0.14.7 is newer than this kaas supports (Cluster API v1.12–v1.14 with CAPO v0.14.x); kaas renders and reads the Cluster API and CAPO objects only in the versions it is tested with — use a kaas release that lists v1.15 as supported (docs/guides/management-cluster-versions.md)'], undefined],
    ['CAPO v0.12 without ORC: ORC is needed, and CAPO v0.12 is refused', { ...withVersions('v1.12.5', 'v0.12.4'), orcCrd: undefined },
      [`CAPO v0.12.4 is older than kaas supports (Cluster API v1.12–v1.14 with CAPO v0.14.x) — upgrade in this order: (1) CAPO to v0.14.7: clusterctl upgrade apply --infrastructure openstack:v0.14.7 — CAPO v0.14 needs Cluster API ≥ v1.12; Cluster API moves to the v1beta2 contract here; (2) Cluster API to v1.14.2: ${UPGRADE} — the current Cluster API release`,
        `ORC (openstack-resource-controller) is not installed (no images.openstack.k-orc.cloud CRD); CAPO ≥ v0.12 needs it — ${ORC_FIX}`], undefined],
  ])('%s', (_n, facts, problems, ok) => {
    const v = assessManagementCluster(facts);
    expect(v.problems).toEqual(problems);
    expect(v.ok.find((c) => c.name === 'provider versions')?.detail).toBe(ok);
  });

  it('images without a version tag: the version check is skipped, not failed', () => {
    expect(assessManagementCluster(READY).skipped).toEqual([{ name: 'provider versions', detail: 'not checked: the image of capi-controller-manager carries no version tag' }]);
  });
});

describe('machineWaits: instance_create_timeout, machine counts and the rollout surge size the machine waits', () => {
  it.each([
    // instance_create_timeout, control plane, workers, maxSurge → first CP node, ceiling, no-progress limit (minutes)
    [5, 1, 3, 1, 25, 60, 15],
    [5, 3, 3, 1, 25, 90, 15],
    [5, 1, 20, 1, 25, 315, 15],
    [5, 1, 20, 4, 25, 90, 15],
    [30, 3, 0, 1, 50, 120, 40],
  ])('instance_create_timeout %i min, %i control-plane and %i workers, maxSurge %i → control plane %i min, all machines at most %i min, %i min without progress', (t, cp, workers, surge, controlPlaneMin, machinesMin, stallMin) => {
    const w = machineWaits(t, { controllers: cp, workers, maxSurge: surge });
    expect(w.controlPlaneSec).toBe(controlPlaneMin * 60);
    expect(w.machinesSec).toBe(machinesMin * 60);
    expect(w.stallSec).toBe(stallMin * 60);
    expect(w.reason).toContain(`instance_create_timeout ${t} min`);
  });

  it('defaults to the MachineDeployment rollout of CAPI: one worker at a time', () => {
    expect(machineWaits(5, { controllers: 1, workers: 3 }).machinesSec).toBe(60 * 60);
  });
});
