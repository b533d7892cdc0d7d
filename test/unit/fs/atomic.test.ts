import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { mergeContexts } from '../../../lib/state/kubeconfig.js';
import { KaasError } from '../../../lib/errors.js';
import { writeFileAtomic } from '../../../lib/fs/atomic.js';
import { ensureDir } from '../../../lib/fs/dir.js';
import { tempDir } from '../../support/cli.js';

const mode = (f: string) => fs.statSync(f).mode & 0o777;
const leftovers = (dir: string) => fs.readdirSync(dir).filter((f) => f.endsWith('.tmp'));

function caught(fn: () => unknown): KaasError {
  try {
    fn();
  } catch (e) {
    return e as KaasError;
  }
  throw new Error('no error thrown');
}

describe('writeFileAtomic: modes and symlinks', () => {
  it('an existing file keeps its mode (0600 stays 0600, 0640 stays 0640); a new one gets the given mode', () => {
    const dir = tempDir();
    for (const m of [0o600, 0o640]) {
      const f = path.join(dir, `f${m.toString(8)}`);
      fs.writeFileSync(f, 'old');
      fs.chmodSync(f, m);
      writeFileAtomic(f, 'new', { mode: 0o644 });
      expect(fs.readFileSync(f, 'utf8')).toBe('new');
      expect(mode(f)).toBe(m);
    }
    writeFileAtomic(path.join(dir, 'fresh'), 'x', { mode: 0o640 });
    expect(mode(path.join(dir, 'fresh'))).toBe(0o640);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a symlinked user file is written through: the link stays, the target changes', () => {
    const dir = tempDir();
    const target = path.join(dir, 'dotfiles', 'config');
    fs.mkdirSync(path.dirname(target));
    fs.writeFileSync(target, 'old', { mode: 0o600 });
    const link = path.join(dir, 'config');
    fs.symlinkSync('dotfiles/config', link);
    writeFileAtomic(link, 'new');
    expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
    expect(fs.readFileSync(target, 'utf8')).toBe('new');
    expect(mode(target)).toBe(0o600);
  });

  it('a secret file is 0600 whatever was there, and a planted symlink is replaced, never followed', () => {
    const dir = tempDir();
    const victim = path.join(dir, 'victim');
    fs.writeFileSync(victim, 'untouched', { mode: 0o644 });
    const f = path.join(dir, 'cloud.conf');
    fs.symlinkSync(victim, f);
    writeFileAtomic(f, 'secret', { secret: true });
    expect(fs.readFileSync(victim, 'utf8')).toBe('untouched');
    expect(fs.lstatSync(f).isSymbolicLink()).toBe(false);
    expect(mode(f)).toBe(0o600);
    fs.chmodSync(f, 0o644);
    writeFileAtomic(f, 'secret2', { secret: true });
    expect(mode(f)).toBe(0o600);
  });

  it('secret parents are created 0700', () => {
    const dir = tempDir();
    writeFileAtomic(path.join(dir, 'a', 'b', 'kubeconfig'), 'x', { secret: true });
    expect(mode(path.join(dir, 'a'))).toBe(0o700);
    expect(mode(path.join(dir, 'a', 'b'))).toBe(0o700);
  });
});

