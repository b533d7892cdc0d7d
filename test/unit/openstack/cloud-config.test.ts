import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../../../lib/errors.js';
import { resolveCloudConfig, type ResolveCloudOptions } from '../../../lib/openstack/cloud-config.js';
import { candidatePaths, deepMerge } from '../../../lib/openstack/clouds-files.js';
import { clearSecrets, redact } from '../../../lib/redact.js';
import { MAX_YAML_BYTES } from '../../../lib/fs/yaml-read.js';
import { tempDir } from '../../support/temp.js';

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
  const root = tempDir('kaas-clouds-');
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

  // Issue 31 §3, newcomer m19: a command that changes things never takes the only entry by itself.
  describe('the only clouds.yaml entry, none named', () => {
    const solo = 'clouds:\n  solo:\n    auth: {auth_url: https://k, application_credential_id: i, application_credential_secret: s-1234}\n';
    it.each<[string, Partial<ResolveCloudOptions>, NodeJS.ProcessEnv, 'solo' | 'envvars' | 'refused', boolean]>([
      ['a read-only run takes it and says so', { mutating: false }, {}, 'solo', true],
      ['without the option: read-only (detect, doctor)', {}, {}, 'solo', true],
      ['a mutating run refuses it', { mutating: true }, {}, 'refused', false],
      ['a mutating run takes it when the cloud setting names it', { mutating: true, cloudSetting: 'solo' }, {}, 'solo', false],
      ['a mutating run takes it when --cloud names it', { mutating: true, cloudFlag: 'solo' }, {}, 'solo', false],
      ['a mutating run takes it when OS_CLOUD names it', { mutating: true }, { OS_CLOUD: 'solo' }, 'solo', false],
      ['a mutating run takes sourced OS_* variables (an openrc is a choice)', { mutating: true }, { OS_AUTH_URL: 'https://k', OS_APPLICATION_CREDENTIAL_ID: 'i', OS_APPLICATION_CREDENTIAL_SECRET: 's-5678' }, 'envvars', false],
    ])('%s', (_what, extra, environ, want, noted) => {
      const notes: string[] = [];
      const run = () => resolveCloudConfig(sandbox({ 'cwd/clouds.yaml': solo })(environ, { ...extra, note: (m) => notes.push(m) }));
      if (want === 'refused') expect(run).toThrow(UsageError);
      else expect(run().name).toBe(want);
      expect(notes).toHaveLength(noted ? 1 : 0);
    });

    it('the note names the cloud and the file; the refusal lists the entry and how to name it (exit 2)', () => {
      const opts = sandbox({ 'cwd/clouds.yaml': solo })();
      const file = path.join(opts.cwd, 'clouds.yaml');
      const notes: string[] = [];
      resolveCloudConfig({ ...opts, note: (m) => notes.push(m) });
      expect(notes[0]).toBe(`note: using cloud solo, the only entry of ${file} (no --cloud, cloud setting or OS_CLOUD); a command that changes things needs it named: set cloud: solo in the environment file, export OS_CLOUD=solo, or pass --cloud solo`);
      const err = usageError(() => resolveCloudConfig({ ...opts, mutating: true }));
      expect(err.message).toBe(`no cloud named: kaas does not pick the only entry of ${file} (solo) for a command that changes things`);
      expect(err.problems).toEqual(['clouds defined: solo']);
      expect(err.hint).toBe('set cloud: solo in the environment file, export OS_CLOUD=solo, or pass --cloud solo');
      expect(err.exitCode).toBe(2);
    });
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
    const empty = tempDir('kaas-nocloud-');
    expect(() => resolveCloudConfig({ environ: {}, cwd: empty, home: empty, etcDir: empty, cloudFlag: 'prod' }))
      .toThrow(/cloud "prod" is not defined anywhere: no clouds.yaml found \(searched OS_CLIENT_CONFIG_FILE, \.\/, ~\/\.config\/openstack\/, \/etc\/openstack\/\)/);
  });
});

/** Resolves cloud "c" given as a YAML flow mapping in ./clouds.yaml. */
function cloudC(flow: string, environ: NodeJS.ProcessEnv = {}) {
  return resolveCloudConfig(sandbox({ 'cwd/clouds.yaml': `clouds:\n  c: ${flow}\n` })(environ, { cloudFlag: 'c' }));
}

/** The UsageError that `run` throws (fails the test if it returns). */
function usageError(run: () => unknown): UsageError {
  try {
    run();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return e as UsageError;
  }
  throw new Error('no error thrown');
}

