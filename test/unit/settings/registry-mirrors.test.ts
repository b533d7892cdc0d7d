import { parseSettingsFile } from '../../../lib/settings/file.js';
import { loadSettings } from '../../../lib/settings/load.js';
import { SettingsError } from '../../../lib/errors.js';

/** Problems of a settings text, as `kaas settings validate` lists them. */
const problems = (text: string) => parseSettingsFile(text, 'env.yaml').problems;

const PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

describe('registry_mirrors: each mistake is named with file, line, path and the fix', () => {
  it.each([
    ['not a list', 'registry_mirrors: docker.io\n', 'env.yaml:1:19: registry_mirrors: "docker.io" is not a list; write [{registry: docker.io, endpoints: ["https://mirror.example:5000"]}] (or [] for none)'],
    ['an item that is not a map', 'registry_mirrors: [docker.io]\n', 'registry_mirrors[0]: "docker.io" is not a map; write {registry: docker.io, endpoints: ["https://mirror.example"]}'],
    ['registry missing', 'registry_mirrors: [{endpoints: ["https://m.example"]}]\n', 'registry_mirrors[0].registry: undefined is not a registry host; write it as in image names, e.g. docker.io or harbor.example:5000 (or _default for every registry)'],
    ['registry with a scheme', 'registry_mirrors: [{registry: "https://docker.io/v2", endpoints: ["https://m.example"]}]\n', 'registry_mirrors[0].registry: "https://docker.io/v2" has a scheme; write the registry host as in image names: "docker.io"'],
    ['registry with a path', 'registry_mirrors: [{registry: docker.io/library, endpoints: ["https://m.example"]}]\n', 'registry_mirrors[0].registry: "docker.io/library" has a path; containerd keys its config by registry host only: "docker.io"'],
    ['registry with a bad port', 'registry_mirrors: [{registry: "harbor.example:99999", endpoints: ["https://m.example"]}]\n', 'registry_mirrors[0].registry: "harbor.example:99999" is not a registry host[:port] like docker.io or harbor.example:5000'],
    ['endpoint without a scheme', 'registry_mirrors: [{registry: docker.io, endpoints: [mirror.example:5000]}]\n', 'registry_mirrors[0].endpoints[0]: "mirror.example:5000" is not an http or https URL'],
    ['endpoint that is no URL', 'registry_mirrors: [{registry: docker.io, endpoints: [mirror]}]\n', 'registry_mirrors[0].endpoints[0]: "mirror" is not a URL; write it with its scheme, e.g. "https://mirror"'],
    ['endpoint with credentials', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://u:p@m.example"]}]\n', 'registry_mirrors[0].endpoints[0]: "https://u:p@m.example" carries credentials; containerd\'s hosts.toml has no place for them'],
    ['endpoint listed twice', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example", "https://m.example"]}]\n', 'registry_mirrors[0].endpoints: "https://m.example" is listed twice'],
    ['endpoints not a list', 'registry_mirrors: [{registry: docker.io, endpoints: "https://m.example"}]\n', 'registry_mirrors[0].endpoints: "https://m.example" is not a list of URLs; write ["https://mirror.example:5000"]'],
    ['server that is no URL', 'registry_mirrors: [{registry: docker.io, server: registry-1.docker.io}]\n', 'registry_mirrors[0].server: "registry-1.docker.io" is not a URL'],
    ['an entry that says nothing', 'registry_mirrors: [{registry: quay.io}]\n', 'registry_mirrors[0]: says nothing about quay.io: give the mirrors to try (endpoints), a server to send its pulls to, or the CA of its certificate (ca_file)'],
    ['unknown field with did-you-mean', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], capabilites: [pull]}]\n', 'registry_mirrors[0].capabilites: not a registry_mirrors field; did you mean capabilities? (known: registry, endpoints, server, capabilities, override_path, skip_verify, ca_file, ca)'],
    ['unknown capability', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], capabilities: [pull, resolv]}]\n', 'registry_mirrors[0].capabilities[1]: "resolv" is not a containerd capability; did you mean resolve? (one of pull, resolve, push)'],
    ['empty capabilities', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], capabilities: []}]\n', 'registry_mirrors[0].capabilities: [] is not a non-empty list of pull, resolve, push'],
    ['skip_verify as a string', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], skip_verify: "yes"}]\n', 'registry_mirrors[0].skip_verify: "yes" is not a boolean (true or false)'],
    ['ca that is no PEM', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], ca: ./ca.pem}]\n', 'registry_mirrors[0].ca: not a PEM certificate (-----BEGIN CERTIFICATE----- … -----END CERTIFICATE-----); paste the CA\'s PEM text, or use ca_file with its path'],
    ['ca and ca_file', `registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], ca_file: a.pem, ca: ${JSON.stringify(PEM)}}]\n`, 'registry_mirrors[0]: both ca and ca_file are set; keep one'],
    ['skip_verify with a CA', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://m.example"], ca_file: a.pem, skip_verify: true}]\n', 'registry_mirrors[0]: skip_verify: true ignores the CA; remove skip_verify (the CA is the safe way) or the CA'],
    ['one registry twice', 'registry_mirrors:\n  - {registry: docker.io, endpoints: ["https://a.example"]}\n  - {registry: docker.io, endpoints: ["https://b.example"]}\n', 'registry_mirrors[1].registry: docker.io is also configured in registry_mirrors[0]; one hosts.toml per registry: merge the two entries'],
    ['in a cluster section', 'clusters:\n  demo:\n    registry_mirrors: [{registry: docker.io, endpoints: [ftp://m.example]}]\n', 'env.yaml:3:23: clusters.demo.registry_mirrors[0].endpoints[0]: "ftp://m.example" is not an http or https URL'],
  ])('%s', (_name, text, want) => {
    expect(problems(text).join('\n')).toContain(want);
  });

  it.each([
    ['a mirror', 'registry_mirrors: [{registry: docker.io, endpoints: ["https://mirror.example:5000"]}]\n'],
    ['every field', 'registry_mirrors: [{registry: "harbor.example:5000", endpoints: ["https://a.example/v2/x", "http://10.0.0.5:5000"], server: "https://harbor.example:5000", capabilities: [pull], override_path: true, ca_file: ./ca.pem}]\n'],
    ['only a CA (a private registry)', 'registry_mirrors: [{registry: harbor.example, ca_file: /etc/ssl/harbor-ca.pem}]\n'],
    ['only a server (air-gapped: every pull to one registry)', 'registry_mirrors: [{registry: _default, server: "https://registry.internal"}]\n'],
    ['an inline CA', `registry_mirrors: [{registry: "[fd00::5]:5000", endpoints: ["https://[fd00::5]:5000"], ca: ${JSON.stringify(PEM)}}]\n`],
    ['none', 'registry_mirrors: []\n'],
  ])('accepts %s', (_name, text) => {
    expect(problems(text)).toEqual([]);
  });

  it('refuses a bad --set value with exit 2, naming the flag', () => {
    const load = () => loadSettings({ settingsDir: 'settings', env: 'example', cluster: 'demo', environ: {}, sets: ['registry_mirrors=[{registry: docker.io, endpoints: [mirror.example]}]'], cwd: process.cwd() });
    expect(load).toThrow(SettingsError);
    try {
      load();
    } catch (e) {
      expect((e as SettingsError).exitCode).toBe(2);
      expect((e as SettingsError).problems.join('\n')).toContain('--set registry_mirrors[0].endpoints[0]: "mirror.example" is not a URL; write it with its scheme, e.g. "https://mirror.example"');
    }
  });
});
