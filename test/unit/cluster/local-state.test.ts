import { mkdirSync, readFileSync, writeFileSync, existsSync } from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { decideLegacy, legacyPaths, migrateLegacy, type LegacyFacts } from '../../../lib/state/legacy-state.js';
import { appliedDir, contextPrefix, localKey, recordedKubeconfigPath } from '../../../lib/state/local-state.js';
import { prefixedKubeconfig } from '../../../lib/state/kubeconfig.js';
import type { ClusterEndpoint } from '../../../lib/state/endpoint-check.js';
import { memoryLogger } from '../../../lib/log.js';
import { tempDir } from '../../support/cli.js';

/** Issue 31 §1 (newcomer B2, m12): two environments with a cluster of one name never share local state. */
const kubeconfig = (server: string) => `apiVersion: v1\nkind: Config\ncurrent-context: demo-admin@demo\nclusters:\n- name: demo\n  cluster:\n    server: ${server}\ncontexts:\n- name: demo-admin@demo\n  context: {cluster: demo, user: demo-admin}\nusers:\n- name: demo-admin\n  user: {}\n`;

describe('the key of local state', () => {
  it.each([
    ['staging', 'staging-demo', '/h/.kube/kaas/env.staging/staging-demo/demo.yaml', '/h/.kube/kaas/env.staging/staging-demo/demo/applied', 'staging/staging-demo/'],
    ['prod', 'prod-demo', '/h/.kube/kaas/env.prod/prod-demo/demo.yaml', '/h/.kube/kaas/env.prod/prod-demo/demo/applied', 'prod/prod-demo/'],
    // No namespace setting: the cluster name, as clusterNames (and create-cluster) use it.
    ['prod', '', '/h/.kube/kaas/env.prod/demo/demo.yaml', '/h/.kube/kaas/env.prod/demo/demo/applied', 'prod/demo/'],
  ])('env %s, namespace setting "%s"', (env, ns, file, applied, prefix) => {
    const k = localKey('/h', env, ns, 'demo');
    expect(recordedKubeconfigPath(k)).toBe(file);
    expect(appliedDir(k)).toBe(applied);
    expect(contextPrefix(k)).toBe(prefix);
  });

  it('the context entries merged into the user\'s kubeconfig carry the prefix, references included', () => {
    const w = prefixedKubeconfig(YAML.parse(kubeconfig('https://203.0.113.50:6443')), 'prod/prod-demo/');
    expect(w.contexts).toEqual([{ name: 'prod/prod-demo/demo-admin@demo', context: { cluster: 'prod/prod-demo/demo', user: 'prod/prod-demo/demo-admin' } }]);
    expect(w.clusters!.map((c) => c.name)).toEqual(['prod/prod-demo/demo']);
    expect(w.users!.map((c) => c.name)).toEqual(['prod/prod-demo/demo-admin']);
  });
});

describe('legacy ~/.kube/kaas/<cluster>.yaml: moved only when it provably is this environment\'s Cluster', () => {
  const where = { kubeconfig: '/h/.kube/kaas/demo.yaml', applied: '/h/.kube/kaas/demo/applied', to: '/h/.kube/kaas/env.staging/staging-demo' };
  const staging: ClusterEndpoint = { id: 'staging-demo/demo', host: '203.0.113.50', port: 6443 };
  const facts = (f: Partial<LegacyFacts>): LegacyFacts => ({ applied: false, current: false, currentApplied: false, ...f });
  it.each<[string, LegacyFacts, ClusterEndpoint | undefined, string, RegExp]>([
    ['nothing legacy', facts({}), staging, 'none', /^$/],
    ['its server is the Cluster\'s endpoint', facts({ kubeconfig: kubeconfig('https://203.0.113.50:6443'), applied: true }), staging, 'move', /moved \/h\/\.kube\/kaas\/demo\.yaml and \/h\/\.kube\/kaas\/demo\/applied to .*env\.staging\/staging-demo: its server is Cluster staging-demo\/demo's endpoint/],
    ['another environment\'s cluster of the same name', facts({ kubeconfig: kubeconfig('https://203.0.113.60:6443'), applied: true }), staging, 'leave', /left alone and is not used: it reaches https:\/\/203\.0\.113\.60:6443, but Cluster staging-demo\/demo is at 203\.0\.113\.50:6443.*another environment's cluster/],
    ['the management cluster could not say', facts({ kubeconfig: kubeconfig('https://203.0.113.50:6443') }), undefined, 'leave', /could not confirm/],
    ['records without their kubeconfig', facts({ applied: true }), staging, 'leave', /nothing shows which environment's cluster/],
    ['the new file exists already', facts({ kubeconfig: kubeconfig('https://203.0.113.50:6443'), current: true }), staging, 'leave', /exists already/],
  ])('%s', (_name, f, c, action, said) => {
    const d = decideLegacy(f, where, c);
    expect(d.action).toBe(action);
    expect(d.action === 'move' ? d.message : d.action === 'leave' ? d.warning : '').toMatch(said);
  });

  it('moves the files once, with a message; a second run has nothing to move', async () => {
    const home = tempDir('kaas-home-');
    const old = legacyPaths(home, 'demo');
    mkdirSync(old.applied, { recursive: true });
    writeFileSync(old.kubeconfig, kubeconfig('https://203.0.113.50:6443'), { mode: 0o600 });
    writeFileSync(path.join(old.applied, 'ingress-nginx.yaml'), 'kind: Namespace\n');
    const k = localKey(home, 'staging', 'staging-demo', 'demo');
    const logger = memoryLogger();
    expect((await migrateLegacy(k, async () => staging, logger)).action).toBe('move');
    expect(readFileSync(recordedKubeconfigPath(k), 'utf8')).toContain('203.0.113.50');
    expect(readFileSync(path.join(appliedDir(k), 'ingress-nginx.yaml'), 'utf8')).toBe('kind: Namespace\n');
    expect(existsSync(old.kubeconfig)).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/moved .*demo\.yaml/);
    expect((await migrateLegacy(k, async () => staging, logger)).action).toBe('none');
  });

  it('leaves prod\'s legacy file where it is when staging runs, and does not ask for the Cluster without one', async () => {
    const home = tempDir('kaas-home-');
    const old = legacyPaths(home, 'demo');
    mkdirSync(path.dirname(old.kubeconfig), { recursive: true });
    writeFileSync(old.kubeconfig, kubeconfig('https://203.0.113.60:6443'), { mode: 0o600 });
    const k = localKey(home, 'staging', 'staging-demo', 'demo');
    const logger = memoryLogger();
    expect((await migrateLegacy(k, async () => staging, logger)).action).toBe('leave');
    expect(existsSync(old.kubeconfig)).toBe(true);
    expect(existsSync(recordedKubeconfigPath(k))).toBe(false);
    let asked = false;
    expect((await migrateLegacy(localKey(tempDir('kaas-home-'), 'staging', '', 'demo'), async () => { asked = true; return staging; }, logger)).action).toBe('none');
    expect(asked).toBe(false);
  });
});