const PW = 'auth_url: https://k/v3, username: u, password: pw-123456, project_name: p';

describe('clouds.yaml entry fields', () => {
  it.each([
    ['public', 'public'], ['internal', 'internal'], ['admin', 'admin'],
    ['publicURL', 'public'], ['internalURL', 'internal'], ['adminURL', 'admin'], ['""', 'public'],
  ])('interface %s is used as %s', (value, want) => {
    expect(cloudC(`{interface: ${value}, auth: {${PW}}}`).interface).toBe(want);
  });

  it.each([
    ['nothing', '', true],
    ['verify: true', 'verify: true,', true],
    ['verify: false', 'verify: false,', false],
    ['verify: "false"', 'verify: "false",', false],
    ['insecure: true', 'insecure: true,', false],
    ['insecure: "true"', 'insecure: "true",', false],
    ['insecure: false', 'insecure: false,', true],
  ])('TLS verification with %s: %s', (_title, keys, verify) => {
    expect(cloudC(`{${keys} auth: {${PW}}}`).verify).toBe(verify);
  });

  it.each([
    ['default_domain_name fills both domain names', 'default_domain_name: D', { userDomainName: 'D', projectDomainName: 'D' }],
    ['default_domain_id fills both domain ids', 'default_domain_id: d1', { userDomainId: 'd1', projectDomainId: 'd1' }],
    ['explicit domain names beat the default', 'default_domain_name: D, user_domain_name: U, project_domain_name: P', { userDomainName: 'U', projectDomainName: 'P' }],
    ['explicit domain ids beat the default', 'default_domain_id: d1, user_domain_id: u1, project_domain_id: p1', { userDomainId: 'u1', projectDomainId: 'p1' }],
    ['an empty user_domain_name counts as unset', 'default_domain_name: D, user_domain_name: ""', { userDomainName: 'D' }],
    ['unquoted numeric ids are read as text', 'project_id: 4711, user_id: 42', { projectId: '4711', userId: '42' }],
  ])('%s', (_title, extra, want) => {
    expect(cloudC(`{auth: {${PW}, ${extra}}}`).auth).toMatchObject(want);
  });

  it.each([
    ['a list of names: the first', 'regions: [One, Two]', 'One'],
    ['a list of {name}: the first', 'regions: [{name: Two, values: {}}, One]', 'Two'],
    ['region_name beats regions', 'region_name: Three, regions: [One]', 'Three'],
    ['an empty list: none', 'regions: []', undefined],
    ['neither: none', 'interface: public', undefined],
  ])('regions given as %s', (_title, keys, want) => {
    expect(cloudC(`{${keys}, auth: {${PW}}}`).regionName).toBe(want);
  });

  it('an application credential id alone suffices, even with a name and no user', () => {
    const c = cloudC('{auth_type: v3applicationcredential, auth: {auth_url: https://k, application_credential_id: i, application_credential_name: n, application_credential_secret: s-1234}}');
    expect(c.auth).toMatchObject({ kind: 'application_credential', applicationCredentialId: 'i', applicationCredentialName: 'n' });
  });

  it('an empty region_name (null) is unset, not a wrong type', () => {
    expect(cloudC(`{region_name: null, regions: [R], auth: {${PW}}}`).regionName).toBe('R');
  });

  it.each([
    ['no auth at all: every required key', '{region_name: R}', [
      'auth.auth_url is missing', 'auth.password is missing', 'auth.project_name (or auth.project_id) is missing', 'auth.username (or auth.user_id) is missing',
    ]],
    ['auth_url of the wrong type: only that, not also "missing"', '{auth: {auth_url: [x], username: u, password: pw-123456, project_name: p}}', ['auth.auth_url must be a string, found a list']],
    ['an empty auth_url is missing', '{auth: {auth_url: "", username: u, password: pw-123456, project_name: p}}', ['auth.auth_url is missing']],
    ['region_name of the wrong type', `{region_name: [a], auth: {${PW}}}`, ['region_name must be a string, found a list']],
    ['cacert of the wrong type', `{cacert: 5, auth: {${PW}}}`, ['cacert must be a string, found number']],
    ['auth_type of the wrong type', `{auth_type: {x: 1}, auth: {${PW}}}`, ['auth_type must be a string, found a mapping']],
    ['interface of the wrong type', `{interface: true, auth: {${PW}}}`, ['interface must be a string, found boolean']],
    ['an unsupported auth_type', `{auth_type: v3token, auth: {${PW}}}`, ['auth_type "v3token" is not supported (use password, v3password or v3applicationcredential)']],
    ['an application credential name without a user', '{auth: {auth_url: https://k, application_credential_name: n, application_credential_secret: s-1234}}', ['auth.application_credential_name needs auth.user_id or auth.username']],
    ['an interface that does not exist', `{interface: privateURL, auth: {${PW}}}`, ['interface "private" is not one of public|internal|admin']],
  ])('%s', (_title, flow, problems) => {
    const err = usageError(() => cloudC(flow));
    expect(err.message).toMatch(/^cloud "c" \(.*clouds\.yaml\) is incomplete$/);
    expect(err.problems).toEqual(problems);
    expect(err.hint).toBe('fix the cloud entry in clouds.yaml / secure.yaml, or the OS_* variables');
  });
});

