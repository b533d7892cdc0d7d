import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { createCluster } from '../../../lib/cluster/create/create.js';
import { deleteCluster } from '../../../lib/cluster/delete/delete.js';
import { legacyPaths } from '../../../lib/state/legacy-state.js';
import { appliedDir, localKey, recordedKubeconfigPath } from '../../../lib/state/local-state.js';
import { recordApplied } from '../../../lib/ingress/applied.js';
import { runApplyIngress } from '../../../lib/ingress/apply-ingress.js';
import type { IngressCloud } from '../../../lib/ingress/cloud.js';
import { createKubectl } from '../../../lib/kube/kubectl.js';
import { memoryLogger } from '../../../lib/log.js';
import { fakeManagementCluster, fakeRunner, type FakeManagementCluster } from '../../fakes/fake-tools.js';
import { tempDir } from '../../support/cli.js';
import { fakeCloud } from './fake-cloud.js';
import { fakeDeps, runOptions, sandbox } from './scenario.js';

/** Each fake tool call starts a node process: give the flows time on a loaded machine. */
const T = 600_000;

/**
 * Issue 31 §1 (newcomer B2, m12): staging.yaml and prod.yaml both have a cluster demo, in namespaces
 * staging-demo and prod-demo, each environment with its own management cluster (kaas refuses a
 * second Cluster demo on one management cluster, cluster-namespace.ts; Cluster API itself holds both:
 * the testbed's edge-envs scenario shows the one-management-cluster case on real apiservers). Before, both used ~/.kube/kaas/demo.yaml,
 * ~/.kube/kaas/demo/applied/ and the context demo-admin@demo, and delete-cluster demo --env staging
 * deleted every LoadBalancer Service and PVC through whatever that file reached.
 */
