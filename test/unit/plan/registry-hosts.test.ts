import { hostsToml, registryNodeFiles } from '../../../lib/plan/registry-hosts.js';
import type { RegistryMirror } from '../../../lib/settings/types.js';

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';
const HEAD = (r: string) => `# written by kaas from the registry_mirrors setting (${r}); containerd docs/hosts.md`;

describe('hostsToml writes containerd\'s hosts.toml (containerd docs/hosts.md)', () => {
  it.each<[string, RegistryMirror, string | undefined, string[]]>([
    ['a pull-through mirror (defaults: pull, resolve)', { registry: 'docker.io', endpoints: ['https://mirror.example:5000'] }, undefined,
      [HEAD('docker.io'), '', '[host."https://mirror.example:5000"]', '  capabilities = ["pull", "resolve"]']],
    ['the SCS default (registry.scs.community, pull only, path override, Docker Hub as server)',
      { registry: 'docker.io', endpoints: ['https://registry.scs.community/v2/docker.io'], server: 'https://registry-1.docker.io', capabilities: ['pull'], override_path: true }, undefined,
      [HEAD('docker.io'), 'server = "https://registry-1.docker.io"', '', '[host."https://registry.scs.community/v2/docker.io"]', '  capabilities = ["pull"]', '  override_path = true']],
    ['two mirrors in order, with a CA for them and the server', { registry: 'harbor.example:5000', endpoints: ['https://a.example', 'http://10.0.0.5:5000'] }, '/etc/containerd/certs.d/harbor.example:5000/ca.crt',
      [HEAD('harbor.example:5000'), 'ca = "/etc/containerd/certs.d/harbor.example:5000/ca.crt"', '',
        '[host."https://a.example"]', '  capabilities = ["pull", "resolve"]', '  ca = "/etc/containerd/certs.d/harbor.example:5000/ca.crt"', '',
        '[host."http://10.0.0.5:5000"]', '  capabilities = ["pull", "resolve"]', '  ca = "/etc/containerd/certs.d/harbor.example:5000/ca.crt"']],
    ['only a CA: the registry itself, trusted', { registry: 'harbor.example', ca_file: 'x' }, '/etc/containerd/certs.d/harbor.example/ca.crt',
      [HEAD('harbor.example'), 'ca = "/etc/containerd/certs.d/harbor.example/ca.crt"']],
    ['air-gapped: every registry from one server, not verified', { registry: '_default', server: 'https://registry.internal', skip_verify: true }, undefined,
      [HEAD('_default'), 'server = "https://registry.internal"', 'skip_verify = true']],
  ])('%s', (_name, m, caPath, lines) => {
    expect(hostsToml(m, caPath)).toBe(`${lines.join('\n')}\n`);
  });
});

describe('registryNodeFiles: the files every node gets', () => {
  const read = (files: Record<string, string>) => (p: string) => {
    if (!(p in files)) throw Object.assign(new Error(`cannot read ${p}: does not exist`), { code: 'ENOENT' });
    return files[p];
  };

  it('writes hosts.toml per registry and the CA from ca_file (relative to the environment file) beside it, in the setting\'s order', () => {
    const d = registryNodeFiles([
      { registry: 'quay.io', endpoints: ['https://q.example'], ca_file: 'certs/q.pem' },
      { registry: 'docker.io', endpoints: ['https://d.example'], ca: PEM.trimEnd() },
    ], '/home/op/settings', read({ '/home/op/settings/certs/q.pem': PEM }));
    expect(d.ok).toBe(true);
    if (!d.ok) return;
    expect(d.value.map((f) => [f.path, f.permissions, f.owner])).toEqual([
      ['/etc/containerd/certs.d/quay.io/hosts.toml', '0644', 'root:root'],
      ['/etc/containerd/certs.d/quay.io/ca.crt', '0644', 'root:root'],
      ['/etc/containerd/certs.d/docker.io/hosts.toml', '0644', 'root:root'],
      ['/etc/containerd/certs.d/docker.io/ca.crt', '0644', 'root:root'],
    ]);
    expect(d.value[1].content).toBe(PEM);
    expect(d.value[3].content).toBe(PEM);
    expect(d.reasons).toEqual([
      'registry quay.io: pulled through https://q.example, with its CA (/etc/containerd/certs.d/quay.io/hosts.toml on every node)',
      'registry docker.io: pulled through https://d.example, with its CA (/etc/containerd/certs.d/docker.io/hosts.toml on every node)',
    ]);
  });

  it.each([
    ['a missing ca_file', { '/s/other.pem': PEM }, 'registry_mirrors[0].ca_file ca.pem: cannot read /s/ca.pem: does not exist', 'put the CA\'s PEM file there (relative paths are relative to /s), or paste it as ca'],
    ['a ca_file that is no certificate', { '/s/ca.pem': '-----BEGIN PRIVATE KEY-----\nx\n-----END PRIVATE KEY-----\n' }, 'registry_mirrors[0].ca_file: /s/ca.pem holds no PEM certificate', 'give the file of the CA certificate (-----BEGIN CERTIFICATE----- …), not a key or a DER file'],
  ])('refuses %s, naming entry, path and fix', (_name, files, message, hint) => {
    const d = registryNodeFiles([{ registry: 'docker.io', endpoints: ['https://d.example'], ca_file: 'ca.pem' }], '/s', read(files));
    expect(d).toMatchObject({ ok: false, refusals: [{ message, hint }] });
  });

  it('writes nothing without the setting', () => {
    expect(registryNodeFiles([], '/s', () => { throw new Error('not read'); })).toMatchObject({ ok: true, value: [] });
  });
});