describe('plain OS_* variables, every one', () => {
  const base = { OS_AUTH_URL: 'https://k/v3', OS_PASSWORD: 'env-pw-1234' };

  it('password: every auth variable lands in its field', () => {
    const c = resolveCloudConfig(sandbox({})({
      ...base, OS_USERNAME: 'u', OS_USER_ID: 'uid', OS_USER_DOMAIN_NAME: 'UD', OS_USER_DOMAIN_ID: 'udid',
      OS_PROJECT_NAME: 'p', OS_PROJECT_ID: 'pid', OS_PROJECT_DOMAIN_NAME: 'PD', OS_PROJECT_DOMAIN_ID: 'pdid',
    }));
    expect(c.auth).toEqual({
      kind: 'password', authUrl: 'https://k/v3', username: 'u', userId: 'uid', password: 'env-pw-1234',
      userDomainName: 'UD', userDomainId: 'udid', projectName: 'p', projectId: 'pid', projectDomainName: 'PD', projectDomainId: 'pdid',
      applicationCredentialId: undefined, applicationCredentialName: undefined, applicationCredentialSecret: undefined,
    });
  });

  it('application credential: id, name and secret land in their fields', () => {
    const c = resolveCloudConfig(sandbox({})({
      OS_AUTH_URL: 'https://k', OS_APPLICATION_CREDENTIAL_ID: 'acid', OS_APPLICATION_CREDENTIAL_NAME: 'acn', OS_APPLICATION_CREDENTIAL_SECRET: 'env-ac-1234',
    }));
    expect(c.auth).toMatchObject({ kind: 'application_credential', applicationCredentialId: 'acid', applicationCredentialName: 'acn', applicationCredentialSecret: 'env-ac-1234' });
  });

  it.each([
    ['OS_TENANT_NAME when OS_PROJECT_NAME is unset', { OS_TENANT_NAME: 't' }, { projectName: 't' }],
    ['OS_TENANT_NAME when OS_PROJECT_NAME is empty', { OS_PROJECT_NAME: '', OS_TENANT_NAME: 't' }, { projectName: 't' }],
    ['OS_PROJECT_NAME beats OS_TENANT_NAME', { OS_PROJECT_NAME: 'p', OS_TENANT_NAME: 't' }, { projectName: 'p' }],
    ['OS_TENANT_ID when OS_PROJECT_ID is unset', { OS_TENANT_ID: 'tid' }, { projectId: 'tid' }],
    ['OS_PROJECT_ID beats OS_TENANT_ID', { OS_PROJECT_ID: 'pid', OS_TENANT_ID: 'tid' }, { projectId: 'pid' }],
  ])('legacy openrc: %s', (_title, vars, want) => {
    expect(resolveCloudConfig(sandbox({})({ ...base, OS_USERNAME: 'u', ...vars })).auth).toMatchObject(want);
  });

  it.each([
    ['OS_ENDPOINT_TYPE (legacy, with URL suffix)', { OS_ENDPOINT_TYPE: 'internalURL' }, 'internal'],
    ['OS_INTERFACE beats OS_ENDPOINT_TYPE', { OS_INTERFACE: 'admin', OS_ENDPOINT_TYPE: 'internalURL' }, 'admin'],
    ['an empty OS_INTERFACE counts as unset', { OS_INTERFACE: '', OS_ENDPOINT_TYPE: 'internal' }, 'internal'],
    ['neither', {}, 'public'],
  ])('interface from %s', (_title, vars, want) => {
    expect(resolveCloudConfig(sandbox({})({ ...base, OS_USERNAME: 'u', OS_PROJECT_NAME: 'p', ...vars })).interface).toBe(want);
  });

  it.each([['1', false], ['true', false], ['YES', false], ['0', true], ['no', true], ['', true], [undefined, true]])(
    'OS_INSECURE=%s → verify %s',
    (value, verify) => {
      const environ: NodeJS.ProcessEnv = { ...base, OS_USERNAME: 'u', OS_PROJECT_NAME: 'p' };
      if (value !== undefined) environ.OS_INSECURE = value;
      expect(resolveCloudConfig(sandbox({})(environ)).verify).toBe(verify);
    },
  );

  it('OS_CLOUD_NAME names the environment cloud', () => {
    expect(resolveCloudConfig(sandbox({})({ ...base, OS_USERNAME: 'u', OS_PROJECT_NAME: 'p', OS_CLOUD_NAME: 'lab' })).name).toBe('lab');
  });

  it('OS_AUTH_TYPE is honoured: an unsupported one is named', () => {
    const err = usageError(() => resolveCloudConfig(sandbox({})({ ...base, OS_USERNAME: 'u', OS_PROJECT_NAME: 'p', OS_AUTH_TYPE: 'v3oidcpassword' })));
    expect(err.message).toBe('cloud "envvars" (environment) is incomplete');
    expect(err.problems).toEqual(['auth_type "v3oidcpassword" is not supported (use password, v3password or v3applicationcredential)']);
  });
});

