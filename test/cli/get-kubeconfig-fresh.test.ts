import { chmodSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fakeTools } from '../fakes/fake-tools.js';
import { ROOT, runKaas, tempDir } from '../support/cli.js';

const T = 120_000;
const K = 'test/fakes/recorded/kubectl-v1.32';

/**
 * Review m10: Cluster API rotates the client certificate in the <cluster>-kubeconfig Secret, so the
 * file kaas wrote at create time goes stale. get kubeconfig asks the management cluster first and
 * refreshes the recorded file; the file is only the fallback when the management cluster cannot answer.
 */
describe('kaas get kubeconfig prefers the management cluster', () => {
  const fresh = readFileSync(path.join(ROOT, 'test/fakes/recorded/capi-v1.12/clusterctl-get-kubeconfig.yaml'), 'utf8');
  const stale = fresh.replace(/client-certificate-data: .*/, 'client-certificate-data: c3RhbGUtY2VydA==');

  function setup() {
    const home = tempDir();
    const mgmt = path.join(home, 'mgmt.yaml');
    const recorded = path.join(home, 'demo', 'demo.yaml');
    mkdirSync(path.dirname(recorded));
    writeFileSync(recorded, stale);
    chmodSync(recorded, 0o600);
    return { home, mgmt, recorded, args: ['get', 'kubeconfig', 'demo', '--env', 'example', '--kubeconfig', mgmt, '--set', `workload_kubeconfig=${recorded}`] };
  }
  const clusterList = (mgmt: string, response: object) => ({ tool: 'kubectl', argv: ['--kubeconfig', mgmt, 'get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'], response });

  it('a stale recorded file: prints the Secret\'s kubeconfig and refreshes the file (0600)', () => {
    const { home, mgmt, recorded, args } = setup();
    expect(stale).not.toBe(fresh);
    const fake = fakeTools([
      clusterList(mgmt, { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'demo', namespace: 'demo' } }] }) }),
      { tool: 'clusterctl', argv: ['get', 'kubeconfig', 'demo', '--namespace', 'demo', '--kubeconfig', mgmt], response: { stdout: fresh } },
    ]);
    try {
      const out = path.join(home, 'out.yaml');
      const r = runKaas([...args, '--output-file', out, '-o', 'json'], { env: { ...fake.env, HOME: home } });
      expect(r.code).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ cluster: 'demo', source: 'management cluster', refreshed: recorded, file: out });
      expect(readFileSync(out, 'utf8')).toBe(fresh);
      expect(r.stderr).toMatch(new RegExp(`refreshed ${recorded.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')} from the management cluster`));
      expect(readFileSync(recorded, 'utf8')).toBe(fresh);
      expect(statSync(recorded).mode & 0o777).toBe(0o600);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it('the management cluster unreachable: the recorded file, with a warning that it may be stale', () => {
    const { home, mgmt, args, recorded } = setup();
    const refused = { stderrFile: `${K}/error-connection-refused.txt`, exitCode: 1 };
    const fake = fakeTools([
      clusterList(mgmt, refused),
      { tool: 'clusterctl', argv: ['get', 'kubeconfig', 'demo', '--namespace', 'demo', '--kubeconfig', mgmt], response: refused },
    ]);
    try {
      const r = runKaas(args, { env: { ...fake.env, HOME: home } });
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(stale);
      expect(r.stderr).toMatch(/the management cluster did not give the kubeconfig \(.*\): using .*demo\.yaml, which may be stale/);
      expect(readFileSync(recorded, 'utf8')).toBe(stale);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);
});
