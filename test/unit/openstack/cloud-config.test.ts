import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { resolveCloudConfig, type ResolveCloudOptions } from '../../../lib/openstack/cloud-config.js';
import { candidatePaths, deepMerge } from '../../../lib/openstack/clouds-files.js';
import { clearSecrets, redact } from '../../../lib/redact.js';

const PW_CLOUD = `
clouds:
  alpha:
    auth:
      auth_url: https://keystone.alpha.example/v3
      username: alice
      project_name: proj
      user_domain_name: Default
      project_domain_name: Default
    region_name: RegionOne
  beta:
    auth_type: v3applicationcredential
    auth:
      auth_url: https://keystone.beta.example
      application_credential_id: ac-id
    cacert: /etc/ssl/beta-ca.pem
    interface: internal
    verify: false
`;
const SECURE = `
clouds:
  alpha:
    auth:
      password: alpha-password-1
  beta:
    auth:
      application_credential_secret: beta-secret-1
`;

function sandbox(files: Record<string, string>) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-clouds-'));
  const cwd = path.join(root, 'cwd');
  const home = path.join(root, 'home');
  const etcDir = path.join(root, 'etc');
  for (const d of [cwd, home, etcDir]) fs.mkdirSync(d, { recursive: true });
  for (const [rel, text] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, text);
  }
  return (environ: NodeJS.ProcessEnv = {}, extra: Partial<ResolveCloudOptions> = {}): ResolveCloudOptions => ({ environ, cwd, home, etcDir, ...extra });
}

afterEach(() => clearSecrets());

describe('clouds.yaml search and merge', () => {
  it('searches OS_CLIENT_CONFIG_FILE, ./, ~/.config/openstack, /etc/openstack in that order', () => {
    const paths = candidatePaths('clouds', { environ: { OS_CLIENT_CONFIG_FILE: '/x/c.yaml' }, cwd: '/w', home: '/h' });
    expect(paths.slice(0, 5)).toEqual(['/x/c.yaml', '/w/clouds.yaml', '/w/clouds.yml', '/w/clouds.json', '/h/.config/openstack/clouds.yaml']);
    expect(paths.at(-3)).toBe('/etc/openstack/clouds.yaml');
  });

  it('deep-merges nested maps and lets scalars and lists replace', () => {
    expect(deepMerge({ a: { b: 1, c: [1] }, d: 1 }, { a: { c: [2], e: 3 } })).toEqual({ a: { b: 1, c: [2], e: 3 }, d: 1 });
  });

  it('merges secure.yaml from another directory over clouds.yaml (first file found wins)', () => {
    const opts = sandbox({ 'home/.config/openstack/clouds.yaml': PW_CLOUD, 'etc/secure.yaml': SECURE, 'etc/clouds.yaml': 'clouds: {}' });
    const c = resolveCloudConfig(opts({ OS_CLOUD: 'alpha' }));
    expect(c.auth).toMatchObject({ kind: 'password', username: 'alice', password: 'alpha-password-1', projectName: 'proj' });
    expect(c.source).toMatch(/clouds\.yaml \+ .*secure\.yaml$/);
    expect(redact('pw alpha-password-1')).toBe('pw ***');
  });
});

describe('choosing the cloud', () => {
  const files = { 'cwd/clouds.yaml': PW_CLOUD, 'cwd/secure.yaml': SECURE };

  it.each([
    ['--cloud beats the setting and OS_CLOUD', { cloudFlag: 'beta', cloudSetting: 'alpha' }, { OS_CLOUD: 'alpha' }, 'beta'],
    ['the cloud setting beats OS_CLOUD', { cloudSetting: 'beta' }, { OS_CLOUD: 'alpha' }, 'beta'],
    ['OS_CLOUD when nothing else names one', {}, { OS_CLOUD: 'beta' }, 'beta'],
  ])('%s', (_title, extra, environ, want) => {
    expect(resolveCloudConfig(sandbox(files)(environ, extra)).name).toBe(want);
  });

  it('an unknown name lists the clouds that exist (exit 2)', () => {
    const run = () => resolveCloudConfig(sandbox(files)({ OS_CLOUD: 'gamma' }));
    expect(run).toThrow(UsageError);
    expect(run).toThrow(/cloud "gamma" is not defined in .*clouds.yaml/);
    try {
      run();
    } catch (e) {
      expect((e as UsageError).problems).toEqual(['clouds defined: alpha, beta']);
      expect((e as UsageError).exitCode).toBe(2);
    }
  });

  it('several clouds and none named is an error naming them', () => {
    expect(() => resolveCloudConfig(sandbox(files)())).toThrow(/several clouds/);
  });

  it('no clouds file and no OS_* variables says how to configure one', () => {
    expect(() => resolveCloudConfig(sandbox({})())).toThrow(/no OpenStack cloud configured/);
  });

  it('application credential: id + secret, interface, cacert, verify false', () => {
    const c = resolveCloudConfig(sandbox(files)({}, { cloudFlag: 'beta' }));
    expect(c).toMatchObject({ interface: 'internal', cacert: '/etc/ssl/beta-ca.pem', verify: false });
    expect(c.auth).toMatchObject({ kind: 'application_credential', applicationCredentialId: 'ac-id', applicationCredentialSecret: 'beta-secret-1' });
  });
});