describe('choosing the cloud: messages', () => {
  const unsorted = 'clouds:\n  zeta: {auth: {auth_url: https://z}}\n  alpha: {auth: {auth_url: https://a}}\n';

  it('the source is the clouds file alone when there is no secure file', () => {
    const opts = sandbox({ 'cwd/clouds.yaml': PW_CLOUD })({}, { cloudFlag: 'alpha' });
    expect(usageError(() => resolveCloudConfig(opts)).message).toBe(`cloud "alpha" (${path.join(opts.cwd, 'clouds.yaml')}) is incomplete`);
  });

  it('an unknown name: the defined clouds sorted, and how to name one', () => {
    const err = usageError(() => resolveCloudConfig(sandbox({ 'cwd/clouds.yaml': unsorted })({ OS_CLOUD: 'prod' })));
    expect(err.problems).toEqual(['clouds defined: alpha, zeta']);
    expect(err.hint).toBe('name a cloud defined in clouds.yaml (--cloud, the cloud setting or OS_CLOUD), or set OS_CLIENT_CONFIG_FILE');
  });

  it('several clouds, none named: which exist and how to choose', () => {
    const opts = sandbox({ 'cwd/clouds.yaml': unsorted })();
    const err = usageError(() => resolveCloudConfig(opts));
    expect(err.message).toBe(`several clouds in ${path.join(opts.cwd, 'clouds.yaml')}, none chosen`);
    expect(err.problems).toEqual(['clouds defined: alpha, zeta']);
    expect(err.hint).toBe('choose one with --cloud NAME, the cloud setting or OS_CLOUD');
  });

  it('nothing configured: no problems listed, where to put clouds.yaml', () => {
    const err = usageError(() => resolveCloudConfig(sandbox({})()));
    expect(err.problems).toEqual([]);
    expect(err.hint).toBe('create clouds.yaml (./, ~/.config/openstack/ or /etc/openstack/) or source an openrc file (OS_AUTH_URL, …)');
  });

  it('a named cloud without any file lists no clouds', () => {
    expect(usageError(() => resolveCloudConfig(sandbox({})({}, { cloudFlag: 'prod' }))).problems).toEqual([]);
  });

  it('a secure.yaml alone is searched too, and named when the cloud is not in it', () => {
    const opts = sandbox({ 'etc/secure.yaml': SECURE });
    const err = usageError(() => resolveCloudConfig(opts({ OS_CLOUD: 'gamma' })));
    expect(err.message).toBe(`cloud "gamma" is not defined in ${path.join(opts().etcDir!, 'secure.yaml')}`);
    expect(err.problems).toEqual(['clouds defined: alpha, beta']);
  });

  it('a cloud entry that is not a mapping: what it is and how to fill it', () => {
    const opts = sandbox({ 'cwd/clouds.yaml': 'clouds:\n  c: [a]\n' })({}, { cloudFlag: 'c' });
    const err = usageError(() => resolveCloudConfig(opts));
    expect(err.message).toBe(`clouds.c in ${path.join(opts.cwd, 'clouds.yaml')} is not a mapping (a list)`);
    expect(err.hint).toBe('give clouds.c its settings: auth: {auth_url: …, …}, region_name: …');
  });
});

