import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import YAML from 'yaml';
import { cleanEnv, KAAS, ROOT, tempDir } from '../support/cli.js';

function kaasAsync(args: string[]): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [KAAS, ...args], { cwd: ROOT, env: cleanEnv(), stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

describe('concurrent kaas settings import into one environment file (built CLI)', () => {
  it('six imports at once: every section lands, the file stays valid, its mode and symlink are kept', async () => {
    const dir = tempDir('kaas-settings-');
    const real = path.join(dir, 'real');
    fs.mkdirSync(real);
    fs.writeFileSync(path.join(real, 'prod.yaml'), '# my settings\nworker_count: 2\n', { mode: 0o600 });
    fs.symlinkSync('real/prod.yaml', path.join(dir, 'prod.yaml'));
    const names = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot'];
    const runs = await Promise.all(names.map((n) => kaasAsync(['settings', 'import', 'test/fixtures/scs/clusterctl.yaml', '--cluster', n, '--env', 'prod', '--settings-dir', dir])));
    for (const r of runs) expect(r).toMatchObject({ code: 0 });
    const text = fs.readFileSync(path.join(real, 'prod.yaml'), 'utf8');
    expect(Object.keys(YAML.parse(text).clusters).sort()).toEqual(names);
    expect(text).toContain('# my settings');
    expect(fs.lstatSync(path.join(dir, 'prod.yaml')).isSymbolicLink()).toBe(true);
    expect(fs.statSync(path.join(real, 'prod.yaml')).mode & 0o777).toBe(0o600);
    expect(fs.readdirSync(real).sort()).toEqual(['prod.yaml']); // no temp file, no lock left
  });
});
