import { parseSettingsFile } from '../../../lib/settings/file.js';
import { convertScs } from '../../../lib/import/import.js';

/**
 * Issue 23, also wrong: aliases in an SCS clusterctl.yaml were not resolved (the setting got
 * {"source": "f"}), and a self-referencing alias gave "Converting circular structure to JSON".
 */
const convert = (text: string) => convertScs({ clusterctl: { text, file: 'clusterctl.yaml' } });

describe('SCS clusterctl.yaml aliases', () => {
  it('an alias takes its anchor\'s value, as any YAML reader does (scalars and lists)', () => {
    const c = convert('OPENSTACK_FLAVOR: &f SCS-2V-4\nOPENSTACK_CONTROL_PLANE_MACHINE_FLAVOR: *f\nx-dns: &d [9.9.9.9, 1.1.1.1]\nOPENSTACK_DNS_NAMESERVERS: *d\nKUBERNETES_VERSION: v1.33.4\n');
    expect(c.problems).toEqual([]);
    expect(c.values.controller_flavor).toBe('SCS-2V-4');
    expect(c.values.dns_nameservers).toEqual(['9.9.9.9', '1.1.1.1']);
  });

  it.each([
    ['a list', 'OPENSTACK_DNS_NAMESERVERS: &d [1.1.1.1, *d]\n', 'clusterctl.yaml:1:31: OPENSTACK_DNS_NAMESERVERS: the alias *d is inside its own anchor &d: a value cannot contain itself; write the value out'],
    ['a map', 'OPENSTACK_DNS_NAMESERVERS: &d {a: *d}\n', 'clusterctl.yaml:1:31: OPENSTACK_DNS_NAMESERVERS: the alias *d is inside its own anchor &d: a value cannot contain itself; write the value out'],
    ['two levels', 'X: &o {in: &i [*o]}\n', 'clusterctl.yaml:1:7: X: the alias *o is inside its own anchor &o: a value cannot contain itself; write the value out'],
  ])('an alias inside its own anchor (%s) is a problem naming it, never a crash', (_what, text, said) => {
    let c: ReturnType<typeof convert> | undefined;
    expect(() => (c = convert(text))).not.toThrow();
    expect(c!.problems).toEqual([said]);
  });

  it('an alias naming no anchor is a problem, not a silently dropped key', () => {
    expect(convert('KUBERNETES_VERSION: v1.33.4\nOPENSTACK_FLAVOR: *nope\n').problems).toEqual(['clusterctl.yaml:2:19: OPENSTACK_FLAVOR: the alias *nope names no anchor (define &nope before it, or write the value out)']);
  });
});

describe('settings files: an alias inside its own anchor', () => {
  it('names the alias, not "aliases expand to more than 1000 copies"', () => {
    const parsed = parseSettingsFile('clusters:\n  demo:\n    dns_nameservers: &d [1.1.1.1, *d]\n', 'self.yaml');
    expect(parsed.problems.join('\n')).toContain('clusters.demo.dns_nameservers: the alias *d is inside its own anchor &d: a value cannot contain itself');
  });
});
