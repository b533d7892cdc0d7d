import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import addFormatsModule from 'ajv-formats';
import { LEGACY } from '../../../lib/settings/table.js';
import { checkValue } from '../../../lib/settings/check.js';
import { declOf } from '../../../lib/settings/table.js';
import { schemaText } from '../../../lib/settings/show.js';
import { ROOT } from '../../support/cli.js';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (a: Ajv) => Ajv;

/**
 * The published schema, compiled the way ajv-cli does (`-c ajv-formats`): strict mode, only the
 * standard formats registered. A custom format would fail to compile here.
 */
function compilePublished() {
  const ajv = new Ajv({ allErrors: true, strict: true });
  addFormats(ajv);
  return ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'settings', 'schema.json'), 'utf8')));
}

/** Every "format" used anywhere in a schema. */
function formats(node: unknown, out = new Set<string>()): Set<string> {
  if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'format' && typeof v === 'string') out.add(v);
      else formats(v, out);
    }
  }
  return out;
}

describe('the published JSON Schema', () => {
  it('settings/schema.json is exactly what `kaas settings schema` prints (regenerate: node dist/cli/main.js settings schema > settings/schema.json)', () => {
    expect(readFileSync(path.join(ROOT, 'settings', 'schema.json'), 'utf8')).toBe(schemaText());
  });

  it('compiles with ajv and accepts the example environment', () => {
    const validate = compilePublished();
    const example = parseYaml(readFileSync(path.join(ROOT, 'settings', 'example.yaml'), 'utf8'));
    expect(validate(example) ? [] : validate.errors).toEqual([]);
  });

  it.each([
    ['an unknown key', { workr_count: 3 }],
    ['a wrong enum value in a cluster section', { clusters: { demo: { use_ovn_lb_provider: 'yes' } } }],
    ['a bad cluster name', { clusters: { Demo: {} } }],
    ['a CIDR without a prefix', { node_cidr: '10.8.0.0' }],
    ['an IP that is not one', { dns_nameservers: ['9.9.9'] }],
    ['a quoted boolean', { nginx_use_proxy: 'true' }],
    ['a chart repository without a scheme', { cilium_chart_repo: 'helm.cilium.io' }],
    ['a chart repository of another scheme', { clusters: { demo: { cert_manager_chart_repo: 'ftp://x' } } }],
  ])('rejects %s', (_name, doc) => {
    expect(compilePublished()(doc)).toBe(false);
  });

  it.each([
    ['legacy names', { USE_OVN_LB_PROVIDER: 'auto', RESTRICT_KUBEAPI: '[ 192.0.2.1, ]' }],
    ['Nova metadata keys', { controller_metadata: { cost_center: '4711', 'Team.Name': 'x' } }],
    ['restrict_kubeapi ["none"]', { restrict_kubeapi: ['none'] }],
    ['chart mirrors: an OCI reference and an http chart repository', { cilium_chart_repo: 'oci://quay.io/cilium/charts/cilium', clusters: { demo: { cert_manager_chart_repo: 'http://10.0.0.5:8080/jetstack' } } }],
  ])('accepts %s', (_name, doc) => {
    expect(compilePublished()(doc)).toBe(true);
  });

  it('uses only standard JSON Schema formats (works in ajv-cli and yaml-language-server)', () => {
    expect([...formats(JSON.parse(schemaText()))].sort()).toEqual(['ipv4', 'ipv6']);
  });

  it('offers no legacy SCS key for completion: they are patternProperties, not properties', () => {
    const schema = JSON.parse(schemaText());
    const offered = [...Object.keys(schema.properties), ...Object.keys(schema.definitions.cluster.properties)];
    expect(offered.filter((k) => LEGACY.has(k))).toEqual([]);
    expect(Object.keys(schema.patternProperties)).toContain('^USE_OVN_LB_PROVIDER$');
  });

  it('host bits, which no pattern can check, are still refused by kaas itself', () => {
    expect(checkValue(declOf('node_cidr'), '10.8.0.1/20', 'node_cidr')).toEqual(['node_cidr: "10.8.0.1/20" has host bits set; did you mean 10.8.0.0/20?']);
  });
});
