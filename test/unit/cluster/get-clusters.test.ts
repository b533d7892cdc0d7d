import { readFileSync } from 'node:fs';
import { clusterRows, clusterTable, type LiveObject } from '../../../lib/cluster/read/cluster-list.js';
import { CAPI_CLUSTER, KCP_V1BETA2, MD_V1BETA2 } from '../../../lib/kube/cluster-api.js';
import { fakeTools, type FakeObject } from '../../fakes/fake-tools.js';
import { runKaas } from '../../support/cli.js';
import { flowScenario, R } from './scenario.js';

/**
 * Issue 33 §4 (newcomer m11): `kaas get clusters` lists the environment's clusters with their live
 * phase and versions. Against the stateful fake management cluster (test/fakes/README.md, held to
 * CAPI by test/testbed/fake-conformance.test.ts): create-cluster builds demo there, then the built CLI
 * reads it in one kubectl call.
 */
const T = 600_000;
const LIVE = `${CAPI_CLUSTER},${KCP_V1BETA2},${MD_V1BETA2}`;

describe('kaas get clusters against the fake management cluster', () => {
  const flow = flowScenario();
  const getClusters = (extra: string[]) =>
    runKaas(['get', 'clusters', '--env', 'example', '--mgmt-kubeconfig', flow.sb.mgmt, ...extra], { env: { ...flow.mgmt.env, HOME: flow.sb.home } });

  it('demo as create-cluster left it, prod not created; -A adds a Cluster the file does not name', async () => {
    await flow.run();
    // Cluster API sets the phase (the fake models none): the one of the recorded Provisioned Cluster.
    const recorded = JSON.parse(readFileSync(`${R}/get-cluster-provisioned.json`, 'utf8')) as FakeObject;
    flow.mgmt.seed([{ ...flow.obj('Cluster', 'demo')!, status: recorded.status }, { ...recorded, metadata: { name: 'legacy', namespace: 'default' } }]);
    const before = flow.mgmt.calls().length;

    const r = getClusters(['-o', 'json']);
    // Only the warnings about the fake's own variables, each once (not once per cluster section).
    const lines = r.stderr.split('\n').filter(Boolean);
    expect(lines.filter((l) => !/^warning: environment variable KAAS_FAKE_\w+ is not a kaas setting$/.test(l))).toEqual([]);
    expect(new Set(lines).size).toBe(lines.length);
    expect(r.code).toBe(0);
    const kcp = flow.obj('KubeadmControlPlane', 'demo-control-plane')!;
    expect(JSON.parse(r.stdout)).toEqual({
      env: 'example',
      file: expect.stringMatching(/settings\/example\.yaml$/),
      clusters: [
        {
          cluster: 'demo', namespace: 'demo', inEnvironment: true, live: true, phase: 'Provisioned',
          controlPlane: { versions: ['v1.33.4'], ready: 1, replicas: 1 },
          workers: { versions: ['v1.33.4'], ready: 2, replicas: 2 },
        },
        { cluster: 'prod', namespace: 'prod', inEnvironment: true, live: false },
      ],
    });
    expect(kcp.status?.version).toBe('v1.33.4');
    // One kubectl call, reads only.
    expect(flow.mgmt.calls().slice(before).map((c) => c.argv)).toEqual([['--kubeconfig', flow.sb.mgmt, 'get', LIVE, '--all-namespaces', '-o', 'json']]);

    const all = getClusters(['-A']);
    expect(all.code).toBe(0);
    expect(all.stdout.split('\n').map((l) => l.split(/\s{3,}/))).toEqual([
      ['NAME', 'NAMESPACE', 'PHASE', 'CONTROL PLANE', 'WORKERS'],
      ['demo', 'demo', 'Provisioned', 'v1.33.4 1/1', 'v1.33.4 2/2'],
      ['prod', 'prod', 'not created', '-', '-'],
      ['legacy (not in the environment file)', 'default', 'Provisioned', '-', '-'],
      [''],
    ]);
  }, T);
});

