import { UsageError } from '../../../lib/errors.js';
import { resolveCloudConfig } from '../../../lib/openstack/cloud-config.js';
import { checkClusterName } from '../../../lib/settings/cluster-name.js';
import { parseSettingsFile } from '../../../lib/settings/file.js';
import { flagLayer } from '../../../lib/settings/sources.js';
import { hiddenNote, visibleName } from '../../../lib/visible.js';

/**
 * Issue 23, also wrong: a key with an invisible or look-alike character was printed raw, so
 * "mtu​: unknown setting; did you mean mtu?" showed two identical names. Such characters are
 * escaped (\u200b) wherever a name is shown, with a note saying what they are.
 */
describe('invisible and look-alike characters in names are shown escaped', () => {
  it.each([
    ['zero-width space', 'mtu\u200b', 'mtu\\u200b'],
    ['Cyrillic e', 'd\u0435mo', 'd\\u0435mo'],
    ['no-break space', 'worker\u00a0count', 'worker\\u00a0count'],
    ['right-to-left override', 'mt\u202eu', 'mt\\u202eu'],
    ['a tab', 'mtu\t', 'mtu\\u0009'],
    ['a tag character (outside the BMP, invisible)', 'x\u{e0041}', 'x\\u{e0041}'],
    ['a visible non-ASCII letter stays as it is', 'd\u00e4mo', 'd\u00e4mo'],
    ['plain ASCII stays as it is', 'worker_count', 'worker_count'],
  ])('%s', (_what, name, shown) => {
    expect(visibleName(name)).toBe(shown);
    expect(hiddenNote(name) === '').toBe(name === shown);
  });

  it('settings files: an unknown key and a cluster name, each escaped with the note', () => {
    const p = parseSettingsFile('mtu\u200b: 1400\nclusters:\n  d\u0435mo: {}\n', 's.yaml').problems;
    expect(p).toEqual([
      's.yaml:1:1: mtu\\u200b: unknown setting; did you mean mtu? (it holds \\u200b: a character invisible or looking like another; retype the name)',
      "s.yaml:3:3: clusters.d\\u0435mo: a cluster name must be lower-case letters, digits and '-', start with a letter and end with a letter or digit, at most 40 characters (it becomes part of Kubernetes, node and OpenStack resource names) (it holds \\u0435: a character invisible or looking like another; retype the name)",
    ]);
    for (const line of p) expect(line).not.toMatch(/[\u200b\u0435]/);
  });

  it('--set, a cluster argument and clouds.yaml entry names', () => {
    expect(flagLayer(['mt\u200bu=1400']).problems.join('\n')).toContain('--set mt\\u200bu: unknown setting');
    expect(() => checkClusterName('d\u0435mo')).toThrow('cluster name "d\\u0435mo" is not valid: it holds \\u0435');
    const err = (() => {
      try {
        resolveCloudConfig({ cloudFlag: 'c', environ: { OS_CLIENT_CONFIG_FILE: '/x/clouds.yaml' }, cwd: '/', home: '/nonexistent', exists: (p: string) => p === '/x/clouds.yaml', readFile: () => 'clouds:\n  c\u200b: {}\n' } as Parameters<typeof resolveCloudConfig>[0]);
      } catch (e) {
        return e as UsageError;
      }
    })();
    expect(err?.problems).toEqual(['clouds defined: c\\u200b']);
  });
});
