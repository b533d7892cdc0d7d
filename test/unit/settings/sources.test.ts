import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, mergeLayers, type LoadOptions } from '../../../lib/settings/load.js';
import { coerceString, envLayer, flagLayer } from '../../../lib/settings/sources.js';
import { declOf, SETTINGS } from '../../../lib/settings/table.js';
import type { SettingKey } from '../../../lib/settings/types.js';
import { tempDir } from '../../support/cli.js';

const FILE = [
  'cloud: file-cloud',
  'worker_count: 5',
  'NODE_CIDR: 10.20.0.0/16',
  'restrict_kubeapi: "[ 192.0.2.0/24, 198.51.100.7, ]"',
  'clusters:',
  '  demo:',
  '    worker_count: 2',
  '    use_ovn_lb_provider: auto',
  '',
].join('\n');

const dir = tempDir();
writeFileSync(path.join(dir, 'test.yaml'), FILE);

function load(over: Partial<LoadOptions> = {}) {
  return loadSettings({ settingsDir: dir, env: 'test', environ: {}, cwd: dir, ...over });
}

describe('each source is parsed', () => {
  it('defaults: env "default" without a file gives every declared default', () => {
    const r = load({ env: 'default' });
    for (const d of SETTINGS.filter((s) => s.default !== undefined)) {
      expect(r.values[d.key]).toEqual(d.default);
      expect(r.origins[d.key]).toEqual({ kind: 'default' });
    }
    expect(r.values.cloud).toBeUndefined();
  });

  it.each([
    ['environment file', {}, 'cloud', 'file-cloud', { kind: 'file', file: 'test.yaml', line: 1, section: 'environment' }],
    ['legacy name in the file', {}, 'node_cidr', '10.20.0.0/16', { kind: 'file', file: 'test.yaml', line: 3, section: 'environment' }],
    ['SCS list string in the file', {}, 'restrict_kubeapi', ['192.0.2.0/24', '198.51.100.7'], { kind: 'file', file: 'test.yaml', line: 4, section: 'environment' }],
    ['cluster section', { cluster: 'demo' }, 'use_ovn_lb_provider', 'auto', { kind: 'file', file: 'test.yaml', line: 8, section: 'cluster' }],
    ['env var', { environ: { KAAS_MTU: '1400' } }, 'mtu', 1400, { kind: 'env', name: 'KAAS_MTU' }],
    ['env var list', { environ: { KAAS_MGMT_HOST_CIDRS: '192.0.2.1, 192.0.2.0/28' } }, 'mgmt_host_cidrs', ['192.0.2.1', '192.0.2.0/28'], { kind: 'env', name: 'KAAS_MGMT_HOST_CIDRS' }],
    ['--set', { sets: ['use_cilium=false'] }, 'use_cilium', false, { kind: 'flag', name: '--set use_cilium' }],
    ['--set map', { sets: ['occm_loadbalancer={create-monitor: true}'] }, 'occm_loadbalancer', { 'create-monitor': true }, { kind: 'flag', name: '--set occm_loadbalancer' }],
    ['typed flag', { flags: { cloud: 'flag-cloud' } }, 'cloud', 'flag-cloud', { kind: 'flag', name: '--cloud' }],
  ] as [string, Partial<LoadOptions>, SettingKey, unknown, unknown][])('%s', (_name, over, key, value, origin) => {
    const r = load(over);
    expect(r.values[key]).toEqual(value);
    expect(r.origins[key]).toEqual(origin);
  });

  it('warns about a legacy name, naming the new key', () => {
    expect(load().warnings).toContain('test.yaml:3:1: NODE_CIDR is the legacy SCS name; use node_cidr instead');
  });
});

