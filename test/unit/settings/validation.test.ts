import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { SettingsError } from '../../../lib/errors.js';
import { parseSettingsFile } from '../../../lib/settings/file.js';
import { loadSettings, validateAll } from '../../../lib/settings/load.js';
import { tempDir } from '../../support/cli.js';

/** Problems of a settings text, as `kaas settings validate` lists them. */
const problems = (text: string) => parseSettingsFile(text, 'env.yaml').problems;

describe('every kind of validation error names file, position and path', () => {
  it.each([
    ['YAML syntax: bad indentation', 'cloud: a\n b: 2\n', 'env.yaml:1:8: YAML syntax error: Nested mappings are not allowed in compact mappings'],
    ['YAML syntax: unclosed flow list', 'cloud: a\nrestrict_kubeapi: [1.2.3.4/32\n', 'env.yaml:2:'],
    ['YAML syntax: unclosed quote', 'cloud: a\nworker_flavor: "SCS\n', 'env.yaml:2:19: YAML syntax error: Missing closing "quote'],
    ['YAML syntax: tab indentation', 'clusters:\n\tdemo: {}\n', 'env.yaml:2:1: YAML syntax error: Tabs are not allowed as indentation'],
    ['YAML syntax: reserved character', 'cloud: @home\n', 'env.yaml:1:8: YAML syntax error: Plain value cannot start with reserved character @'],
    ['YAML syntax: duplicate key', 'cloud: a\ncloud: b\n', 'env.yaml:2:1: YAML syntax error: duplicate key cloud'],
    ['YAML syntax: duplicate key in a cluster', 'clusters:\n  demo:\n    mtu: 1\n    mtu: 2\n', 'env.yaml:4:5: YAML syntax error: duplicate key mtu'],
    ['root is a list', '- cloud: a\n', 'env.yaml:1:1: the settings file must be a map of setting: value (found a list)'],
    ['root is a scalar', 'just text\n', '(found a scalar)'],
    ['type: string for an integer', 'worker_count: three\n', 'env.yaml:1:15: worker_count: "three" is not an integer from 0 to 1000'],
    ['type: integer out of range', 'controller_count: 0\n', 'controller_count: 0 is not an integer from 1 to 7'],
    ['controller_count even (stacked etcd)', 'controller_count: 2\n', 'env.yaml:1:19: controller_count: 2 is even; the control plane runs stacked etcd, and Cluster API\'s KubeadmControlPlane webhook refuses it ("spec.replicas: Forbidden: cannot be an even number when etcd is stacked"): use 1, 3, 5 or 7'],
    ['controller_count even, in a cluster section', 'clusters:\n  demo:\n    controller_count: 4\n', 'clusters.demo.controller_count: 4 is even;'],
    ['type: list for a string', 'cloud: [a]\n', 'cloud: ["a"] is not a string'],
    ['enum with full path', 'clusters:\n  demo:\n    use_ovn_lb_provider: "yes"\n', 'env.yaml:3:26: clusters.demo.use_ovn_lb_provider: "yes" is not one of true, false, auto (write true)'],
    ['unknown key with did-you-mean', 'workr_count: 3\n', 'env.yaml:1:1: workr_count: unknown setting; did you mean worker_count?'],
    ['unknown key in a cluster section', 'clusters:\n  demo:\n    nginx_use_prox: true\n', 'clusters.demo.nginx_use_prox: unknown setting; did you mean nginx_use_proxy?'],
    ['unknown key, nothing close', 'frobnicate: 1\n', 'frobnicate: unknown setting\n'],
    ['CIDR without prefix', 'pod_cidr: 10.0.0.0\n', 'pod_cidr: "10.0.0.0" has no prefix length'],
    ['CIDR with host bits', 'node_cidr: 10.8.0.1/20\n', 'node_cidr: "10.8.0.1/20" has host bits set; did you mean 10.8.0.0/20?'],
    ['CIDR with a bad prefix', 'service_cidr: 10.96.0.0/33\n', 'has an invalid prefix length (0–32)'],
    ['CIDR list item', 'restrict_kubeapi: [192.0.2.0/24, 300.1.1.1]\n', 'restrict_kubeapi[1]: "300.1.1.1" is not a CIDR'],
    ['"none" with other entries', 'restrict_kubeapi: [none, 192.0.2.0/24]\n', '"none" must be the only entry'],
    ['duplicate CIDR', 'mgmt_host_cidrs: [192.0.2.1, 192.0.2.1]\n', '"192.0.2.1" is listed twice'],
    ['DNS server not an IP', 'dns_nameservers: [dns.example.com]\n', 'dns_nameservers[0]: "dns.example.com" is not an IP address'],
    ['version without v', 'kubernetes_version: 1.30.2\n', 'kubernetes_version: "1.30.2" is not a version like "v1.34.2" or "v1.34.x"'],
    ['version with .x where not allowed', 'calico_version: v3.27.x\n', 'calico_version: "v3.27.x" is not a version like "v3.27.3"'],
    ['boolOrVersion garbage', 'deploy_nginx_ingress: latest\n', 'deploy_nginx_ingress: "latest" is not true, false or a version like "v1.2.3"'],
    ['chart repository without a scheme', 'cilium_chart_repo: helm.cilium.io\n', 'env.yaml:1:20: cilium_chart_repo: "helm.cilium.io" has no scheme; write "https://helm.cilium.io" for a Helm chart repository, or an oci:// chart reference (e.g. "oci://registry.example/charts/cilium")'],
    ['chart repository of another scheme', 'cert_manager_chart_repo: ftp://x\n', 'env.yaml:1:26: cert_manager_chart_repo: "ftp://x" has the scheme ftp://, which helm does not fetch charts over; write a Helm chart repository URL (https://, or http:// on a trusted network) or an oci:// chart reference (e.g. "oci://registry.example/charts/cert-manager")'],
    ['chart repository of another scheme, in a cluster section', 'clusters:\n  demo:\n    cilium_chart_repo: ftp://mirror.example/charts\n', 'env.yaml:3:24: clusters.demo.cilium_chart_repo: "ftp://mirror.example/charts" has the scheme ftp://'],
    ['chart repository scheme in upper case', 'cilium_chart_repo: HTTPS://charts.mirror.example\n', 'cilium_chart_repo: "HTTPS://charts.mirror.example": write the scheme in lower case, "https://charts.mirror.example"'],
    ['chart repository with credentials (masked in the message)', 'cilium_chart_repo: https://user:s3cret@mirror.example/cilium\n', 'cilium_chart_repo: "https://***@mirror.example/cilium" carries credentials'],
    ['credentials and a wrong scheme: still masked', 'cert_manager_chart_repo: ftp://user:s3cret@mirror.example\n', 'cert_manager_chart_repo: "ftp://***@mirror.example" carries credentials'],
    ['OCI reference without a chart', 'cilium_chart_repo: oci://quay.io\n', 'cilium_chart_repo: "oci://quay.io" names a registry but no chart; write an oci:// chart reference (e.g. "oci://quay.io/charts/cilium")'],
    ['chart repository that is no string', 'cert_manager_chart_repo: 8080\n', 'cert_manager_chart_repo: 8080 is not a Helm chart repository URL (https:// or http://) or an OCI chart reference (oci://registry/path/chart)'],
    ['strict boolean: True', 'nginx_use_proxy: True\n', 'nginx_use_proxy: True is not a boolean here; write true (lower case)'],
    ['strict boolean: yes', 'deploy_metrics: yes\n', 'deploy_metrics: "yes" is not a boolean (true or false) (write true)'],
    ['strict boolean: "true "', 'anti_affinity: "true "\n', 'anti_affinity: "true " is not a boolean (true or false) (write true without quotes or spaces)'],
    ['strict boolean: quoted "false"', 'etcd_unsafe_fs: "false"\n', '(write false without quotes or spaces)'],
    ['legacy + new conflict names both', 'USE_OVN_LB_PROVIDER: auto\nuse_ovn_lb_provider: true\n', 'env.yaml:2:1: use_ovn_lb_provider: conflicts with USE_OVN_LB_PROVIDER ("auto" vs true); keep only use_ovn_lb_provider'],
    ['two legacy names conflict', 'NGINX_INGRESS_PROXY: true\nNGINX_USE_PROXY: false\n', 'NGINX_USE_PROXY: conflicts with NGINX_INGRESS_PROXY'],
    ['null value', 'cloud:\n', 'cloud: has no value; remove the line to use the default'],
    ['bad cluster name', 'clusters:\n  Demo_1: {}\n', 'clusters.Demo_1: a cluster name must be lower-case letters'],
    ['nested clusters', 'clusters:\n  demo:\n    clusters: {}\n', 'clusters.demo.clusters: unknown setting (clusters sections cannot be nested)'],
    ['clusters not a map', 'clusters: [demo]\n', 'clusters: must be a map of cluster name to settings'],
    ['cluster section not a map', 'clusters:\n  demo: 3\n', 'clusters.demo: must be a map of setting: value'],
    ['map with a nested value', 'occm_loadbalancer:\n  create-monitor: {a: 1}\n', 'occm_loadbalancer: {"create-monitor":{"a":1}} is not a map'],
  ])('%s', (_name, text, fragment) => {
    expect(problems(text).join('\n') + '\n').toContain(fragment);
  });

  it('a chart source with credentials never shows them in the message', () => {
    const text = 'cilium_chart_repo: https://user:s3cret@mirror.example/cilium\ncert_manager_chart_repo: ftp://u:s3cret@x\n';
    expect(problems(text)).toHaveLength(2);
    expect(problems(text).join('\n')).not.toContain('s3cret');
  });

  it('accepts what the messages recommend', () => {
    expect(problems('nginx_use_proxy: true\nUSE_OVN_LB_PROVIDER: auto\nuse_ovn_lb_provider: auto\nrestrict_kubeapi: [none]\n')).toEqual([]);
  });

  it.each(['https://helm.cilium.io', 'http://10.0.0.5:8080/charts/', 'oci://quay.io/cilium/charts/cilium', 'oci://harbor.example:5000/jetstack/charts/cert-manager'])('accepts the chart source %s', (repo) => {
    expect(problems(`cilium_chart_repo: ${repo}\nclusters:\n  demo:\n    cert_manager_chart_repo: ${repo}\n`)).toEqual([]);
  });

  it('collects every problem at once, in file order', () => {
    const p = problems('worker_count: x\nnode_cidr: 10.8.0.1/20\nnginx_use_proxy: yes\nclusters:\n  demo:\n    mtu: -1\n');
    expect(p.map((x) => x.split(': ')[0])).toEqual(['env.yaml:1:15', 'env.yaml:2:12', 'env.yaml:3:18', 'env.yaml:6:10']);
  });

  it('an empty file is a valid, empty layer', () => {
    expect(problems('')).toEqual([]);
    expect(problems('# only a comment\n')).toEqual([]);
  });
});

