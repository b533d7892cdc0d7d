import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { withFsErrors } from './errors.js';

/**
 * Creating output directories. `mkdirSync(..., { recursive: true })` spins forever at 100% CPU
 * for a path under /proc (the kernel answers ENOENT for every attempt), so kaas creates the
 * missing components one by one, and refuses kernel file systems before touching anything.
 */

/** statfs magic numbers of the kernel's pseudo file systems (linux/magic.h). */
const PSEUDO_FS: Record<number, string> = {
  0x9fa0: 'proc',
  0x62656572: 'sysfs',
  0x1cd1: 'devpts',
  0x64626720: 'debugfs',
  0x74726163: 'tracefs',
  0x27e0eb: 'cgroup',
  0x63677270: 'cgroup2',
  0x73636673: 'securityfs',
  0x6e736673: 'nsfs',
  0xcafe4a11: 'bpf',
  0x42494e4d: 'binfmt_misc',
  0xf97cff8c: 'selinuxfs',
  0x50495045: 'pipefs',
};

/** The nearest ancestor of `dir` (or `dir` itself) that exists. */
function existingAncestor(dir: string): string {
  let p = dir;
  while (!fs.existsSync(p) && path.dirname(p) !== p) p = path.dirname(p);
  return p;
}

/** Throws a UsageError when `dir` lies on a kernel pseudo file system (/proc, /sys, …). */
export function refusePseudoFs(dir: string, what = 'output directory'): void {
  const base = existingAncestor(path.resolve(dir));
  let type: number | undefined;
  try {
    type = Number(fs.statfsSync(base).type);
  } catch {
    return; // statfs unsupported: the mkdir below still reports a clear error
  }
  const name = PSEUDO_FS[type];
  if (name) throw new UsageError(`${what} ${dir} is on ${name}, a kernel file system that holds no files`, { hint: 'choose a directory on a disk, e.g. ./out' });
}

/** Creates `dir` and its missing parents (new ones with `mode`); refuses kernel file systems. */
export function ensureDir(dir: string, mode = 0o755, what = 'directory'): void {
  const abs = path.resolve(dir);
  refusePseudoFs(abs, what);
  const missing: string[] = [];
  for (let p = abs; !fs.existsSync(p) && path.dirname(p) !== p; p = path.dirname(p)) missing.unshift(p);
  for (const p of missing) {
    withFsErrors(p, 'create the directory', () => {
      try {
        fs.mkdirSync(p, { mode });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err; // a concurrent run made it
      }
    });
  }
  withFsErrors(abs, 'use the directory', () => {
    if (!fs.statSync(abs).isDirectory()) throw Object.assign(new Error(`ENOTDIR: not a directory, '${abs}'`), { code: 'ENOTDIR', syscall: 'stat', path: abs });
  });
}
