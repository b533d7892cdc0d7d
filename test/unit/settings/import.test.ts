import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { KaasError, SettingsError, UsageError } from '../../../lib/errors.js';
import { memoryLogger } from '../../../lib/log.js';
import { clearSecrets } from '../../../lib/redact.js';
import { typeValue } from '../../../lib/import/convert.js';
import { convertScs, importScs, type ImportOptions } from '../../../lib/import/import.js';
import { loadSettings, validateAll } from '../../../lib/settings/load.js';
import type { SettingKey } from '../../../lib/settings/types.js';
import { ROOT, tempDir } from '../../support/cli.js';

const SCS = path.join(ROOT, 'test', 'fixtures', 'scs');
const read = (name: string) => ({ text: readFileSync(path.join(SCS, name), 'utf8'), file: name });
const fixture = () => convertScs({ clusterctl: read('clusterctl.yaml'), cloudConf: read('cloud.conf'), harborSettings: read('harbor-settings') });

/** Every secret in the fixtures: base64 blobs, what they decode to, and the cloud.conf credentials. */
const SECRETS = (() => {
  const cc = readFileSync(path.join(SCS, 'clusterctl.yaml'), 'utf8');
  const b64 = [...cc.matchAll(/^OPENSTACK_CLOUD_\w+_B64: (\S+)$/gm)].map((m) => m[1]);
  if (b64.length !== 3) throw new Error('the fixture should hold three *_B64 secrets');
  return [...b64, ...b64.map((b) => Buffer.from(b, 'base64').toString()), 'S3cr3t-clouds-yaml-fixture-91c2', 'S3cr3t-cloud-conf-fixture-55d0', 'appcredid-fixture-7f3a'];
})();

function options(dir: string, over: Partial<ImportOptions> = {}): ImportOptions {
  return {
    clusterctlFile: path.join(SCS, 'clusterctl.yaml'),
    cloudConfFile: path.join(SCS, 'cloud.conf'),
    harborSettingsFile: path.join(SCS, 'harbor-settings'),
    cluster: 'prod1',
    settingsDir: dir,
    env: 'imported',
    cwd: dir,
    dryRun: false,
    ...over,
  };
}