describe('loading reports problems of every layer in one SettingsError (exit 2)', () => {
  const dir = tempDir();
  writeFileSync(path.join(dir, 'bad.yaml'), 'worker_count: x\n');

  it('lists file, env and --set problems together', () => {
    let err: unknown;
    try {
      loadSettings({ settingsDir: dir, env: 'bad', environ: { KAAS_MTU: 'big' }, sets: ['pod_cidr=nope'], cwd: dir });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    const e = err as SettingsError;
    expect(e.exitCode).toBe(2);
    expect(e.problems).toEqual([
      'bad.yaml:1:15: worker_count: "x" is not an integer from 0 to 1000',
      'environment variable KAAS_MTU: "big" is not an integer from 0 to 9000',
      '--set pod_cidr: "nope" is not a CIDR (expected e.g. 10.8.0.0/20)',
    ]);
  });

  it('a missing environment file names the environments that exist', () => {
    expect(() => loadSettings({ settingsDir: dir, env: 'nope', environ: {}, cwd: dir })).toThrow(/settings file .*nope\.yaml not found/);
  });

  it('validate names a missing cluster section', () => {
    writeFileSync(path.join(dir, 'ok.yaml'), 'clusters:\n  demo: {}\n');
    expect(validateAll({ settingsDir: dir, env: 'ok', cluster: 'prod', environ: {}, cwd: dir }).problems).toEqual([
      'ok.yaml: clusters.prod: no such cluster section (it has: demo)',
    ]);
  });
});
