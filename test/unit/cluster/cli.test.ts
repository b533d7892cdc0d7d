import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { recordPrinted } from '../../support/printed.js';
import { tempDir } from '../../support/temp.js';

/** Process-level tests of the built CLI: exit codes, stdout/stderr, files. */
const T = 120_000;
const SECRET = 'test-appcred-secret-value';

function kaas(args: string[], env: Record<string, string> = {}) {
  const home = tempDir('kaas-cli-');
  const r = spawnSync(process.execPath, ['dist/bundle/kaas.js', ...args], {
    encoding: 'utf8',
    // No tools on PATH: node is started by its absolute path.
    env: { PATH: '/nonexistent', HOME: home, NO_COLOR: '1', ...env },
    timeout: 60_000,
  });
  // Everything printed goes to the suite-wide secrets check as well.
  recordPrinted(`kaas ${args.join(' ')}`, `${r.stdout}\n${r.stderr}`, [SECRET, 'test-password-value']);
  return { code: r.status, stdout: r.stdout, stderr: r.stderr, home };
}

const unreachable = { OS_CLIENT_CONFIG_FILE: path.resolve('test/fixtures/cluster/clouds-unreachable.yaml') };
const v = ['--set', 'kubernetes_version=v1.33.4'];

describe('kaas create-cluster --dry-run (built CLI)', () => {
  it('writes every manifest to --output-dir, secret files 0600, with unreachable cloud checks skipped', () => {
    const dir = path.join(tempDir('kaas-out-'), 'out');
    const r = kaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', '--output-dir', dir, ...v], unreachable);
    expect(r.stderr).not.toContain(SECRET);
    expect(r.stdout).not.toContain(SECRET);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/dry-run of cluster demo \(Kubernetes v1\.33\.4\): nothing was changed/);
    expect(r.stderr).toMatch(/- image: skipped: cloud example-cloud not reachable/);
    expect(r.stderr).toMatch(/✓ credentials: application credential of cloud example-cloud/);
    const mode = (f: string) => statSync(path.join(dir, f)).mode & 0o777;
    expect(mode('cluster.yaml')).toBe(0o600);
    expect(mode('addon-occm.yaml')).toBe(0o600);
    expect(mode('cloud.conf')).toBe(0o600);
    expect(mode('addon-metrics-server.yaml')).toBe(0o644);
    const kinds = parseAllDocuments(readFileSync(path.join(dir, 'cluster.yaml'), 'utf8')).map((d) => d.toJS().kind);
    // The apply order (lib/cluster/render.ts): nothing before the Cluster makes a controller act, and
    // the MachineDeployment after it, so that Cluster API's first reconcile of the Cluster is not held
    // back by its once-a-second rate limit.
    expect(kinds).toEqual(['Secret', 'OpenStackCluster', 'OpenStackMachineTemplate', 'OpenStackMachineTemplate', 'KubeadmConfigTemplate', 'KubeadmControlPlane', 'Cluster', 'MachineDeployment']);
  }, T);

  it('prints the manifests on stdout with secrets redacted when no --output-dir is given', () => {
    const r = kaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', ...v], unreachable);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('# cluster.yaml');
    expect(r.stdout).toContain('kind: OpenStackCluster');
    expect(r.stdout).toContain('application_credential_secret: ***');
    expect(r.stdout).not.toContain(SECRET);
    expect(r.stdout).toContain('***');
  }, T);

  it('works without any cloud configured: the Secret is skipped with the reason', () => {
    const r = kaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', ...v]);
    expect(r.stderr).not.toMatch(/^error/m);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/- credentials: skipped: .*the cloud-config Secret is not rendered/);
    expect(r.stdout.split('# addon-')[0]).not.toContain('kind: Secret\n');
  }, T);

  it('needs a full kubernetes_version offline, saying how to fix it (exit 2)', () => {
    const r = kaas(['create-cluster', 'demo', '--env', 'example', '--dry-run', '--set', 'kubernetes_version=v1.33.x']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kubernetes_version v1\.33\.x needs the cloud's image list/);
    expect(r.stderr).toMatch(/hint: set a full version/);
  }, T);
});

describe('kaas create-cluster / delete-cluster errors (built CLI)', () => {
  it('asks for kubectl and clusterctl with install hints (exit 2), before touching anything', () => {
    const r = kaas(['create-cluster', 'demo', '--env', 'example', ...v], unreachable);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/kubectl and clusterctl not found on PATH/);
    expect(r.stderr).toMatch(/install clusterctl: https:\/\/cluster-api\.sigs\.k8s\.io/);
    expect(existsSync(path.join(r.home, '.kube'))).toBe(false);
  }, T);

  it.each([['create-cluster'], ['delete-cluster']])('%s without a cluster name exits 2, naming the argument', (cmd) => {
    const r = kaas([cmd, '--env', 'example']);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: kaas ${cmd} needs the cluster name: kaas ${cmd} <cluster>`);
  }, T);

  it('rejects an invalid cluster name (exit 2)', () => {
    const r = kaas(['delete-cluster', 'Demo_1', '--env', 'example']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cluster name "Demo_1" is not valid/);
  }, T);
});
