import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadSettings, validateAll } from '../../../lib/settings/load.js';
import { validateSettings } from '../../../lib/settings/show.js';
import { ROOT, tempDir } from '../../support/cli.js';

/**
 * Environment "example" outside a checkout (an installed package, the single-file executable):
 * kaas's own settings/example.yaml, so that the quick start works from any directory.
 */
describe('the bundled example environment', () => {
  const example = path.join(ROOT, 'settings', 'example.yaml');

  it('is read from the package when the settings directory has no example.yaml', () => {
    const dir = tempDir();
    const r = loadSettings({ settingsDir: dir, env: 'example', cluster: 'demo', environ: {}, cwd: dir });
    expect(r.file).toBe(example);
    expect(r.values.cloud).toBe('example-cloud');
    expect(r.origins.cloud).toMatchObject({ kind: 'file', file: example, line: expect.any(Number) });
    // The example lists its clusters: a typo still gets the did-you-mean.
    expect(loadSettings({ settingsDir: dir, env: 'example', cluster: 'dmo', environ: {}, cwd: dir }).warnings.join('\n')).toMatch(/demo/);
  });

  it('validates as a file that exists', () => {
    const dir = tempDir();
    expect(validateAll({ settingsDir: dir, env: 'example', environ: {}, cwd: dir }).file).toBe(example);
    expect(validateSettings({ settingsDir: dir, env: 'example', environ: {}, cwd: dir, warn: () => undefined }).data.file).toBe(example);
  });

  it("gives way to the settings directory's own example.yaml", () => {
    const dir = tempDir();
    writeFileSync(path.join(dir, 'example.yaml'), 'cloud: mine\n');
    expect(loadSettings({ settingsDir: dir, env: 'example', environ: {}, cwd: dir }).values.cloud).toBe('mine');
  });

  it('stands in for no other environment', () => {
    const dir = tempDir();
    mkdirSync(path.join(dir, 'sub'));
    expect(() => loadSettings({ settingsDir: path.join(dir, 'sub'), env: 'examples', environ: {}, cwd: dir })).toThrow(/settings file .*examples\.yaml not found/);
  });
});