describe('two environments with a cluster of the same name', () => {
  let sb: ReturnType<typeof sandbox>;
  let mgmt: FakeManagementCluster;
  let prodMgmt: FakeManagementCluster;
  let settingsDir: string;
  beforeEach(() => {
    sb = sandbox();
    mgmt = fakeManagementCluster(sb.mgmt);
    // prod's management cluster, whose Cluster gets another floating IP (203.0.113.60).
    prodMgmt = fakeManagementCluster(`${sb.mgmt}.prod`, { firstEndpoint: 60 });
    settingsDir = tempDir('kaas-settings-');
    const example = readFileSync('settings/example.yaml', 'utf8');
    for (const env of ['staging', 'prod']) writeFileSync(path.join(settingsDir, `${env}.yaml`), example.replace(/^ {2}demo:\n/m, `  demo:\n    namespace: ${env}-demo\n`));
  });
  afterEach(() => {
    mgmt.cleanup();
    prodMgmt.cleanup();
  });

  const opts = (env: string) => ({ ...runOptions(sb), env, settingsDir, sets: [`mgmt_kubeconfig=${env === 'prod' ? `${sb.mgmt}.prod` : sb.mgmt}`] });
  const key = (env: string) => localKey(sb.home, env, `${env}-demo`, 'demo');
  const server = (file: string) => (YAML.parse(readFileSync(file, 'utf8')) as { clusters: { cluster: { server: string } }[] }).clusters[0].cluster.server;
  const lbService = { apiVersion: 'v1', kind: 'Service', metadata: { name: 'web', namespace: 'app' }, spec: { type: 'LoadBalancer' } };
  const pvc = { apiVersion: 'v1', kind: 'PersistentVolumeClaim', metadata: { name: 'data-0', namespace: 'app' }, spec: {} };

  it('get their own kubeconfig, records and context; delete-cluster of staging never reaches prod', async () => {
    await createCluster(opts('staging'), fakeDeps(mgmt, fakeCloud()));
    await createCluster(opts('prod'), fakeDeps(prodMgmt, fakeCloud()));
    const staging = recordedKubeconfigPath(key('staging'));
    const prod = recordedKubeconfigPath(key('prod'));
    expect(staging).toBe(path.join(sb.home, '.kube', 'kaas', 'env.staging', 'staging-demo', 'demo.yaml'));
    expect(prod).toBe(path.join(sb.home, '.kube', 'kaas', 'env.prod', 'prod-demo', 'demo.yaml'));
    expect(server(staging)).not.toBe(server(prod));
    const contexts = () => (YAML.parse(readFileSync(path.join(sb.home, '.kube', 'config'), 'utf8')) as { contexts: { name: string }[] }).contexts.map((c) => c.name).sort();
    expect(contexts()).toEqual(['prod/prod-demo/demo-admin@demo', 'staging/staging-demo/demo-admin@demo']);
    recordApplied(key('staging'), 'ingress-nginx', '---\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n');
    recordApplied(key('prod'), 'ingress-nginx', '---\nkind: Namespace\nmetadata:\n  name: ingress-nginx\n');
    // prod runs a LoadBalancer Service with a volume.
    prodMgmt.seed([lbService, pvc], prod);
    const before = mgmt.calls().length;

    await deleteCluster(opts('staging'), fakeDeps(mgmt, fakeCloud()));
    const argv = mgmt.calls().slice(before).map((c) => c.argv);
    expect(argv.filter((a) => a.includes(prod))).toEqual([]);
    // Staging's own workload cluster was cleaned up, through staging's file.
    expect(argv.filter((a) => a[1] === staging && a[2] === 'delete').map((a) => a.slice(3, 5).join(' '))).toEqual(['service ingress-nginx-controller', '-f -']);
    const state = JSON.parse(readFileSync(prodMgmt.env.KAAS_FAKE_STATE, 'utf8')) as { clusters: Record<string, { objects: Record<string, unknown> }> };
    expect(Object.keys(state.clusters[prod].objects)).toEqual(expect.arrayContaining(['Service/app/web', 'PersistentVolumeClaim/app/data-0']));
    expect(existsSync(staging)).toBe(false);
    expect(existsSync(prod)).toBe(true);
    expect(existsSync(path.join(appliedDir(key('prod')), 'ingress-nginx.yaml'))).toBe(true);
    expect(contexts()).toEqual(['prod/prod-demo/demo-admin@demo']);
    expect(Object.keys(mgmt.objects()).filter((k) => k.startsWith('Cluster/'))).toEqual([]);
    expect(Object.keys(prodMgmt.objects()).filter((k) => k.startsWith('Cluster/'))).toEqual(['Cluster/prod-demo/demo']);
  }, T);

  it('prod\'s kubeconfig is refused for staging (exit 2, both addresses named), before anything is applied; prod\'s legacy file is left alone', async () => {
    await createCluster({ ...opts('staging'), mergeKubeconfig: false }, fakeDeps(mgmt, fakeCloud()));
    await createCluster({ ...opts('prod'), mergeKubeconfig: false }, fakeDeps(prodMgmt, fakeCloud()));
    // --no-merge-kubeconfig: the user's kubeconfig is not written at all.
    expect(existsSync(path.join(sb.home, '.kube', 'config'))).toBe(false);
    const prod = recordedKubeconfigPath(key('prod'));
    const stagingServer = server(recordedKubeconfigPath(key('staging')));
    const logger = memoryLogger();
    const deps = { logger, runner: fakeRunner(mgmt), kubectlFor: (t: { kubeconfig?: string; context?: string }) => createKubectl(fakeRunner(mgmt), t), cloud: { credentials: () => ({ problem: 'none in tests' }), capabilities: () => Promise.reject(new Error('not asked in tests')) } as unknown as IngressCloud };
    const before = mgmt.calls().length;
    const edge = { cluster: 'demo', env: 'staging', settingsDir, environ: {}, cwd: process.cwd(), home: sb.home, sets: [`mgmt_kubeconfig=${sb.mgmt}`] };
    await expect(runApplyIngress({ ...edge, kubeconfig: prod }, deps)).rejects.toMatchObject({
      exitCode: 2,
      message: expect.stringMatching(new RegExp(`${prod} is not Cluster staging-demo/demo's: it reaches ${server(prod).replace(/\./g, '\\.')}, but Cluster staging-demo/demo is at ${stagingServer.replace('https://', '').replace(/\./g, '\\.')}`)),
      hint: expect.stringContaining('kaas get kubeconfig demo --env staging'),
    });
    expect(mgmt.calls().slice(before).filter((c) => c.argv.includes(prod))).toEqual([]);

    // kaas before per-environment state left prod's kubeconfig at ~/.kube/kaas/demo.yaml.
    const legacy = legacyPaths(sb.home, 'demo');
    mkdirSync(path.dirname(legacy.kubeconfig), { recursive: true });
    writeFileSync(legacy.kubeconfig, readFileSync(prod), { mode: 0o600 });
    // Staging's own file gone (another machine, or deleted): the legacy file is what it could fall back to.
    rmSync(recordedKubeconfigPath(key('staging')));
    await deleteCluster(opts('staging'), { ...fakeDeps(mgmt, fakeCloud()), logger });
    expect(existsSync(legacy.kubeconfig)).toBe(true);
    expect(logger.lines.join('\n')).toMatch(/demo\.yaml \(kept by kaas before it kept state per environment\) was left alone and is not used: it reaches https:\/\/203\.0\.113\.\d+:6443, but Cluster staging-demo\/demo is at/);
    expect(mgmt.calls().filter((c) => c.argv.includes(legacy.kubeconfig))).toEqual([]);
  }, T);
});
