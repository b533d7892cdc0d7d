import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { CA_FILE_IN_POD, globalSection, iniValue, renderCloudConf } from '../../../lib/render/cloud-conf.js';
import { parseCloudConf } from '../../../lib/checks/live-check.js';

const APPCRED: CloudConfig = {
  name: 'example-cloud', source: 'clouds.yaml', interface: 'public', verify: true, regionName: 'RegionOne',
  auth: { kind: 'application_credential', authUrl: 'https://keystone.example:5000/v3', applicationCredentialId: 'abc123', applicationCredentialSecret: 's3cr3t "x"' },
};
const PASSWORD: CloudConfig = {
  ...APPCRED,
  auth: {
    kind: 'password', authUrl: 'https://k/v3', userId: 'uid', username: 'u', password: 'pw', userDomainName: 'Default', userDomainId: 'default',
    projectId: 'pid', projectName: 'p', projectDomainName: 'PD', projectDomainId: 'pd',
  },
};
const LB: [string, string][] = [['enable-ingress-hostname', 'true'], ['manage-security-groups', 'true']];

describe('cloud.conf', () => {
  it('writes [Global] from an application credential, quoting region and secret, and the decided [LoadBalancer] pairs', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, cacert: '/etc/ssl/my-ca.pem' }, loadBalancer: LB, caFileInPod: CA_FILE_IN_POD });
    expect(c.text).toBe([
      '# OCCM cloud config, written by kaas. Holds a credential: keep it mode 0600.',
      '# [Global] from cloud "example-cloud"',
      '[Global]',
      'auth-url=https://keystone.example:5000/v3',
      'region="RegionOne"',
      'application-credential-id=abc123',
      'application-credential-secret="s3cr3t \\"x\\""',
      'ca-file=/etc/config/ca.crt',
      '',
      '[LoadBalancer]',
      'enable-ingress-hostname=true',
      'manage-security-groups=true',
      '',
    ].join('\n'));
    expect(parseCloudConf(c.text).Global['application-credential-secret']).toBe('s3cr3t "x"');
    expect(c.loadBalancer).toEqual(LB);
    expect(c.global[0]).toEqual(['auth-url', 'https://keystone.example:5000/v3']);
    expect(c.warnings).toEqual([]);
  });

  it('writes no ca-file when the CA is not mounted from the Secret, and says so', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, cacert: '/etc/ssl/my-ca.pem' }, loadBalancer: LB });
    expect(parseCloudConf(c.text).Global['ca-file']).toBeUndefined();
    expect(c.warnings).toEqual(['cloud "example-cloud" names cacert /etc/ssl/my-ca.pem, but the CA is not in the cloud-config Secret: cloud.conf gets no ca-file']);
  });

  it('a mounted CA path without a cacert in the cloud writes no ca-file and warns nothing', () => {
    const g = globalSection(APPCRED, CA_FILE_IN_POD);
    expect(g.pairs.map(([k]) => k)).not.toContain('ca-file');
    expect(g.warnings).toEqual([]);
  });

  it('verify: false is tls-insecure=true without ca-file, even with a cacert and a mounted CA path', () => {
    const g = globalSection({ ...APPCRED, cacert: '/etc/ssl/my-ca.pem', verify: false }, CA_FILE_IN_POD);
    expect(g.pairs.slice(-1)).toEqual([['tls-insecure', 'true']]);
    expect(g.pairs.map(([k]) => k)).not.toContain('ca-file');
    expect(g.warnings).toEqual([]);
  });

  it('password auth: every credential key in keystoneauth order, tenant-* for the project, with a warning', () => {
    const g = globalSection(PASSWORD);
    expect(g.pairs).toEqual([
      ['auth-url', 'https://k/v3'], ['region', 'RegionOne'], ['user-id', 'uid'], ['username', 'u'], ['password', 'pw'],
      ['user-domain-name', 'Default'], ['user-domain-id', 'default'], ['tenant-id', 'pid'], ['tenant-name', 'p'],
      ['tenant-domain-name', 'PD'], ['tenant-domain-id', 'pd'],
    ]);
    expect(g.warnings).toEqual(['cloud "example-cloud" uses a password: cloud.conf will hold it; an application credential is safer (openstack application credential create)']);
    expect(renderCloudConf({ cloud: PASSWORD, loadBalancer: LB }).text).toContain('\npassword="pw"\n');
  });

  it('password auth leaves out the keys the cloud does not set', () => {
    const g = globalSection({ ...PASSWORD, auth: { kind: 'password', authUrl: 'https://k/v3', username: 'u', password: 'pw', projectName: 'p' } });
    expect(g.pairs).toEqual([['auth-url', 'https://k/v3'], ['region', 'RegionOne'], ['username', 'u'], ['password', 'pw'], ['tenant-name', 'p']]);
  });

  it('an application credential by name carries the user that owns it; by ID it does not', () => {
    const byName = globalSection({
      ...APPCRED,
      auth: {
        kind: 'application_credential', authUrl: 'https://k/v3', applicationCredentialName: 'kaas', userId: 'uid', username: 'u',
        userDomainName: 'Default', userDomainId: 'default', applicationCredentialSecret: 's',
      },
    });
    expect(byName.pairs).toEqual([
      ['auth-url', 'https://k/v3'], ['region', 'RegionOne'], ['application-credential-name', 'kaas'], ['user-id', 'uid'], ['username', 'u'],
      ['user-domain-name', 'Default'], ['user-domain-id', 'default'], ['application-credential-secret', 's'],
    ]);
    const byId = globalSection({ ...APPCRED, auth: { ...APPCRED.auth, applicationCredentialName: 'kaas', username: 'u', userId: 'uid' } });
    expect(byId.pairs.map(([k]) => k)).toEqual(['auth-url', 'region', 'application-credential-id', 'application-credential-secret']);
    expect(byId.warnings).toEqual([]);
  });

  it.each([
    ['public', undefined],
    ['internal', 'internal'],
    ['admin', 'admin'],
  ] as const)('interface %s → os-endpoint-type %s', (iface, want) => {
    const g = globalSection({ ...APPCRED, interface: iface });
    expect(Object.fromEntries(g.pairs)['os-endpoint-type']).toBe(want);
  });

  it('warns when the cloud names no region: OCCM needs [Global] region', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, regionName: undefined }, loadBalancer: LB });
    expect(parseCloudConf(c.text).Global.region).toBeUndefined();
    expect(c.warnings).toEqual(['cloud "example-cloud" names no region: cloud.conf [Global] gets no region, which OCCM requires; set region_name in clouds.yaml (or OS_REGION_NAME)']);
  });

  it('omits [Global] without credentials (dry-run) and says so', () => {
    const c = renderCloudConf({ loadBalancer: [['lb-provider', 'ovn']] });
    expect(c.text).toBe([
      '# OCCM cloud config, written by kaas. Holds a credential: keep it mode 0600.',
      '# [Global] omitted: no cloud credentials were available (dry-run). kaas create-cluster writes it.',
      '',
      '[LoadBalancer]',
      'lb-provider=ovn',
      '',
    ].join('\n'));
    expect(c.global).toEqual([]);
    expect(c.warnings).toEqual([]);
  });

  it.each([
    ['auth-url', 'https://k:5000/v3', 'https://k:5000/v3'],
    ['region', 'RegionOne', '"RegionOne"'],
    ['password', 'abcd', '"abcd"'],
    ['application-credential-secret', 'abcd', '"abcd"'],
    ['node-selector', 'a=b, c', '"a=b, c"'],
    ['subnet-id', 'A-z_0.9:/@+,=', 'A-z_0.9:/@+,='],
    ['floating-subnet', 'a b', '"a b"'],
    ['floating-subnet', 'x;y', '"x;y"'],
    ['floating-subnet', 'back\\slash', '"back\\\\slash"'],
    ['floating-subnet', 'q"uote', '"q\\"uote"'],
    ['floating-subnet', '', ''],
  ])('gcfg value %s=%s → %s', (k, v, out) => {
    expect(iniValue(k, v)).toBe(out);
  });
});