describe('precedence: defaults < file < clusters.<name> < KAAS_* < --set < typed flags', () => {
  const env = { KAAS_WORKER_COUNT: '7' };
  it.each([
    ['the file beats the default', {}, 5, 'file'],
    ['the cluster section beats the file', { cluster: 'demo' }, 2, 'file'],
    ['an env var beats the cluster section', { cluster: 'demo', environ: env }, 7, 'env'],
    ['--set beats an env var', { cluster: 'demo', environ: env, sets: ['worker_count=9'] }, 9, 'flag'],
    ['a typed flag beats --set', { cluster: 'demo', environ: env, sets: ['worker_count=9'], flags: { worker_count: 11 } }, 11, 'flag'],
  ] as [string, Partial<LoadOptions>, number, string][])('%s', (_name, over, value, kind) => {
    const r = load(over);
    expect(r.values.worker_count).toBe(value);
    expect(r.origins.worker_count.kind).toBe(kind);
  });

  it.each([
    ['a cluster section without the key keeps the file value', { cluster: 'demo' }, 'cloud', 'file-cloud'],
    ['an env var for another key keeps the file value', { environ: { KAAS_MTU: '1400' } }, 'cloud', 'file-cloud'],
    ['an undefined typed flag keeps the file value', { flags: { cloud: undefined } }, 'cloud', 'file-cloud'],
    ['kaas options in the environment are not settings', { environ: { KAAS_ENV: 'x', KAAS_SETTINGS_DIR: 'y' } }, 'cloud', 'file-cloud'],
  ] as [string, Partial<LoadOptions>, SettingKey, unknown][])('unset never overwrites: %s', (_name, over, key, value) => {
    expect(load(over).values[key]).toEqual(value);
  });

  it('mergeLayers skips undefined values', () => {
    const merged = mergeLayers([
      { values: { cloud: 'a' }, origins: { cloud: { kind: 'default' } } },
      { values: { cloud: undefined }, origins: {} },
    ]);
    expect(merged.values.cloud).toBe('a');
    expect(merged.origins.cloud).toEqual({ kind: 'default' });
  });

  it('a cluster without a section falls back to the environment level, with a warning', () => {
    const r = load({ cluster: 'other' });
    expect(r.values.worker_count).toBe(5);
    expect(r.warnings.join('\n')).toMatch(/no clusters\.other section \(it has: demo\)/);
  });
});

describe('strings from env vars and --set are typed strictly', () => {
  it.each([
    ['nginx_use_proxy', 'true', true],
    ['nginx_use_proxy', 'false', false],
    ['nginx_use_proxy', 'True', 'True'],
    ['nginx_use_proxy', 'yes', 'yes'],
    ['use_ovn_lb_provider', 'auto', 'auto'],
    ['deploy_nginx_ingress', 'v1.11.3', 'v1.11.3'],
    ['worker_count', '3', 3],
    ['worker_count', '3.5', '3.5'],
    ['restrict_kubeapi', '', []],
    ['restrict_kubeapi', '[ 192.0.2.1, ]', ['192.0.2.1']],
    ['restrict_kubeapi', '192.0.2.1,192.0.2.0/24', ['192.0.2.1', '192.0.2.0/24']],
    ['occm_loadbalancer', '', {}],
    ['occm_loadbalancer', '{"create-monitor": true}', { 'create-monitor': true }],
  ] as [SettingKey, string, unknown][])('%s=%j → %j', (key, text, value) => {
    expect(coerceString(declOf(key).type, text)).toEqual(value);
  });

  it('reports bad env values with the variable name', () => {
    const r = envLayer({ KAAS_NGINX_USE_PROXY: 'yes' });
    expect(r.problems).toEqual(['environment variable KAAS_NGINX_USE_PROXY: "yes" is not a boolean (true or false) (write true)']);
  });

  it('suggests the right name for an unknown KAAS_* variable', () => {
    expect(envLayer({ KAAS_WORKER_CONT: '3' }).warnings).toEqual([
      'environment variable KAAS_WORKER_CONT is not a kaas setting; did you mean KAAS_WORKER_COUNT?',
    ]);
  });

  it.each([
    [['worker_count'], '--set worker_count: expected KEY=VALUE'],
    [['workr_count=3'], '--set workr_count: unknown setting; did you mean worker_count?'],
    [['pod_cidr=10.0.0.1/8'], '--set pod_cidr: "10.0.0.1/8" has host bits set; did you mean 10.0.0.0/8?'],
  ])('--set %j is reported: %s', (sets, fragment) => {
    expect(flagLayer(sets).problems.join('\n')).toContain(fragment);
  });
});