describe('file-system errors name the path and a fix (exit 2 for a bad path, 1 for a failing machine)', () => {
  it('EISDIR: the target is a directory', () => {
    const dir = tempDir();
    fs.mkdirSync(path.join(dir, 'cloud.conf'));
    const e = caught(() => writeFileAtomic(path.join(dir, 'cloud.conf'), 'x'));
    expect(e).toBeInstanceOf(KaasError);
    expect(e.message).toBe(`cannot write ${path.join(dir, 'cloud.conf')}: is a directory`);
    expect(e.exitCode).toBe(2);
  });

  it('ENOTDIR: a component is a file', () => {
    const dir = tempDir();
    fs.writeFileSync(path.join(dir, 'file'), '');
    const e = caught(() => ensureDir(path.join(dir, 'file', 'sub')));
    expect(e.message).toContain('has a part that is not a directory');
    expect(e.exitCode).toBe(2);
  });

  it('EACCES: a read-only directory (as a user without root rights)', () => {
    const dir = tempDir();
    fs.chmodSync(dir, 0o500);
    // root ignores directory modes: the write runs as "nobody" to meet the real EACCES. The module is
    // loaded first, as root, so that the checkout need not be readable by nobody (a `mktemp -d` clone is not).
    const drop = process.getuid?.() === 0 ? 'process.setgroups([]); process.setgid(65534); process.setuid(65534);' : '';
    const script = `import('${path.resolve('dist/lib/fs/atomic.js')}').then((m) => { ${drop} try { m.writeFileAtomic('${dir}/f', 'x'); } catch (e) { console.log(JSON.stringify({ m: e.message, c: e.exitCode, h: e.hint })); } })`;
    fs.chmodSync(dir, 0o555);
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' });
    const out = JSON.parse(r.stdout) as { m: string; c: number; h: string };
    expect(out.m).toBe(`cannot write ${dir}/f: permission denied`);
    expect(out.c).toBe(2);
    expect(out.h).toMatch(/owner and mode/);
  });

  it('--output-dir under /proc fails at once instead of spinning in mkdir', () => {
    const e = caught(() => ensureDir('/proc/kaas-no-such-dir/out', 0o755, '--output-dir'));
    expect(e.message).toBe('--output-dir /proc/kaas-no-such-dir/out is on proc, a kernel file system that holds no files');
    expect(e.exitCode).toBe(2);
  });
});

/** A 64 KiB tmpfs (this suite runs as root in CI and here): a real full disk, not a mock. */
describe('a full disk (tmpfs, 64 KiB)', () => {
  let mnt = '';
  beforeAll(() => {
    mnt = tempDir('kaas-tmpfs-');
    const r = spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', mnt], { encoding: 'utf8' });
    if (r.status !== 0) throw new Error(`cannot mount a tmpfs (the full-disk tests need root): ${r.stderr}`);
  });
  afterAll(() => {
    spawnSync('umount', [mnt]);
  });

  it('ENOSPC while merging a kubeconfig: exit 1 naming the file, every old context kept, no temp file left', async () => {
    const kubeconfig = path.join(mnt, 'config');
    const old = 'apiVersion: v1\nkind: Config\nclusters:\n- name: prod\n  cluster: {server: "https://prod:6443"}\ncontexts:\n- name: prod\n  context: {cluster: prod, user: prod}\nusers:\n- name: prod\n  user: {token: abc}\ncurrent-context: prod\n';
    fs.writeFileSync(kubeconfig, old, { mode: 0o600 });
    // Fill the disk, leaving less room than the merged file needs.
    const filler = path.join(mnt, 'filler');
    const fd = fs.openSync(filler, 'w');
    try {
      for (;;) fs.writeSync(fd, Buffer.alloc(1024));
    } catch {
      // ENOSPC: full
    }
    fs.closeSync(fd);
    const big = `apiVersion: v1\nkind: Config\nclusters:\n- name: demo\n  cluster: {server: "https://demo:6443", certificate-authority-data: ${'A'.repeat(8192)}}\ncontexts:\n- name: demo-admin@demo\n  context: {cluster: demo, user: demo-admin}\nusers:\n- name: demo-admin\n  user: {token: xyz}\n`;
    let err: KaasError | undefined;
    try {
      await mergeContexts(kubeconfig, big, '');
    } catch (e) {
      err = e as KaasError;
    }
    expect(err).toBeInstanceOf(KaasError);
    expect(err!.message).toMatch(new RegExp(`^cannot (write|lock) ${kubeconfig}: no space left on the device$`));
    expect(err!.exitCode).toBe(1);
    expect(err!.hint).toMatch(/free some space/);
    expect(fs.readFileSync(kubeconfig, 'utf8')).toBe(old);
    expect(leftovers(mnt)).toEqual([]);
    fs.rmSync(filler);
    // With room again the same merge lands, and the old context is still there.
    expect(await mergeContexts(kubeconfig, big, '')).toEqual(['demo-admin@demo']);
    expect(fs.readFileSync(kubeconfig, 'utf8')).toContain('name: prod');
    expect(mode(kubeconfig)).toBe(0o600);
  });
});