describe('importing a realistic SCS cluster (clusterctl.yaml + cloud.conf + harbor-settings)', () => {
  const c = fixture();

  it('has no problems', () => expect(c.problems).toEqual([]));

  it.each([
    ['cloud', 'openstack'], ['kubernetes_version', 'v1.30.6'], ['deploy_occm', true], ['deploy_cindercsi', 'v1.30.2'],
    ['deploy_nginx_ingress', 'v1.11.3'], ['nginx_use_proxy', true], ['use_ovn_lb_provider', 'auto'],
    ['deploy_cert_manager', true], ['controller_count', 3], ['worker_count', 4], ['worker_flavor', 'SCS-4V-8-50'],
    ['controller_gen', 'genc03'], ['worker_gen', 'genw02'], ['openstack_cluster_gen', 'geno02'],
    ['restrict_kubeapi', ['203.0.113.0/24', '198.51.100.7']], ['dns_nameservers', ['9.9.9.9', '149.112.112.112']],
    ['external_network', '6e4d1c0a-8e1b-4a53-9d0a-2f0f6e7c3b11'], ['availability_zone', 'nova'],
    ['controller_metadata', { team: 'platform', cost_center: '4711' }], ['ssh_key_name', 'mycapi-keypair'], ['prefix', 'mycapi'],
    ['instance_create_timeout', 10], ['occm_loadbalancer', { 'manage-security-groups': true, 'ingress-hostname-suffix': 'nip.example.org', 'monitor-max-retries': 3 }],
    ['deploy_harbor', true], ['harbor_domain_name', 'harbor.prod1.example.com'], ['deploy_gateway', false],
  ] as [SettingKey, unknown][])('imports %s = %j', (key, value) => {
    expect(c.values[key]).toEqual(value);
  });

  it.each([
    ['image (derived from the version)', 'image'], ['worker_metadata (empty in SCS)', 'worker_metadata'],
  ] as [string, SettingKey][])('leaves out %s', (_n, key) => expect(key in c.values).toBe(false));

  it.each([
    ['OPENSTACK_CLOUD_YAML_B64', 'secret'], ['OPENSTACK_CLOUD_PROVIDER_CONF_B64', 'secret'], ['OPENSTACK_CLOUD_CACERT_B64', 'secret'],
    ['application-credential-secret', 'secret'], ['application-credential-id', 'secret'],
    ['OPENSTACK_IMAGE_NAME', 'derived'], ['OPENSTACK_SRVGRP_CONTROLLER', 'derived'], ['OPENSTACK_SRVGRP_WORKER', 'derived'],
    ['use-octavia', 'derived'], ['enable-ingress-hostname', 'derived'], ['lb-provider', 'derived'], ['lb-method', 'derived'],
    ['create-monitor', 'derived'], ['auth-url', 'derived'], ['region', 'derived'],
    ['DEPLOY_FLUX', 'unsupported'], ['PROXY_CMD', 'unsupported'], ['OPENSTACK_IMAGE_RAW', 'unsupported'],
    ['HARBOR_PERSISTENCE', 'unsupported'], ['HARBOR_ISSUER_EMAIL', 'unsupported'],
    ['OPENSTACK_NODE_MACHINE_METADATA', 'empty'],
  ])('drops %s as %s, with a reason', (name, category) => {
    const d = c.dropped.find((x) => x.name === name);
    expect(d).toMatchObject({ name, category });
    expect(d!.reason.length).toBeGreaterThan(10);
  });

  it('reports each conversion', () => {
    expect(c.conversions.map((x) => `${x.name} → ${x.key}`)).toEqual(expect.arrayContaining([
      'DEPLOY_CERT_MANAGER → deploy_cert_manager', 'WORKER_MACHINE_COUNT → worker_count', 'RESTRICT_KUBEAPI → restrict_kubeapi',
      'OPENSTACK_CONTROL_PLANE_MACHINE_METADATA → controller_metadata', 'DEPLOY_HARBOR → deploy_harbor',
      '[LoadBalancer] manage-security-groups → occm_loadbalancer',
    ]));
  });

  it('never carries a secret value in what it returns', () => {
    const all = JSON.stringify(c);
    for (const s of SECRETS) expect(all).not.toContain(s);
  });
});

describe('typing SCS values: only unambiguous conversions', () => {
  const raw = (value: unknown, text = String(value)) => ({ name: 'X', where: 'f:1', value, text });
  it.each([
    ['nginx_use_proxy', raw(true), { value: true, converted: false }],
    ['nginx_use_proxy', raw('true'), { value: true, converted: true }],
    ['deploy_occm', raw('false'), { value: false, converted: true }],
    ['use_ovn_lb_provider', raw('auto'), { value: 'auto', converted: false }],
    ['worker_count', raw('5'), { value: 5, converted: true }],
    ['availability_zone', raw(1, '1'), { value: '1', converted: true }],
    ['restrict_kubeapi', raw('[ ]'), { value: [], converted: true }],
    ['restrict_kubeapi', raw('[ none, ]'), { value: ['none'], converted: true }],
    ['worker_metadata', raw("{ k: 'v', }"), { value: { k: 'v' }, converted: true }],
    ['cloud', raw(null, ''), { empty: true }],
    ['cloud', raw(''), { empty: true }],
  ] as [SettingKey, ReturnType<typeof raw>, unknown][])('%s from %j', (key, r, expected) => {
    expect(typeValue(key, r)).toEqual(expected);
  });

  it.each([
    ['nginx_use_proxy', raw(true, 'True'), 'X: True is ambiguous: the SCS scripts compared with the literal "true", so they treated it as false'],
    ['anti_affinity', raw('yes'), 'f:1: X (kaas: anti_affinity): "yes" is not a boolean (true or false) (write true)'],
    ['deploy_metrics', raw('true '), '(write true without quotes or spaces)'],
    ['node_cidr', raw('10.8.0.1/20'), 'has host bits set'],
    ['kubernetes_version', raw('1.30'), 'is not a version like'],
    ['worker_metadata', raw('team=a'), 'is not a map like'],
  ] as [SettingKey, ReturnType<typeof raw>, string][])('%s from %j is a problem', (key, r, fragment) => {
    const t = typeValue(key, r);
    expect('problem' in t && t.problem).toContain(fragment);
  });
});

