import { checkEndpoint, kubeconfigServer, type ClusterEndpoint, type KubeconfigServer } from '../../../lib/state/endpoint-check.js';

/** Issue 31 §1 (newcomer B2): a kubeconfig is used to write or delete only when it reaches the Cluster. */
const pem = (body: string) => `-----BEGIN CERTIFICATE-----\n${body.match(/.{1,8}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
const CA_A = pem('QUFBQUFBQUFBQUFBQUFBQQ==');
const CA_B = pem('QkJCQkJCQkJCQkJCQkJCQg==');
const cl = (host?: string, port?: number, ca?: string): ClusterEndpoint => ({ id: 'staging-demo/demo', host, port, ca });
const kc = (server?: string, ca?: string): KubeconfigServer => ({ server, ca });

describe('checkEndpoint: is this kubeconfig the Cluster\'s?', () => {
  it.each<[string, KubeconfigServer, ClusterEndpoint, boolean, RegExp]>([
    ['same host and port', kc('https://203.0.113.50:6443'), cl('203.0.113.50', 6443), true, /Secret staging-demo\/demo-ca was not read/],
    ['host names compare case-insensitively', kc('https://API.Example.org:6443'), cl('api.example.org', 6443), true, /not read/],
    ['IPv6 in brackets against a bare IPv6 host', kc('https://[2001:db8::5]:6443'), cl('2001:db8::5', 6443), true, /not read/],
    ['no port in the URL is 443', kc('https://203.0.113.50'), cl('203.0.113.50', 443), true, /not read/],
    ['another host: prod\'s kubeconfig under staging\'s name', kc('https://203.0.113.60:6443'), cl('203.0.113.50', 6443), false, /reaches https:\/\/203\.0\.113\.60:6443, but Cluster staging-demo\/demo is at 203\.0\.113\.50:6443/],
    ['another port', kc('https://203.0.113.50:7443'), cl('203.0.113.50', 6443), false, /is at 203\.0\.113\.50:6443/],
    ['the Cluster has no endpoint yet', kc('https://203.0.113.50:6443'), cl(undefined), false, /no spec\.controlPlaneEndpoint yet/],
    ['the kubeconfig has no server', { problem: 'it has no context x' }, cl('203.0.113.50', 6443), false, /cannot be read \(it has no context x\)/],
    ['a server that is not a URL', kc('203.0.113.50:6443:x'), cl('203.0.113.50', 6443), false, /is not a URL|reaches/],
    ['same endpoint and the Cluster\'s CA', kc('https://203.0.113.50:6443', CA_A), cl('203.0.113.50', 6443, CA_A), true, /^$/],
    ['CA in a bundle with another one', kc('https://203.0.113.50:6443', CA_B + CA_A), cl('203.0.113.50', 6443, CA_A), true, /^$/],
    ['same endpoint, another CA: the address was reused', kc('https://203.0.113.50:6443', CA_B), cl('203.0.113.50', 6443, CA_A), false, /certificate authority is not the Cluster's \(Secret staging-demo\/demo-ca\)/],
    ['a kubeconfig without inline CA is compared by endpoint only', kc('https://203.0.113.50:6443'), cl('203.0.113.50', 6443, CA_A), true, /no certificate-authority-data/],
  ])('%s', (_name, k, c, ok, said) => {
    const v = checkEndpoint(k, c);
    expect(v.ok).toBe(ok);
    expect(v.ok ? v.notes.join('; ') : v.reason).toMatch(said);
  });
});

describe('kubeconfigServer: the server (and CA) a kubeconfig reaches', () => {
  const doc = (current?: string) => [
    'apiVersion: v1', 'kind: Config',
    ...(current ? [`current-context: ${current}`] : []),
    'clusters:',
    `- name: a\n  cluster:\n    server: https://203.0.113.50:6443\n    certificate-authority-data: ${Buffer.from(CA_A).toString('base64')}`,
    '- name: b\n  cluster:\n    server: https://203.0.113.60:6443',
    'contexts:', '- name: ca\n  context: {cluster: a, user: u}', '- name: cb\n  context: {cluster: b, user: u}',
  ].join('\n');

  it.each<[string, string, string | undefined, KubeconfigServer]>([
    ['the current context', doc('cb'), undefined, { server: 'https://203.0.113.60:6443', ca: undefined }],
    ['--context beats the current context', doc('cb'), 'ca', { server: 'https://203.0.113.50:6443', ca: CA_A }],
    ['an unknown --context', doc('cb'), 'nope', { problem: 'it has no context nope' }],
    ['no current context and two clusters', doc(), undefined, { problem: 'it has no current-context' }],
    ['not YAML', 'a: [', undefined, { problem: 'it is not valid YAML' }],
    ['a list, not a kubeconfig', '- a', undefined, { problem: 'it is not a kubeconfig' }],
  ])('%s', (_name, text, context, want) => {
    expect(kubeconfigServer(text, context)).toEqual(want);
  });
});
