import { parseSettingsFile } from '../../../lib/settings/file.js';

/**
 * Issue 23, item 5: every alias of a settings file was resolved by walking the whole document
 * (143 KB: 71 s), and a small file could expand to a million values through its aliases.
 */
describe('settings aliases resolve in one walk and cannot amplify', () => {
  it('thousands of aliases in one file resolve (each to the anchor before it)', () => {
    const n = 6000;
    const lines = ['clusters:', '  demo:', '    worker_metadata:'];
    for (let i = 0; i < n; i++) lines.push(`      k${i}: &a${i} v${i}`);
    lines.push('    controller_metadata:');
    for (let i = 0; i < n; i++) lines.push(`      j${i}: *a${i}`);
    const parsed = parseSettingsFile(lines.join('\n') + '\n', 'many.yaml');
    expect(parsed.problems).toEqual([]);
    const meta = parsed.clusters.get('demo')?.values.controller_metadata as Record<string, string>;
    expect(Object.keys(meta)).toHaveLength(n);
    expect(meta.j5999).toBe('v5999');
  });

  it('a redefined anchor: an alias names the latest definition before it', () => {
    const parsed = parseSettingsFile('x-a: &m 1400\nmtu: *m\nx-b: &m 1500\nclusters:\n  demo:\n    mtu: *m\n', 'redef.yaml');
    expect(parsed.environment.values.mtu).toBe(1400);
    expect(parsed.clusters.get('demo')?.values.mtu).toBe(1500);
  });

  it('300 clusters aliasing one 3 000-item list (900 000 values from 32 KiB) is refused as an alias bomb', () => {
    const lines = [`x: &l [${Array.from({ length: 3000 }, (_, i) => `'10.0.${i % 250}.1'`).join(', ')}]`, 'clusters:'];
    for (let i = 0; i < 300; i++) lines.push(`  c${i}:\n    dns_nameservers: *l`);
    const parsed = parseSettingsFile(lines.join('\n') + '\n', 'amplified.yaml');
    expect(parsed.problems).toEqual(['amplified.yaml:1:1: its aliases expand to more than 200000 values (an alias bomb); write the values out']);
  });
});
