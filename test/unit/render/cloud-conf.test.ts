import { PlanError } from '../../../lib/errors.js';
import type { CloudConfig } from '../../../lib/openstack/cloud-config.js';
import { CA_FILE_IN_POD, iniValue, loadBalancerSection, renderCloudConf } from '../../../lib/render/cloud-conf.js';
import { parseCloudConf } from '../../../lib/ingress/live-check.js';
import { AMPHORA, OVN } from '../ingress/fixtures.js';

const APPCRED: CloudConfig = {
  name: 'example-cloud', source: 'clouds.yaml', interface: 'public', verify: true, regionName: 'RegionOne',
  auth: { kind: 'application_credential', authUrl: 'https://keystone.example:5000/v3', applicationCredentialId: 'abc123', applicationCredentialSecret: 's3cr3t "x"' },
};

describe('cloud.conf', () => {
  it('writes [Global] from an application credential, quoting region and secret', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, cacert: '/etc/ssl/my-ca.pem' }, lb: AMPHORA, occm: {}, required: { 'enable-ingress-hostname': 'true' }, caFileInPod: CA_FILE_IN_POD });
    expect(parseCloudConf(c.text)).toEqual({
      Global: {
        'auth-url': 'https://keystone.example:5000/v3', region: 'RegionOne', 'application-credential-id': 'abc123',
        'application-credential-secret': 's3cr3t "x"', 'ca-file': '/etc/config/ca.crt',
      },
      LoadBalancer: { 'enable-ingress-hostname': 'true', 'manage-security-groups': 'true' },
    });
    expect(c.text).toContain('application-credential-secret="s3cr3t \\"x\\""');
    expect(c.warnings).toEqual([]);
  });

  it('writes no ca-file when the CA is not mounted from the Secret, and says so', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, cacert: '/etc/ssl/my-ca.pem' }, lb: AMPHORA, occm: {} });
    expect(parseCloudConf(c.text).Global['ca-file']).toBeUndefined();
    expect(c.warnings).toEqual([expect.stringMatching(/names cacert \/etc\/ssl\/my-ca\.pem, but the CA is not in the cloud-config Secret: cloud\.conf gets no ca-file/)]);
  });

  it('verify: false is tls-insecure=true without ca-file, even with a cacert and a mounted CA path', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, cacert: '/etc/ssl/my-ca.pem', verify: false }, lb: AMPHORA, occm: {}, caFileInPod: CA_FILE_IN_POD });
    expect(parseCloudConf(c.text).Global).toMatchObject({ 'tls-insecure': 'true' });
    expect(parseCloudConf(c.text).Global['ca-file']).toBeUndefined();
  });

  it('accepts password auth with a warning', () => {
    const c = renderCloudConf({
      cloud: { ...APPCRED, auth: { kind: 'password', authUrl: 'https://k/v3', username: 'u', password: 'pw', projectName: 'p', userDomainName: 'Default' } },
      lb: AMPHORA, occm: {},
    });
    expect(parseCloudConf(c.text).Global).toMatchObject({ username: 'u', password: 'pw', 'tenant-name': 'p', 'user-domain-name': 'Default' });
    expect(c.warnings[0]).toMatch(/uses a password/);
  });

  it('warns when the cloud names no region: OCCM needs [Global] region', () => {
    const c = renderCloudConf({ cloud: { ...APPCRED, regionName: undefined }, lb: AMPHORA, occm: {} });
    expect(parseCloudConf(c.text).Global.region).toBeUndefined();
    expect(c.warnings).toEqual([expect.stringMatching(/cloud "example-cloud" names no region: .*OCCM requires; set region_name in clouds\.yaml/)]);
  });

  it('omits [Global] without credentials (dry-run) and says so', () => {
    const c = renderCloudConf({ lb: OVN, occm: {} });
    expect(c.text).toMatch(/\[Global\] omitted/);
    expect(parseCloudConf(c.text).LoadBalancer).toEqual({
      'create-monitor': 'true', 'lb-method': 'SOURCE_IP_PORT', 'lb-provider': 'ovn', 'manage-security-groups': 'true',
    });
  });

  it.each([
    ['occm overrides a kaas default', AMPHORA, { 'manage-security-groups': false }, {}, [['manage-security-groups', 'false']]],
    ['occm adds options', AMPHORA, { 'ingress-hostname-suffix': 'example.org' }, {}, [['ingress-hostname-suffix', 'example.org'], ['manage-security-groups', 'true']]],
    ['equal values are no conflict', OVN, { 'create-monitor': true, 'lb-method': 'source_ip_port' }, {}, [['create-monitor', 'true'], ['lb-method', 'SOURCE_IP_PORT'], ['lb-provider', 'ovn'], ['manage-security-groups', 'true']]],
  ] as const)('[LoadBalancer]: %s', (_n, lb, occm, required, pairs) => {
    expect(loadBalancerSection(lb, occm, required)).toEqual(pairs);
  });

  it.each([
    ['lb-provider amphora with OVN chosen', OVN, { 'lb-provider': 'amphora' }, {}, /occm_loadbalancer.lb-provider: amphora contradicts lb-provider=ovn required by the plan \(OVN chosen\)/],
    ['create-monitor false with OVN', OVN, { 'create-monitor': false }, {}, /create-monitor: false contradicts create-monitor=true/],
    ['hostname off with PROXY', AMPHORA, { 'enable-ingress-hostname': false }, { 'enable-ingress-hostname': 'true' }, /enable-ingress-hostname: false contradicts/],
    ['lb-provider ovn without the OVN plan', AMPHORA, { 'lb-provider': 'ovn' }, {}, /set use_ovn_lb_provider instead/],
    ['a typo', AMPHORA, { 'create-monitors': true }, {}, /occm_loadbalancer.create-monitors: not a cloud.conf \[LoadBalancer\] option/],
    ['OVN\'s lb-method left behind on amphora', AMPHORA, { 'lb-method': 'SOURCE_IP_PORT' }, {}, /occm_loadbalancer.lb-method: SOURCE_IP_PORT is the OVN algorithm; the amphora provider accepts ROUND_ROBIN, LEAST_CONNECTIONS or SOURCE_IP/],
  ] as const)('conflict: %s → PlanError naming both', (_n, lb, occm, required, message) => {
    let err: PlanError | undefined;
    try {
      loadBalancerSection(lb, occm, required);
    } catch (e) {
      err = e as PlanError;
    }
    expect(err).toBeInstanceOf(PlanError);
    expect(err!.problems.join('\n')).toMatch(message);
  });

  it.each([
    ['auth-url', 'https://k:5000/v3', 'https://k:5000/v3'],
    ['region', 'RegionOne', '"RegionOne"'],
    ['password', 'abcd', '"abcd"'],
    ['node-selector', 'a=b, c', '"a=b, c"'],
  ])('gcfg value %s=%s → %s', (k, v, out) => {
    expect(iniValue(k, v)).toBe(out);
  });
});