describe('regions', () => {
  it('without region_name, the first entry of a regions: list is used', () => {
    const yaml = 'clouds:\n  r:\n    auth: {auth_url: https://k, application_credential_id: i, application_credential_secret: s-1234}\n    regions: [{name: Two}, One]\n';
    expect(resolveCloudConfig(sandbox({ 'cwd/clouds.yaml': yaml })()).regionName).toBe('Two');
  });
});

describe('plain OS_* variables', () => {
  it('password variables form the "envvars" cloud', () => {
    const c = resolveCloudConfig(sandbox({})({
      OS_AUTH_URL: 'https://k.example:5000/v3', OS_USERNAME: 'u', OS_PASSWORD: 'env-password-1', OS_PROJECT_NAME: 'p',
      OS_USER_DOMAIN_NAME: 'Default', OS_PROJECT_DOMAIN_ID: 'default', OS_REGION_NAME: 'R2', OS_INTERFACE: 'internal', OS_CACERT: '/ca.pem',
    }));
    expect(c).toMatchObject({ name: 'envvars', source: 'environment', regionName: 'R2', interface: 'internal', cacert: '/ca.pem', verify: true });
    expect(c.auth).toMatchObject({ kind: 'password', username: 'u', projectName: 'p', userDomainName: 'Default', projectDomainId: 'default' });
    expect(redact('env-password-1')).toBe('***');
  });

  it('application credential variables imply v3applicationcredential', () => {
    const c = resolveCloudConfig(sandbox({})({ OS_AUTH_URL: 'https://k', OS_APPLICATION_CREDENTIAL_ID: 'id1', OS_APPLICATION_CREDENTIAL_SECRET: 'env-secret-1' }));
    expect(c.auth.kind).toBe('application_credential');
  });

  it('an incomplete cloud lists every missing key, sorted', () => {
    try {
      resolveCloudConfig(sandbox({})({ OS_AUTH_URL: 'https://k', OS_AUTH_TYPE: 'v3password' }));
      throw new Error('no error');
    } catch (e) {
      expect((e as UsageError).problems).toEqual([
        'auth.password is missing',
        'auth.project_name (or auth.project_id) is missing',
        'auth.username (or auth.user_id) is missing',
      ]);
    }
  });

  it('application credential by name needs the user', () => {
    expect(() =>
      resolveCloudConfig(sandbox({})({ OS_AUTH_URL: 'https://k', OS_APPLICATION_CREDENTIAL_NAME: 'n', OS_APPLICATION_CREDENTIAL_SECRET: 'sec-123' })),
    ).toThrow(UsageError);
  });

  it('an unsupported auth_type is named', () => {
    expect(() => resolveCloudConfig(sandbox({})({ OS_AUTH_URL: 'https://k', OS_AUTH_TYPE: 'v3oidcpassword' }))).toThrow(/incomplete/);
  });
});

describe('a named cloud that is nowhere', () => {
  it('says that no clouds.yaml was found and where kaas looked', () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'kaas-nocloud-'));
    expect(() => resolveCloudConfig({ environ: {}, cwd: empty, home: empty, etcDir: empty, cloudFlag: 'prod' }))
      .toThrow(/cloud "prod" is not defined anywhere: no clouds.yaml found \(searched OS_CLIENT_CONFIG_FILE, \.\/, ~\/\.config\/openstack\/, \/etc\/openstack\/\)/);
  });
});