describe('reading the clouds files', () => {
  it('OS_CLIENT_SECURE_FILE comes first for secure.yaml (and not OS_CLIENT_CONFIG_FILE)', () => {
    const ctx = { environ: { OS_CLIENT_CONFIG_FILE: '/x/c.yaml', OS_CLIENT_SECURE_FILE: '/x/s.yaml' }, cwd: '/w', home: '/h' };
    expect(candidatePaths('secure', ctx).slice(0, 3)).toEqual(['/x/s.yaml', '/w/secure.yaml', '/w/secure.yml']);
    expect(candidatePaths('secure', { ...ctx, environ: {} })[0]).toBe('/w/secure.yaml');
  });

  it.each([
    ['a scalar replaces a map', { a: { b: 1 } }, { a: 'x' }, { a: 'x' }],
    ['a map replaces a scalar', { a: 'x' }, { a: { c: 2 } }, { a: { c: 2 } }],
    ['a map replaces a list', { a: ['x'] }, { a: { c: 2 } }, { a: { c: 2 } }],
    ['null replaces a map', { a: { b: 1 } }, { a: null }, { a: null }],
  ])('deep merge: %s', (_title, base, over, want) => {
    expect(deepMerge(base, over)).toEqual(want);
  });

  it.each([['empty', ''], ['comments only', '# nothing yet\n']])('an %s clouds.yaml holds no clouds (the OS_* variables apply)', (_title, text) => {
    const c = resolveCloudConfig(sandbox({ 'cwd/clouds.yaml': text })({ OS_AUTH_URL: 'https://k', OS_USERNAME: 'u', OS_PASSWORD: 'pw-1234', OS_PROJECT_NAME: 'p' }));
    expect(c.source).toBe('environment');
  });

  it('a key given twice: the later one wins, as in openstacksdk', () => {
    const c = cloudC(`{region_name: First, region_name: Second, auth: {${PW}}}`);
    expect(c.regionName).toBe('Second');
  });

  it('a "clouds" of secure.yaml that is not a mapping names secure.yaml', () => {
    const opts = sandbox({ 'cwd/clouds.yaml': PW_CLOUD, 'cwd/secure.yaml': 'clouds: [alpha]\n' })({ OS_CLOUD: 'alpha' });
    expect(() => resolveCloudConfig(opts)).toThrow(`${path.join(opts.cwd, 'secure.yaml')}: "clouds" must be a mapping`);
  });

  it('a clouds.yaml of exactly 1 MiB is read; one byte more is refused before parsing', () => {
    const head = `clouds:\n  c: {auth: {${PW}}}\n`;
    const exact = head + '#'.repeat(MAX_YAML_BYTES - head.length - 1) + '\n';
    expect(Buffer.byteLength(exact)).toBe(MAX_YAML_BYTES);
    const at = sandbox({ 'cwd/clouds.yaml': exact })({}, { cloudFlag: 'c' });
    expect(resolveCloudConfig(at).auth.username).toBe('u');
    const over = sandbox({ 'cwd/clouds.yaml': exact + '\n' })({}, { cloudFlag: 'c' });
    const err = usageError(() => resolveCloudConfig(over));
    expect(err.message).toBe(`${path.join(over.cwd, 'clouds.yaml')} has ${MAX_YAML_BYTES + 1} bytes; kaas reads at most ${MAX_YAML_BYTES} (1 MiB)`);
    expect(err.hint).toBe('is this the right file? a clouds.yaml is a few KiB');
  });

  it('a YAML syntax error quotes only the first line of the parser message, with a hint', () => {
    const opts = sandbox({ 'cwd/clouds.yaml': 'clouds:\n  c: {auth: {password: "pw-in-broken-file\n' })({}, { cloudFlag: 'c' });
    const err = usageError(() => resolveCloudConfig(opts));
    expect(err.message).toMatch(new RegExp(`^cannot read ${path.join(opts.cwd, 'clouds.yaml')}: [^\\n]+$`));
    expect(err.message).not.toContain('pw-in-broken-file');
    expect(err.hint).toBe('fix the YAML syntax of the clouds file');
  });
});
