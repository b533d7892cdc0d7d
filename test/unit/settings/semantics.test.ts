import fs from 'node:fs';
import path from 'node:path';
import { SettingsError, UsageError } from '../../../lib/errors.js';
import { loadCapabilitiesFile } from '../../../lib/openstack/capabilities-file.js';
import { parseSettingsFile } from '../../../lib/settings/file.js';
import { loadSettings, validateAll } from '../../../lib/settings/load.js';
import { tempDir } from '../../support/cli.js';

/**
 * Issue 23, also wrong: values of the right shape that no cluster can use were accepted. Each is
 * a problem saying what, where (file:line:col) and how to fix it; settings problems are exit 2.
 */
const problems = (text: string) => parseSettingsFile(text, 's.yaml').problems;

describe('values no cluster can use', () => {
  it.each([
    ['node CIDR of every address', 'node_cidr: 0.0.0.0/0\n', 's.yaml:1:12: node_cidr: "0.0.0.0/0" is every address, not a range for the node subnet CAPO creates: give it a private range such as 10.8.0.0/20'],
    ['a /32 node CIDR', 'node_cidr: 10.8.0.1/32\n', 's.yaml:1:12: node_cidr: "10.8.0.1/32" is too small for the node subnet CAPO creates (1 address; Neutron keeps the network, gateway and DHCP addresses, and every node and load balancer needs one): use /28 or wider, e.g. 10.8.0.0/20'],
    ['a /31 node CIDR', 'node_cidr: 10.8.0.0/31\n', 's.yaml:1:12: node_cidr: "10.8.0.0/31" is too small for the node subnet CAPO creates (2 addresses; Neutron keeps the network, gateway and DHCP addresses, and every node and load balancer needs one): use /28 or wider, e.g. 10.8.0.0/20'],
    ['a /25 pod CIDR', 'pod_cidr: 192.168.0.0/25\n', 's.yaml:1:11: pod_cidr: "192.168.0.0/25" is too small for the pod network (128 addresses; each node takes a block of it (cilium a /24, calico /26 blocks)): use /24 or wider, e.g. 192.168.0.0/16'],
    ['a Service CIDR wider than kube-apiserver takes', 'service_cidr: 10.0.0.0/8\n', 's.yaml:1:15: service_cidr: "10.0.0.0/8" is wider than kube-apiserver accepts for Services (at most 20 host bits: /12 or narrower): e.g. 10.96.0.0/12'],
    ['DNS 0.0.0.0', 'dns_nameservers: [0.0.0.0]\n', 's.yaml:1:18: dns_nameservers[0]: "0.0.0.0" is the unspecified address, not a DNS server the nodes can ask: give the address of a resolver (e.g. 9.9.9.9)'],
    ['DNS broadcast', 'dns_nameservers: [9.9.9.9, 255.255.255.255]\n', 's.yaml:1:18: dns_nameservers[1]: "255.255.255.255" is the broadcast address, not a DNS server the nodes can ask: give the address of a resolver (e.g. 9.9.9.9)'],
    ['DNS multicast', 'dns_nameservers: [224.0.0.251]\n', 's.yaml:1:18: dns_nameservers[0]: "224.0.0.251" is a multicast address, not a DNS server the nodes can ask: give the address of a resolver (e.g. 9.9.9.9)'],
    ['a version with a leading zero', 'kubernetes_version: v1.34.02\n', 's.yaml:1:21: kubernetes_version: "v1.34.02" has a leading zero (02); versions are written without: "v1.34.2"'],
    ['YAML 1.1 octal', 'mtu: 01400\n', 's.yaml:1:6: 01400 has a leading zero: YAML 1.2 (kaas) reads 1400, YAML 1.1 readers (PyYAML, the SCS tools) octal (768); write 1400, or "01400" in quotes for text'],
    ['YAML 1.2 octal', 'worker_count: 0o3\n', 's.yaml:1:15: 0o3 is YAML 1.2 octal (3), which YAML 1.1 readers take as text; write the decimal 3, or "0o3" in quotes for text'],
    ['an unknown tag', 'worker_metadata: !vault {a: b}\n', 's.yaml:1:25: unknown YAML tag !vault: kaas reads plain YAML 1.2 values (strings, numbers, booleans, lists, maps); remove the tag and write the value'],
    ['a null cluster key', 'clusters:\n  null:\n    mtu: 1400\n', 's.yaml:2:3: clusters.null: the key is null in YAML, not a cluster name; quote it ("null") if a cluster is meant to have that name, else rename the section'],
    ['a boolean cluster key', 'clusters:\n  true: {}\n', 's.yaml:2:3: clusters.true: the key is a boolean in YAML, not a cluster name; quote it ("true") if a cluster is meant to have that name, else rename the section'],
  ])('%s', (_what, text, said) => {
    expect(problems(text)).toContain(said);
  });

  it.each([
    ['the defaults', ''],
    ['a /28 node subnet and IPv6 ranges', 'node_cidr: 10.8.0.0/28\npod_cidr: "fd00:10::/56"\nservice_cidr: "fd00:20::/112"\n'],
    ['a quoted "0755" and a quoted "null" cluster', 'worker_metadata: {mode: "0755"}\nclusters:\n  "null": {}\n'],
    ['a version without leading zeros, DNS servers', 'kubernetes_version: v1.34.0\ndns_nameservers: [9.9.9.9, "2620:fe::fe"]\n'],
  ])('accepted: %s', (_what, text) => {
    expect(problems(text)).toEqual([]);
  });
});

