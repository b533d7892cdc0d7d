import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { writeOutputDir } from '../../../lib/fs/output-dir.js';
import { tempDir } from '../../support/cli.js';

const mode = (f: string) => fs.statSync(f).mode & 0o777;
/** Everything in `dir` but the user's own files and kaas's manifest: what a killed or finished run left. */
const records = (dir: string) => fs.readdirSync(dir).filter((n) => n.startsWith('.kaas-output') && n !== '.kaas-output.manifest');

describe('writeOutputDir: one command\'s files replace its previous files as a set (issue 23)', () => {
  it('a second set replaces the first: changed files new, a file the set no longer has removed, your own files untouched, secrets 0600', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'README.md'), 'my notes');
    fs.writeFileSync(path.join(dir, 'ingress-nginx.yaml'), 'mine, before kaas');
    writeOutputDir(dir, [
      { name: 'cluster.yaml', text: 'old cluster', secret: false },
      { name: 'addon-x.yaml', text: 'old addon', secret: false },
      { name: 'cloud.conf', text: 'old conf', secret: true },
    ], 'create-cluster');
    writeOutputDir(dir, [
      { name: 'cluster.yaml', text: 'new cluster', secret: false },
      { name: 'cloud.conf', text: 'new conf', secret: true },
    ], 'create-cluster');
    expect(fs.readdirSync(dir).sort()).toEqual(['.kaas-output.manifest', 'README.md', 'cloud.conf', 'cluster.yaml', 'ingress-nginx.yaml']);
    expect(fs.readFileSync(path.join(dir, 'cluster.yaml'), 'utf8')).toBe('new cluster');
    expect(fs.readFileSync(path.join(dir, 'README.md'), 'utf8')).toBe('my notes');
    expect(fs.readFileSync(path.join(dir, 'ingress-nginx.yaml'), 'utf8')).toBe('mine, before kaas');
    expect(mode(path.join(dir, 'cloud.conf'))).toBe(0o600);
    expect(mode(path.join(dir, 'cluster.yaml'))).toBe(0o644);
  });

  it('a file of the previous set that you changed since is kept, and named', () => {
    const dir = tempDir();
    writeOutputDir(dir, [{ name: 'a.yaml', text: 'a', secret: false }, { name: 'b.yaml', text: 'b', secret: false }], 'create-cluster');
    fs.writeFileSync(path.join(dir, 'b.yaml'), 'b, edited by hand');
    const warnings: string[] = [];
    writeOutputDir(dir, [{ name: 'a.yaml', text: 'a2', secret: false }], 'create-cluster', (m) => warnings.push(m));
    expect(fs.readFileSync(path.join(dir, 'b.yaml'), 'utf8')).toBe('b, edited by hand');
    expect(warnings).toEqual([`kept ${path.join(dir, 'b.yaml')}: the previous create-cluster wrote it, this one does not, and it was changed since`]);
  });

  it('sets of different commands in one directory do not remove each other\'s files; sub-directories are written too', () => {
    const dir = tempDir();
    writeOutputDir(dir, [{ name: 'cluster.yaml', text: 'c', secret: false }], 'create-cluster');
    writeOutputDir(dir, [{ name: 'web/httproute-a.yaml', text: 'r', secret: false }], 'migrate-ingress');
    writeOutputDir(dir, [{ name: 'web/httproute-b.yaml', text: 'r2', secret: false }], 'migrate-ingress');
    expect(fs.readFileSync(path.join(dir, 'cluster.yaml'), 'utf8')).toBe('c');
    expect(fs.readdirSync(path.join(dir, 'web'))).toEqual(['httproute-b.yaml']);
    expect(records(dir)).toEqual([]);
  });

  it('a FIFO where a file of the set goes is refused before anything is written (the old set stays whole)', () => {
    const dir = tempDir();
    writeOutputDir(dir, [{ name: 'a.yaml', text: 'old', secret: false }], 'create-cluster');
    expect(spawnSync('mkfifo', [path.join(dir, 'b.yaml')]).status).toBe(0);
    expect(() => writeOutputDir(dir, [{ name: 'a.yaml', text: 'new', secret: false }, { name: 'b.yaml', text: 'x', secret: false }], 'create-cluster'))
      .toThrow(`cannot write ${path.join(dir, 'b.yaml')}: it is a named pipe (FIFO), not a regular file`);
    expect(fs.readFileSync(path.join(dir, 'a.yaml'), 'utf8')).toBe('old');
    expect(records(dir)).toEqual([]);
  });

  // Issue 31, section 5: links planted in --output-dir were written through (files outside DIR, exit 0).
  it.each([
    ['a link at a file of the set', (dir: string, outside: string) => fs.symlinkSync(path.join(outside, 'victim'), path.join(dir, 'b.yaml')), 'b.yaml', 'it is a symbolic link to'],
    ['a link at a namespace folder', (dir: string, outside: string) => fs.symlinkSync(outside, path.join(dir, 'ns')), 'ns', 'it is a symbolic link to'],
    ['a FIFO at a namespace folder', (dir: string) => expect(spawnSync('mkfifo', [path.join(dir, 'ns')]).status).toBe(0), 'ns', 'it is a named pipe (FIFO), not a directory'],
    ['a file at a namespace folder', (dir: string) => fs.writeFileSync(path.join(dir, 'ns'), 'mine'), 'ns', 'it is a regular file, not a directory'],
  ])('%s is refused before anything is written, nothing outside DIR is touched, no commit marker is left', (_what, plant, at, said) => {
    const dir = tempDir();
    const outside = tempDir();
    writeOutputDir(dir, [{ name: 'a.yaml', text: 'old', secret: false }], 'migrate-ingress');
    plant(dir, outside);
    expect(() => writeOutputDir(dir, [{ name: 'a.yaml', text: 'new', secret: false }, { name: 'b.yaml', text: 'x', secret: false }, { name: 'ns/svc.yaml', text: 'y', secret: true }], 'migrate-ingress'))
      .toThrow(`cannot write ${path.join(dir, at)}: `);
    expect(() => writeOutputDir(dir, [{ name: 'b.yaml', text: 'x', secret: false }, { name: 'ns/svc.yaml', text: 'y', secret: false }], 'migrate-ingress')).toThrow(said);
    expect(fs.readFileSync(path.join(dir, 'a.yaml'), 'utf8')).toBe('old');
    expect(fs.readdirSync(outside)).toEqual([]);
    expect(records(dir)).toEqual([]);
  });
});
