import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { routeFields, type PatchTarget, type WantedField } from '../../../lib/cluster/topology/class-patches.js';
import { REFERENCE_DIR } from '../../support/reference.js';

/**
 * The real Cluster Stacks class (reference/cluster-stacks/openstack-scs2-1-34-v2, scs2/cluster-class: a
 * Helm chart), rendered by the real helm (helm.sh/helm/v3 v3.22.0, test/testbed/build-helm.sh), fed to
 * routeFields: the variables kaas picks for each field it converges must be the ones the class's
 * patches read. helm is looked for in $KAAS_HELM, $KAAS_TESTBED_BIN, .kaas-test/helm-bin and
 * .kaas-test/testbed-bin-current; a missing helm fails the test with the command that builds it.
 */
const CHART = path.join(REFERENCE_DIR, 'cluster-stacks', 'openstack-scs2-1-34-v2', 'scs2', 'cluster-class');
const HELM_CANDIDATES = [
  process.env.KAAS_HELM,
  process.env.KAAS_TESTBED_BIN && path.join(process.env.KAAS_TESTBED_BIN, 'helm'),
  path.resolve('.kaas-test', 'helm-bin', 'helm'),
  path.resolve('.kaas-test', 'testbed-bin-current', 'helm'),
].filter((x): x is string => !!x);

function renderClass(): Record<string, unknown> {
  const helm = HELM_CANDIDATES.find((p) => existsSync(p));
  if (!helm) {
    throw new Error(`helm not found (looked at ${HELM_CANDIDATES.join(', ')}): build it with \`bash test/testbed/build-helm.sh\` (or \`test/testbed/testbed.sh build\`), or set KAAS_HELM`);
  }
  if (!existsSync(CHART)) throw new Error(`the Cluster Stacks chart is not at ${CHART}: the test reads ../shared/reference (or KAAS_REFERENCE_DIR)`);
  const out = execFileSync(helm, ['template', 'scs2', CHART], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, HELM_CACHE_HOME: '/tmp/kaas-helm-cache', HELM_CONFIG_HOME: '/tmp/kaas-helm-config', HELM_DATA_HOME: '/tmp/kaas-helm-data' } });
  const docs = parseAllDocuments(out).map((d) => d.toJS() as { kind?: string }).filter((o) => o?.kind === 'ClusterClass');
  if (docs.length !== 1) throw new Error(`helm template rendered ${docs.length} ClusterClasses, expected 1`);
  return docs[0] as Record<string, unknown>;
}

const CP: PatchTarget = { role: 'controlPlane' };
const W: PatchTarget = { role: 'worker', class: 'default-worker' };
const OSMT = 'OpenStackMachineTemplate';
const f = (setting: string, target: PatchTarget, field: string, wanted: unknown, kind: WantedField['kind'] = OSMT): WantedField => ({ setting, target, kind, path: `/spec/template/spec/${field}`, wanted });

describe('the Cluster Stacks class rendered by helm: the variables kaas sets for it', () => {
  const cc = renderClass();

  it('the chart renders the class with its variables and patches (what the rest relies on)', () => {
    const spec = cc.spec as { variables: { name: string }[]; patches: { name: string }[] };
    expect((cc.metadata as { name: string }).name).toBe('scs2-v1');
    expect(spec.variables.map((v) => v.name)).toEqual(expect.arrayContaining(['controlPlaneFlavor', 'workerFlavor', 'controlPlaneRootDisk', 'workerRootDisk', 'imageName', 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs']));
  });

  it.each([
    ['controller flavor', f('controller_flavor', CP, 'flavor', 'SCS-4V-16'), 'controlPlaneFlavor', 'SCS-4V-16'],
    ['worker flavor', f('worker_flavor', W, 'flavor', 'SCS-8V-32'), 'workerFlavor', 'SCS-8V-32'],
    ['controller root disk (an integer variable; the patch template makes rootVolume.sizeGiB)', f('controller_root_disk', CP, 'rootVolume', { sizeGiB: 40 }), 'controlPlaneRootDisk', 40],
    ['worker root disk', f('worker_root_disk', W, 'rootVolume', { sizeGiB: 100 }), 'workerRootDisk', 100],
    ['control-plane image (imageAddVersion appends the version: taken off)', f('image', CP, 'image', { filter: { name: 'ubuntu-capi-image-v1.34.10' } }), 'imageName', 'ubuntu-capi-image'],
    ['worker image', f('image', W, 'image', { filter: { name: 'my-os-v1.34.10' } }), 'imageName', 'my-os'],
    ['restrict_kubeapi\'s allowed CIDRs', f('restrict_kubeapi', { role: 'infrastructureCluster' }, 'apiServerLoadBalancer/allowedCIDRs', ['203.0.113.0/24'], 'OpenStackClusterTemplate'), 'apiServerLoadBalancerOctaviaAmphoraAllowedCIDRs', ['203.0.113.0/24']],
  ])('%s → variable %s', (_n, field, name, value) => {
    const [r] = routeFields({ clusterClass: cc, version: 'v1.34.10', fields: [field] });
    expect(r.way === 'variable' ? [r.variable.name, r.variable.value] : r).toEqual([name, value]);
  });

  it('the allowed CIDRs patch applies only with amphora: the plan note says so', () => {
    const [r] = routeFields({ clusterClass: cc, version: 'v1.34.10', fields: [f('restrict_kubeapi', { role: 'infrastructureCluster' }, 'apiServerLoadBalancer/allowedCIDRs', ['203.0.113.0/24'], 'OpenStackClusterTemplate')] });
    expect(r.way === 'variable' && r.note).toContain('eq .apiServerLoadBalancer "octavia-amphora"');
  });

  it('a worker pool of a class the chart does not patch keeps the template generation', () => {
    const [r] = routeFields({ clusterClass: cc, version: 'v1.34.10', fields: [f('worker_flavor', { role: 'worker', class: 'gpu' }, 'flavor', 'x')] });
    expect(r.way).toBe('template');
  });
});
