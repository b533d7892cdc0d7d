import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { fakeTools } from '../fakes/fake-tools.js';
import { ROOT, runKaas, tempDir } from '../support/cli.js';
import { runKaasOnTty } from '../support/pty.js';

/** The newcomer's path, run as a user would: the built CLI, real files, a pseudo-terminal where it matters. */
const T = 120_000;
const fixture = (f: string) => path.join(ROOT, 'test/fixtures/scs', f);

describe('settings init and the user-level settings directory', () => {
  it('writes a commented starter file to $XDG_CONFIG_HOME/kaas when there is no ./settings, which then validates and shows', () => {
    const cwd = tempDir();
    const xdg = tempDir();
    const env = { XDG_CONFIG_HOME: xdg };
    const r = runKaas(['settings', 'init', '--cloud', 'mycloud', '--cluster', 'demo'], { cwd, env });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const file = path.join(xdg, 'kaas', 'default.yaml');
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# yaml-language-server: \$schema=.*settings\/schema\.json$/m);
    expect(text).toMatch(/^# Deploy ingress-nginx \(retired upstream/m);
    // The edge is written out (issue 33 §3): the Gateway for new clusters, no ingress-nginx.
    expect(text).toMatch(/^deploy_nginx_ingress: false$/m);
    expect(text).toMatch(/^deploy_gateway: true$/m);
    expect(text).toMatch(/^# worker_flavor: SCS-2V-4-20s$/m);
    expect(text.split('\n').slice(1).filter((l) => l.length > 80)).toEqual([]);
    expect(parse(text)).toMatchObject({ cloud: 'mycloud', deploy_nginx_ingress: false, deploy_gateway: true, clusters: { demo: {} } });
    expect(runKaas(['settings', 'validate'], { cwd, env }).code).toBe(0);
    expect(runKaas(['settings', 'show', 'demo'], { cwd, env }).stdout).toMatch(/^cloud +mycloud +.*default\.yaml:\d+$/m);
    // a second init refuses to overwrite, --force does
    const again = runKaas(['settings', 'init'], { cwd, env });
    expect(again.code).toBe(2);
    expect(again.stderr).toMatch(/already exists; nothing was written\nhint: .*--force/);
    expect(runKaas(['settings', 'init', '--force'], { cwd, env }).code).toBe(0);
    expect(parse(readFileSync(file, 'utf8')).cloud).toBeUndefined();
  }, T);

  it('falls back to ~/.config/kaas without XDG_CONFIG_HOME; ./settings beats it; KAAS_SETTINGS_DIR and --settings-dir beat both', () => {
    const cwd = tempDir();
    const home = tempDir();
    const initAt = (args: string[], env: Record<string, string> = {}) => {
      const r = runKaas(['settings', 'init', '-o', 'json', ...args], { cwd, env: { HOME: home, ...env } });
      expect(r.code).toBe(0);
      return (JSON.parse(r.stdout) as { file: string }).file;
    };
    expect(initAt(['--env', 'a'])).toBe(path.join(home, '.config', 'kaas', 'a.yaml'));
    mkdirSync(path.join(cwd, 'settings'));
    expect(initAt(['--env', 'b'])).toBe(path.join(cwd, 'settings', 'b.yaml'));
    expect(initAt(['--env', 'c'], { KAAS_SETTINGS_DIR: 'env-dir' })).toBe(path.join(cwd, 'env-dir', 'c.yaml'));
    expect(initAt(['--env', 'd', '--settings-dir', 'flag-dir'], { KAAS_SETTINGS_DIR: 'env-dir' })).toBe(path.join(cwd, 'flag-dir', 'd.yaml'));
  }, T);
});

describe('settings import from SCS', () => {
  it('pins DEPLOY_NGINX_INGRESS: true to v1.9.6, the version the SCS scripts deployed, and says so', () => {
    const dir = tempDir();
    const cc = path.join(dir, 'clusterctl.yaml');
    writeFileSync(cc, readFileSync(fixture('clusterctl.yaml'), 'utf8').replace(/^DEPLOY_NGINX_INGRESS: .*$/m, 'DEPLOY_NGINX_INGRESS: true'));
    const r = runKaas(['settings', 'import', cc, '--cluster', 'demo', '--settings-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/deploy_nginx_ingress +"v1\.9\.6" +← DEPLOY_NGINX_INGRESS/);
    expect(r.stdout).toMatch(/DEPLOY_NGINX_INGRESS: "true" → "v1\.9\.6"/);
    expect(r.stdout).toMatch(/deploy_nginx_ingress pinned to v1\.9\.6: with "true" the SCS scripts deployed ingress-nginx v1\.9\.6/);
    expect(parse(readFileSync(path.join(dir, 'default.yaml'), 'utf8')).clusters.demo.deploy_nginx_ingress).toBe('v1.9.6');
  }, T);

  it('understands the SCS environment tfvars: names mapped, management-host values dropped, clusterctl.yaml wins', () => {
    const dir = tempDir();
    const r = runKaas(['settings', 'import', fixture('clusterctl.yaml'), '--cluster', 'demo', '--tfvars', fixture('environment-mycloud.tfvars'), '--settings-dir', dir, '-o', 'json']);
    // The one line on stderr: the imported restrict_kubeapi needs mgmt_host_cidrs (see below).
    expect(r.stderr.trim().split('\n')).toEqual([expect.stringMatching(/^warning: clusters\.demo\.restrict_kubeapi is \[/)]);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { imported: { key: string; value: unknown; from: string }[]; dropped: { name: string; category: string }[]; notes: string[] };
    const got = Object.fromEntries(report.imported.map((i) => [i.key, [i.value, i.from.split(' ')[0]]]));
    expect(got.harbor_domain_name).toEqual(['harbor.example.org', 'harbor_config.domain_name']);
    expect(got.worker_metadata).toEqual([{ team: 'platform', tier: 'gold' }, 'worker_metadata']);
    // clusterctl.yaml's own values win over the environment's
    expect(got.deploy_nginx_ingress).toEqual(['v1.11.3', 'DEPLOY_NGINX_INGRESS']);
    expect(got.external_network[1]).toBe('OPENSTACK_EXTERNAL_NETWORK_ID');
    expect(report.notes.join('\n')).toMatch(/environment-mycloud\.tfvars:6: external = "ext01" differs from OPENSTACK_EXTERNAL_NETWORK_ID/);
    const dropped = Object.fromEntries(report.dropped.map((d) => [d.name, d.category]));
    expect(dropped).toMatchObject({ kind_flavor: 'unsupported', mgmt_ip_range: 'unsupported', testcluster_name: 'derived', mtu_unknown_setting: 'unknown' });
    expect(runKaas(['settings', 'validate', '--settings-dir', dir]).code).toBe(0);
  }, T);

  it('names the line of a tfvars value it cannot read, and writes nothing', () => {
    const dir = tempDir();
    const tf = path.join(dir, 'bad.tfvars');
    writeFileSync(tf, 'worker_count = 3\ncontroller_flavor = var.flavor\n');
    const r = runKaas(['settings', 'import', fixture('clusterctl.yaml'), '--cluster', 'demo', '--tfvars', tf, '--settings-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/bad\.tfvars:2: expected a string, number, boolean, \[list\] or \{map\}/);
    expect(existsSync(path.join(dir, 'default.yaml'))).toBe(false);
  }, T);
});

/** Issue 23, newcomer friction: the wrong SCS file in the wrong place, and the management host restrict_kubeapi needs. */
describe('settings import: what the file is, and what restrict_kubeapi will need', () => {
  const TEMPLATE = '---\napiVersion: cluster.x-k8s.io/v1beta1\nkind: ClusterClass\nmetadata:\n  name: ${CLUSTER_NAME}\n---\napiVersion: cluster.x-k8s.io/v1beta1\nkind: Cluster\nmetadata:\n  name: ${CLUSTER_NAME}\n';

  it.each([
    ['the raw SCS cluster template', 'cluster-template.yaml', TEMPLATE, 'is a Cluster API cluster template (Kubernetes objects with ${VARIABLE} placeholders), not an SCS clusterctl.yaml', /pass the cluster's clusterctl\.yaml, which holds the values of the template's variables/],
    ['the environment tfvars', 'environment-mycloud.tfvars', readFileSync(fixture('environment-mycloud.tfvars'), 'utf8'), 'is a Terraform variables file (name = value), not an SCS clusterctl.yaml', /pass it with --tfvars, next to the cluster's clusterctl\.yaml: kaas settings import ~\/<cluster>\/clusterctl\.yaml --cluster <name> --tfvars /],
    ['cloud.conf', 'cloud.conf', readFileSync(fixture('cloud.conf'), 'utf8'), 'is an OpenStack cloud.conf (INI sections), not an SCS clusterctl.yaml', /pass it with --cloud-conf/],
  ])('%s given as the clusterctl.yaml is named for what it is, with what to pass instead (exit 2, nothing written)', (_what, name, text, said, hint) => {
    const dir = tempDir();
    const f = path.join(dir, name);
    writeFileSync(f, text);
    const r = runKaas(['settings', 'import', f, '--cluster', 'demo', '--settings-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`error: ${f} ${said} (KEY: value); nothing was imported`);
    expect(r.stderr).toMatch(hint);
    expect(r.stderr).not.toMatch(/YAML syntax error/);
    expect(existsSync(path.join(dir, 'default.yaml'))).toBe(false);
  }, T);

  it('a clusterctl.yaml given as --tfvars is named too', () => {
    const dir = tempDir();
    const r = runKaas(['settings', 'import', fixture('clusterctl.yaml'), '--cluster', 'demo', '--tfvars', fixture('clusterctl.yaml'), '--settings-dir', dir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/error: --tfvars .*clusterctl\.yaml is an SCS clusterctl\.yaml \(KEY: value\), not a Terraform variables file/);
    expect(r.stderr).toMatch(/hint: pass it as the first argument/);
  }, T);

  it('warns that the imported restrict_kubeapi needs mgmt_host_cidrs; no warning once the environment sets it', () => {
    const dir = tempDir();
    const r = runKaas(['settings', 'import', fixture('clusterctl.yaml'), '--cluster', 'demo', '--settings-dir', dir]);
    expect(r.code).toBe(0);
    expect(r.stderr).toContain('warning: clusters.demo.restrict_kubeapi is [203.0.113.0/24, 198.51.100.7]: the kube-API load balancer will admit only those addresses');
    expect(r.stderr).toMatch(/kaas needs mgmt_host_cidrs .*; without it create-cluster refuses the plan/);
    const dir2 = tempDir();
    writeFileSync(path.join(dir2, 'default.yaml'), 'mgmt_host_cidrs: [192.0.2.10]\n');
    const r2 = runKaas(['settings', 'import', fixture('clusterctl.yaml'), '--cluster', 'demo', '--settings-dir', dir2]);
    expect(r2.code).toBe(0);
    expect(r2.stderr).not.toMatch(/restrict_kubeapi/);
  }, T);
});

describe('kaas get kubeconfig', () => {
  const kubeconfig = readFileSync(path.join(ROOT, 'test/fakes/recorded/capi-v1.12/clusterctl-get-kubeconfig.yaml'), 'utf8');

  it('prints the recorded workload kubeconfig, or writes it 0600 with --output-file', () => {
    const dir = tempDir();
    const recorded = path.join(dir, 'demo', 'demo.yaml');
    mkdirSync(path.dirname(recorded));
    writeFileSync(recorded, kubeconfig);
    chmodSync(recorded, 0o600);
    const sets = ['--env', 'example', '--set', `workload_kubeconfig=${recorded}`];
    const printed = runKaas(['get', 'kubeconfig', 'demo', ...sets]);
    expect(printed.code).toBe(0);
    expect(printed.stdout).toBe(kubeconfig);
    const out = path.join(dir, 'out', 'kc.yaml');
    const written = runKaas(['get', 'kubeconfig', 'demo', ...sets, '--output-file', out, '-o', 'json']);
    expect(written.code).toBe(0);
    expect(JSON.parse(written.stdout)).toEqual({ cluster: 'demo', source: 'file', from: recorded, file: out });
    expect(readFileSync(out, 'utf8')).toBe(kubeconfig);
    expect(statSync(out).mode & 0o777).toBe(0o600);
  }, T);

  it('asks the management cluster through clusterctl (with --kubeconfig/--context) when no file is recorded, in the namespace where the Cluster is', () => {
    const home = tempDir();
    const mgmt = path.join(home, 'mgmt.yaml');
    // A cluster made before namespace-per-cluster lives in default, not in namespace demo.
    const fake = fakeTools([{
      tool: 'kubectl',
      argv: ['--kubeconfig', mgmt, '--context', 'kind-mgmt', 'get', 'clusters.v1beta2.cluster.x-k8s.io', '--all-namespaces', '-o', 'json'],
      response: { stdout: JSON.stringify({ apiVersion: 'v1', kind: 'List', items: [{ apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'other', namespace: 'demo' } }, { apiVersion: 'cluster.x-k8s.io/v1beta2', kind: 'Cluster', metadata: { name: 'demo', namespace: 'default' } }] }) },
    }, {
      tool: 'clusterctl',
      argv: ['get', 'kubeconfig', 'demo', '--namespace', 'default', '--kubeconfig', mgmt, '--kubeconfig-context', 'kind-mgmt'],
      response: { stdoutFile: 'test/fakes/recorded/capi-v1.12/clusterctl-get-kubeconfig.yaml' },
    }]);
    try {
      const r = runKaas(['get', 'kubeconfig', 'demo', '--env', 'example', '--kubeconfig', mgmt, '--context', 'kind-mgmt'], { env: { ...fake.env, HOME: home } });
      expect(r.stderr).toMatch(/asking the management cluster \(clusterctl get kubeconfig demo\)/);
      expect(r.code).toBe(0);
      expect(r.stdout).toBe(kubeconfig);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);
});

describe('delete-cluster confirmation', () => {
  it('refuses without a terminal and without --yes, saying how to confirm (exit 2, nothing run)', () => {
    const fake = fakeTools([]);
    try {
      const r = runKaas(['delete-cluster', 'demo', '--env', 'example'], { env: fake.env });
      expect(r.code).toBe(2);
      expect(r.stderr).toBe('error: not deleting cluster demo: no terminal to confirm on\nhint: add --yes to delete without asking, or --dry-run to list what would be deleted\n');
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it('asks on a terminal; a wrong answer deletes nothing', () => {
    const fake = fakeTools([]);
    try {
      const r = runKaasOnTty(['delete-cluster', 'demo', '--env', 'example'], { env: fake.env, input: 'dmeo\n' });
      expect(r.stdout).toMatch(/Delete cluster demo \(environment example\) .*Type the cluster name to confirm:/);
      expect(r.stdout).toMatch(/error: not deleting cluster demo: confirmation "dmeo" does not match/);
      expect(r.code).toBe(2);
      fake.assertDone();
    } finally {
      fake.cleanup();
    }
  }, T);

  it('goes on after the cluster name is typed (then needs the cloud, as without the prompt)', () => {
    const r = runKaasOnTty(['delete-cluster', 'demo', '--env', 'example'], { input: 'demo\n' });
    expect(r.stdout).toMatch(/Type the cluster name to confirm:/);
    expect(r.stdout).not.toMatch(/not deleting/);
    expect(r.stdout).toMatch(/error: cloud "example-cloud" is not defined anywhere/);
  }, T);
});

describe('the example environment, offline', () => {
  it('create-cluster --dry-run works without a cloud and shows the ingress step and its manifests', () => {
    const r = runKaas(['create-cluster', 'demo', '--env', 'example', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/^ingress step: ingress-nginx v1\.15\.1 \(amphora-proxy, PROXY protocol\), applied last as kaas apply-ingress does$/m);
    expect(r.stdout).toMatch(/^# ingress-nginx\.yaml\n/m);
    expect(r.stdout).toContain('loadbalancer.openstack.org/proxy-protocol');
  }, T);

  it('--list-variables lists the user settings of the cluster with values and origins, not template internals', () => {
    const r = runKaas(['create-cluster', 'demo', '--env', 'example', '--list-variables']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^ {2}worker_count +2 +settings\/example\.yaml:\d+ \(cluster section\)$/m);
    expect(r.stdout).toMatch(/^ {2}controller_count +1 +default$/m);
    expect(r.stdout).not.toMatch(/availabilityZone|\.hbs/);
    const json = JSON.parse(runKaas(['create-cluster', 'demo', '--env', 'example', '--list-variables', '-o', 'json']).stdout);
    expect(Object.keys(json)).toEqual(['cluster', 'env', 'file', 'variables']);
    expect(json.variables.find((v: { key: string }) => v.key === 'cloud')).toMatchObject({ value: 'example-cloud', required: false });
  }, T);
});

describe('settings validate -o json', () => {
  it('prints every problem as data on stdout (exit 2), not only on stderr', () => {
    const r = runKaas(['settings', 'validate', '--settings-dir', 'test/fixtures/malformed', '--env', 'many-problems', '-o', 'json']);
    expect(r.code).toBe(2);
    const report = JSON.parse(r.stdout);
    expect(report.valid).toBe(false);
    expect(report.problems).toHaveLength(4);
    expect(report.problems[1]).toMatch(/node_cidr: "10\.8\.0\.1\/20" has host bits set/);
  }, T);
});

describe('detect progress', () => {
  const unreachable = { OS_CLIENT_CONFIG_FILE: path.join(ROOT, 'test/fixtures/cluster/clouds-unreachable.yaml') };

  it('shows a spinner line on a terminal while it asks the cloud', () => {
    const r = runKaasOnTty(['detect', '--cloud', 'example-cloud', '--timeout', '2'], { env: unreachable });
    expect(r.stdout).toMatch(/asking the cloud for its capabilities/);
    expect(r.code).toBe(1);
  }, T);

  it('prints no progress when stderr is not a terminal (detect -o json > caps.json stays clean)', () => {
    const r = runKaas(['detect', '--cloud', 'example-cloud', '--timeout', '2'], { env: unreachable });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toMatch(/asking the cloud/);
  }, T);
});