describe('overlapping pod, Service and node ranges (exit 2, naming both and where they came from)', () => {
  const dir = tempDir('kaas-overlap-');
  const write = (env: string, text: string) => fs.writeFileSync(path.join(dir, `${env}.yaml`), text);

  it('settings validate: per cluster, the merged values, with file:line of the one set', () => {
    write('o1', 'pod_cidr: 10.8.0.0/16\nclusters:\n  a: {}\n  b:\n    node_cidr: 10.9.0.0/20\n');
    const r = validateAll({ settingsDir: dir, env: 'o1', environ: {} });
    expect(r.problems).toEqual([
      `clusters.a: pod_cidr "10.8.0.0/16" (${path.join(dir, 'o1.yaml')}:1) overlaps node_cidr "10.8.0.0/20" (default): the pod network and the node subnet CAPO creates must not share addresses (routing would send one to the other); change pod_cidr to a range outside 10.8.0.0/20, e.g. 192.168.0.0/16`,
    ]);
  });

  it('loading a cluster with overlapping ranges is a SettingsError (exit 2); --set counts', () => {
    write('o2', 'clusters:\n  demo: {}\n');
    let err: unknown;
    try {
      loadSettings({ settingsDir: dir, env: 'o2', cluster: 'demo', environ: {}, sets: ['service_cidr=192.168.4.0/24'] });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(SettingsError);
    expect((err as SettingsError).exitCode).toBe(2);
    expect((err as SettingsError).problems.join('\n')).toContain('service_cidr "192.168.4.0/24" (flag --set service_cidr) overlaps pod_cidr "192.168.0.0/16" (default)');
  });
});

describe('capabilities files that lie', () => {
  const good = {
    cloud: 'c', detectedAt: '2026-01-01T00:00:00.000Z',
    octavia: { present: true, maxVersion: '2.26', providers: ['amphora', 'ovn'], wallabyOrLater: true, allowedCidrs: true },
    neutron: { present: true }, nova: { present: true },
  };
  const problemsOf = (doc: unknown) => {
    const f = path.join(tempDir('kaas-caps-lie-'), 'caps.json');
    fs.writeFileSync(f, `${JSON.stringify(doc, null, 2)}\n`);
    try {
      loadCapabilitiesFile(f);
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as UsageError).problems;
    }
    return [];
  };

  it.each<[string, unknown, string[]]>([
    ['detectedAt not a timestamp', { ...good, detectedAt: 'yesterday' }, ['line 3: detectedAt: "yesterday" is not a timestamp (ISO 8601, as kaas detect writes it: 2026-05-01T12:00:00.000Z)']],
    ['no providers although Octavia is there', { ...good, octavia: { ...good.octavia, providers: [] } }, ['line 7: octavia.providers: empty although octavia.present is true (an Octavia offers at least one provider)']],
    ['a default provider it does not offer', { ...good, octavia: { ...good.octavia, defaultProvider: 'octavia' } }, ['line 13: octavia.defaultProvider: "octavia" is not among octavia.providers (amphora, ovn)']],
  ])('%s', (_what, doc, said) => {
    expect(problemsOf(doc)).toEqual(said);
  });

  it('the truth is accepted', () => {
    expect(problemsOf({ ...good, octavia: { ...good.octavia, defaultProvider: 'amphora' } })).toEqual([]);
  });
});
