import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseYaml } from 'yaml';
import { isIp, parseCidr } from '../../../lib/net/cidr.js';
import { schemaText } from '../../../lib/settings/show.js';
import { ROOT } from '../../support/cli.js';

/** The published schema, compiled the way an editor would (kaas's custom formats registered). */
function compilePublished() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  ajv.addFormat('kaas-cidr', (s: string) => !('error' in parseCidr(s)));
  ajv.addFormat('kaas-cidr-or-ip', (s: string) => !('error' in parseCidr(s, true)));
  ajv.addFormat('kaas-ip', (s: string) => isIp(s));
  return ajv.compile(JSON.parse(readFileSync(path.join(ROOT, 'settings', 'schema.json'), 'utf8')));
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
    ['a CIDR with host bits', { node_cidr: '10.8.0.1/20' }],
    ['a quoted boolean', { nginx_use_proxy: 'true' }],
  ])('rejects %s', (_name, doc) => {
    expect(compilePublished()(doc)).toBe(false);
  });

  it.each([
    ['legacy names', { USE_OVN_LB_PROVIDER: 'auto', RESTRICT_KUBEAPI: '[ 192.0.2.1, ]' }],
    ['Nova metadata keys', { controller_metadata: { cost_center: '4711', 'Team.Name': 'x' } }],
    ['restrict_kubeapi ["none"]', { restrict_kubeapi: ['none'] }],
  ])('accepts %s', (_name, doc) => {
    expect(compilePublished()(doc)).toBe(true);
  });
});