/** Issue 23, item 2: a write used to rename over device nodes, FIFOs and /dev/stdout-style links. */
describe('writeFileAtomic: special files are written in place or refused, never replaced', () => {
  const fifo = (dir: string, name = 'pipe') => {
    const f = path.join(dir, name);
    expect(spawnSync('mkfifo', [f]).status).toBe(0);
    return f;
  };

  it.each([{ secret: false }, { secret: true }])('a FIFO (and a link to one) at a settings path is refused, exit 2, and stays a FIFO (%j)', (o) => {
    const dir = tempDir();
    const f = fifo(dir);
    fs.symlinkSync(f, path.join(dir, 'link'));
    for (const p of [f, path.join(dir, 'link')]) {
      const e = caught(() => writeFileAtomic(p, 'x', o));
      expect(e.message).toBe(`cannot write ${p}: it is a named pipe (FIFO), not a regular file; kaas writes only regular files and never replaces anything else`);
      expect(e.exitCode).toBe(2);
    }
    expect(fs.lstatSync(f).isFIFO()).toBe(true);
    expect(fs.lstatSync(path.join(dir, 'link')).isSymbolicLink()).toBe(true);
    expect(leftovers(dir)).toEqual([]);
  });

  it('a link to a character device at a kaas-kept secret path is refused, the link kept', () => {
    const dir = tempDir();
    const link = path.join(dir, 'kubeconfig');
    fs.symlinkSync('/dev/null', link);
    const e = caught(() => writeFileAtomic(link, 'x', { secret: true }));
    expect(e.message).toContain('it is a character device, not a regular file');
    expect(fs.readlinkSync(link)).toBe('/dev/null');
  });

  it('a user-named FIFO (--output-file) is streamed into when someone reads it', () => {
    const dir = tempDir();
    const f = fifo(dir);
    const reader = fs.openSync(f, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
    try {
      writeFileAtomic(f, 'kubeconfig\n', { secret: true, stream: true });
      const buf = Buffer.alloc(100);
      expect(buf.toString('utf8', 0, fs.readSync(reader, buf))).toBe('kubeconfig\n');
    } finally {
      fs.closeSync(reader);
    }
    expect(fs.lstatSync(f).isFIFO()).toBe(true);
  });

  it('a user-named FIFO nobody reads is an error naming it (exit 2), not a hang', () => {
    const dir = tempDir();
    const f = fifo(dir);
    const e = caught(() => writeFileAtomic(f, 'x', { secret: true, stream: true }));
    expect(e.message).toBe(`cannot write ${f}: is a named pipe nobody reads (or a device with no driver)`);
    expect(e.exitCode).toBe(2);
  });

  it('a user-named link to this process\'s descriptor (/dev/stdout redirected to a file) writes through it; the link stays', () => {
    const dir = tempDir();
    const target = path.join(dir, 'redirected');
    const fd = fs.openSync(target, 'w');
    try {
      const link = path.join(dir, 'stdout');
      fs.symlinkSync(`/proc/self/fd/${fd}`, link);
      writeFileAtomic(link, 'kubeconfig', { secret: true, stream: true });
      expect(fs.lstatSync(link).isSymbolicLink()).toBe(true);
      expect(fs.readFileSync(target, 'utf8')).toBe('kubeconfig');
    } finally {
      fs.closeSync(fd);
    }
  });
});