describe('kaas get clusters when the management cluster does not answer', () => {
  it('exit 1, kubectl\'s words and which flag or setting names the management cluster', () => {
    const fake = fakeTools([{ tool: 'kubectl', argv: ['--kubeconfig', '/nonexistent/mgmt.yaml', 'get', LIVE, '--all-namespaces', '-o', 'json'], response: { stderrFile: 'test/fakes/recorded/kubectl-v1.32/error-connection-refused.txt', exitCode: 1 } }]);
    try {
      const r = runKaas(['get', 'clusters', '--env', 'example', '--kubeconfig', '/nonexistent/mgmt.yaml'], { env: fake.env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(/connection refused/);
      expect(r.stderr).toMatch(/^hint: check the management cluster kubeconfig \(--mgmt-kubeconfig, or mgmt_kubeconfig in the settings\)/m);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);
});

const cluster = (name: string, ns: string, phase?: string, extra: Partial<LiveObject['spec']> = {}): LiveObject => ({
  kind: 'Cluster', metadata: { name, namespace: ns }, spec: { controlPlaneRef: { name: `${name}-control-plane` }, ...extra }, ...(phase ? { status: { phase } } : {}),
});
const kcp = (cl: string, ns: string, spec: string, status?: string, ready = 1): LiveObject => ({
  kind: 'KubeadmControlPlane', metadata: { name: `${cl}-control-plane`, namespace: ns }, spec: { replicas: 3, version: spec }, status: { readyReplicas: ready, ...(status ? { version: status } : {}) },
});
const md = (cl: string, ns: string, name: string, version: string, replicas: number): LiveObject => ({
  kind: 'MachineDeployment', metadata: { name, namespace: ns }, spec: { clusterName: cl, replicas, template: { spec: { version } } }, status: { readyReplicas: replicas },
});

describe('clusterRows: which live objects belong to which section', () => {
  it.each([
    ['the namespace setting wins over a same-name Cluster elsewhere', [{ cluster: 'a', namespaceSetting: 'x' }], [cluster('a', 'y', 'Provisioned')], [{ cluster: 'a', namespace: 'x', live: false }]],
    ['without the setting: the only namespace holding it', [{ cluster: 'a', namespaceSetting: '' }], [cluster('a', 'default', 'Provisioned')], [{ cluster: 'a', namespace: 'default', live: true, phase: 'Provisioned' }]],
    ['in two namespaces, no setting: the cluster name\'s', [{ cluster: 'a', namespaceSetting: '' }], [cluster('a', 'b'), cluster('a', 'a', 'Provisioning')], [{ cluster: 'a', namespace: 'a', live: true, phase: 'Provisioning' }]],
    ['no phase yet: live without one', [{ cluster: 'a', namespaceSetting: '' }], [cluster('a', 'a')], [{ cluster: 'a', namespace: 'a', live: true }]],
  ])('%s', (_what, sections, live, want) => {
    expect(clusterRows(sections, live).map(({ cluster: c, namespace, live: l, phase }) => ({ cluster: c, namespace, live: l, ...(phase ? { phase } : {}) }))).toEqual(want);
  });

  it.each([
    ['the control plane: status.version (oldest machine) over spec.version', [kcp('a', 'a', 'v1.34.1', 'v1.33.4', 2)], { versions: ['v1.33.4'], ready: 2, replicas: 3 }, undefined],
    ['before its first machine: spec.version', [kcp('a', 'a', 'v1.34.1', undefined, 0)], { versions: ['v1.34.1'], ready: 0, replicas: 3 }, undefined],
    ['workers: every MachineDeployment of the cluster, summed', [md('a', 'a', 'a-md-0', 'v1.33.4', 2), md('a', 'a', 'a-md-1', 'v1.34.1', 1), md('b', 'a', 'b-md-0', 'v1.30.0', 5)], undefined, { versions: ['v1.33.4', 'v1.34.1'], ready: 3, replicas: 3 }],
    ['objects of another namespace are not its own', [kcp('a', 'other', 'v1.34.1'), md('a', 'other', 'a-md-0', 'v1.33.4', 2)], undefined, undefined],
  ])('%s', (_what, objects, controlPlane, workers) => {
    const [row] = clusterRows([{ cluster: 'a', namespaceSetting: '' }], [cluster('a', 'a', 'Provisioned'), ...objects]);
    expect(row.controlPlane).toEqual(controlPlane);
    expect(row.workers).toEqual(workers);
  });

  it('a ClusterClass cluster without a KubeadmControlPlane: the topology version', () => {
    const [row] = clusterRows([{ cluster: 'a', namespaceSetting: '' }], [cluster('a', 'a', 'Provisioned', { topology: { version: 'v1.33.4' }, controlPlaneRef: {} })]);
    expect(clusterTable([row]).split('\n')[1].split(/\s{3,}/)).toEqual(['a', 'a', 'Provisioned', 'v1.33.4 0/0', '-']);
  });
});