describe('other SCS shapes', () => {
  const conv = (clusterctl: string, cloudConf?: string, harbor?: string) =>
    convertScs({
      clusterctl: { text: clusterctl, file: 'clusterctl.yaml' },
      cloudConf: cloudConf === undefined ? undefined : { text: cloudConf, file: 'cloud.conf' },
      harborSettings: harbor === undefined ? undefined : { text: harbor, file: 'harbor-settings' },
    });

  it.each([
    ['v1.11.3', true],
    ['v1.14.5', false],
    ['true', false],
  ])('DEPLOY_NGINX_INGRESS: %s → a note that apply-ingress would refuse it: %p', (value, noted) => {
    const c = conv(`DEPLOY_NGINX_INGRESS: ${value}\n`);
    const note = c.notes.find((n) => n.includes('is not bundled'));
    expect(Boolean(note)).toBe(noted);
    if (noted) expect(note).toMatch(/deploy_nginx_ingress v1\.11\.3 is not bundled with kaas \(bundled: v1\.15\.1, v1\.14\.5, v1\.9\.6\)/);
  });

  it.each([
    ['true', true, true],
    ['"true"', true, true],
    ['false', false, false],
  ])('DEPLOY_GATEWAY_API: %s → deploy_gateway %p, with a note about the existing CRDs and Cilium: %p', (value, want, noted) => {
    const c = conv(`DEPLOY_GATEWAY_API: ${value}\n`);
    expect(c.problems).toEqual([]);
    expect(c.values.deploy_gateway).toBe(want);
    expect(c.dropped).toEqual([]);
    const note = c.notes.find((n) => n.startsWith('DEPLOY_GATEWAY_API'));
    expect(Boolean(note)).toBe(noted);
    if (noted) expect(note).toMatch(/Envoy Gateway .*not Cilium's Gateway; .*apply-gateway names their bundle version and channel and the other GatewayClasses/);
  });

  it('keeps amphora [LoadBalancer] extras that are not the OVN block', () => {
    const c = conv('USE_OVN_LB_PROVIDER: false\n', '[LoadBalancer]\nlb-provider=amphora\nlb-method=LEAST_CONNECTIONS\ncreate-monitor=true\n[BlockStorage]\nignore-volume-az=true\n');
    expect(c.values.occm_loadbalancer).toEqual({ 'lb-method': 'LEAST_CONNECTIONS', 'create-monitor': true });
    expect(c.dropped.map((d) => `${d.name}:${d.category}`)).toEqual(['lb-provider:derived', 'ignore-volume-az:unsupported']);
  });

  it.each([
    // OCCM reads cloud.conf with gcfg: the comment is not part of the value, names are case-insensitive.
    ['a comment after a value', '[LoadBalancer]\nmanage-security-groups=true ; SCS default\nmonitor-delay = "60s" # slow\n', { 'manage-security-groups': true, 'monitor-delay': '60s' }],
    ['a lower-case section and mixed-case keys', '[loadbalancer]\nManage-Security-Groups=true\n', { 'manage-security-groups': true }],
    ['the OVN block with comments', '[LoadBalancer]\nlb-provider=ovn # handle_ovn_lb.sh\nlb-method=SOURCE_IP_PORT ; ovn\ncreate-monitor=true\nmonitor-max-retries=3\n', { 'monitor-max-retries': 3 }],
  ])('reads cloud.conf as OCCM does: %s', (_n, cloudConf, occm) => {
    const c = conv('USE_OVN_LB_PROVIDER: auto\n', cloudConf);
    expect(c.problems).toEqual([]);
    expect(c.values.occm_loadbalancer).toEqual(occm);
  });

  it('keeps an image name that is not the derived one, and reports unknown keys', () => {
    const c = conv('KUBERNETES_VERSION: v1.30.6\nOPENSTACK_IMAGE_NAME: my-image\nCLUSTER_COLOR: blue\n');
    expect(c.values.image).toBe('my-image');
    expect(c.dropped).toEqual([{ name: 'CLUSTER_COLOR', where: 'clusterctl.yaml:3:1', category: 'unknown', reason: expect.stringContaining('unknown') }]);
  });

  it('reads quoted and exported harbor-settings values', () => {
    const c = conv('{}\n', undefined, '# comment\nexport DEPLOY_HARBOR="true"\nHARBOR_DOMAIN_NAME=\'h.example.org\'\n');
    // The edge switches the SCS files leave out are written as SCS's defaults (see the edge test below).
    expect(c.values).toEqual({ deploy_harbor: true, harbor_domain_name: 'h.example.org', deploy_nginx_ingress: 'v1.9.6', deploy_gateway: false });
  });

  it.each([
    // clusterctl.yaml → the edge written into the section (never left to kaas's defaults for new clusters)
    ['DEPLOY_NGINX_INGRESS: true\n', 'v1.9.6', false, ['DEPLOY_GATEWAY_API is not in the SCS files']],
    ['DEPLOY_NGINX_INGRESS: false\n', false, false, ['DEPLOY_GATEWAY_API is not in the SCS files']],
    ['DEPLOY_NGINX_INGRESS: true\nDEPLOY_GATEWAY_API: true\n', 'v1.9.6', true, []],
    ['DEPLOY_GATEWAY_API: false\n', 'v1.9.6', false, ['DEPLOY_NGINX_INGRESS is not in the SCS files']],
    ['KUBERNETES_VERSION: v1.30.6\n', 'v1.9.6', false, ['DEPLOY_NGINX_INGRESS is not in the SCS files', 'DEPLOY_GATEWAY_API is not in the SCS files']],
  ])('%j → deploy_nginx_ingress %p, deploy_gateway %p, noted: %j', (clusterctl, nginx, gateway, noted) => {
    const c = conv(clusterctl);
    expect(c.problems).toEqual([]);
    expect(c.values.deploy_nginx_ingress).toBe(nginx);
    expect(c.values.deploy_gateway).toBe(gateway);
    expect(c.notes.filter((n) => / is not in the SCS files/.test(n)).map((n) => n.split(':')[0])).toEqual(noted);
  });

  it.each([
    ['a conflict between two sources names both', 'DEPLOY_HARBOR: false\n', 'DEPLOY_HARBOR=true\n', 'DEPLOY_HARBOR (harbor-settings:1) conflicts with DEPLOY_HARBOR (clusterctl.yaml:1:1)'],
    ['YAML syntax errors have a position', 'A: [1\n', undefined, 'clusterctl.yaml:1:5: YAML syntax error'],
    ['a non-map clusterctl.yaml is refused', '- a\n', undefined, 'must be a map of KEY: value'],
    ['a broken harbor-settings line has its line number', '{}\n', 'not a variable\n', 'harbor-settings:1: expected NAME=value'],
  ])('%s', (_n, cc, harbor, fragment) => {
    expect(conv(cc, undefined, harbor).problems.join('\n')).toContain(fragment);
  });
});

describe('writing the environment file', () => {
  afterEach(() => clearSecrets());

  it('creates a valid file whose cluster loads with the imported values; no secret anywhere', async () => {
    const dir = tempDir();
    const logger = memoryLogger();
    const r = await importScs(options(dir), { logger });
    const file = path.join(dir, 'imported.yaml');
    const written = readFileSync(file, 'utf8');
    expect(validateAll({ settingsDir: dir, env: 'imported', environ: {}, cwd: dir }).problems).toEqual([]);
    const s = loadSettings({ settingsDir: dir, env: 'imported', cluster: 'prod1', environ: {}, cwd: dir });
    expect(s.values.use_ovn_lb_provider).toBe('auto');
    // The edge is written explicitly: kaas's defaults for new clusters (gateway on, ingress-nginx off) never reach it.
    expect([s.values.deploy_nginx_ingress, s.values.deploy_gateway]).toEqual(['v1.11.3', false]);
    expect([s.origins.deploy_nginx_ingress, s.origins.deploy_gateway]).toMatchObject([{ kind: 'file', section: 'cluster' }, { kind: 'file', section: 'cluster' }]);
    expect(s.origins.worker_count).toMatchObject({ kind: 'file', section: 'cluster' });
    expect(r.text).toMatch(/gained|created with/);
    for (const s2 of SECRETS) for (const out of [written, r.text, JSON.stringify(r.data), logger.lines.join('\n')]) expect(out).not.toContain(s2);
    expect(readdirSync(dir)).toEqual(['imported.yaml']);
  });

  it('keeps comments and other sections of an existing file', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'imported.yaml');
    writeFileSync(file, '# my environment\ncloud: mine # keep me\nclusters:\n  # the old one\n  old:\n    worker_count: 1\n');
    await importScs(options(dir), { logger: memoryLogger() });
    const text = readFileSync(file, 'utf8');
    expect(text).toMatch(/^# my environment\ncloud: mine # keep me\nclusters:\n {2}# the old one\n {2}old:\n {4}worker_count: 1\n {2}# imported from .*clusterctl.yaml by kaas settings import\n {2}prod1:\n/);
  });

  it('leaves an identical section alone, refuses a different one, replaces it with force', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'imported.yaml');
    await importScs(options(dir), { logger: memoryLogger() });
    const first = readFileSync(file, 'utf8');
    const again = await importScs(options(dir), { logger: memoryLogger() });
    expect((again.data as { status: string }).status).toBe('unchanged');
    writeFileSync(file, first.replace('worker_count: 4', 'worker_count: 6'));
    await expect(importScs(options(dir), { logger: memoryLogger() })).rejects.toThrow(/clusters.prod1 already exists with other values; nothing was written/);
    await expect(importScs(options(dir), { logger: memoryLogger() })).rejects.toBeInstanceOf(UsageError);
    await importScs(options(dir, { force: true }), { logger: memoryLogger() });
    expect(readFileSync(file, 'utf8')).toBe(first);
  });

  it('with dryRun prints the file, writes nothing, reports on the logger', async () => {
    const dir = tempDir();
    const logger = memoryLogger();
    const r = await importScs(options(dir, { dryRun: true }), { logger });
    expect(r.text).toContain('  prod1:\n');
    expect(existsSync(path.join(dir, 'imported.yaml'))).toBe(false);
    expect(logger.lines.join('\n')).toMatch(/dry run: .* would get clusters.prod1/);
  });

  it.each([
    ['an invalid SCS value', { clusterctlFile: 'bad.yaml' }, 'OPENSTACK_ANTI_AFFINITY: True\n', SettingsError, /True is ambiguous/],
    ['a missing input file', { cloudConfFile: 'nope.conf' }, undefined, UsageError, /--cloud-conf nope.conf: no such file/],
    ['a bad cluster name', { cluster: 'Prod_1' }, undefined, UsageError, /a cluster name must be/],
  ] as [string, Partial<ImportOptions>, string | undefined, typeof KaasError, RegExp][])('refuses %s and writes nothing', async (_n, over, text, type, msg) => {
    const dir = tempDir();
    if (text !== undefined) writeFileSync(path.join(dir, 'bad.yaml'), text);
    const err = await importScs(options(dir, over), { logger: memoryLogger() }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(type);
    expect([(err as KaasError).message, ...(err as KaasError).problems].join('\n')).toMatch(msg);
    expect(existsSync(path.join(dir, 'imported.yaml'))).toBe(false);
  });

  it('refuses to import into an invalid environment file, leaving it as it was', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'imported.yaml');
    writeFileSync(file, 'worker_count: many\n');
    await expect(importScs(options(dir), { logger: memoryLogger() })).rejects.toThrow(/imported.yaml is invalid; fix it before importing into it/);
    expect(readFileSync(file, 'utf8')).toBe('worker_count: many\n');
  });
});
