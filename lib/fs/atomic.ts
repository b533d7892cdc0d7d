import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDir } from './dir.js';
import { withFsErrors } from './errors.js';
import { removeStaleTemps } from './owner.js';
import { UsageError } from '../errors.js';

/**
 * Whole-file writes that never leave a half-written or missing file behind: the text goes to a
 * temporary file beside the target (created O_EXCL|O_NOFOLLOW, mode 0600 from the first byte),
 * is fsynced, gets its final mode, and is renamed over the target; then the directory is fsynced.
 * A crash or a full disk leaves the old file as it was; the temporary file a killed run left is
 * removed by the next write of the same file (its process is gone, see owner.ts).
 *
 * Hand-written rather than write-file-atomic (v7): that package opens its temporary file with
 * flag 'w' (no O_EXCL, follows a symlink planted at its predictable murmurhash name), always follows
 * a symlink at the target (kaas's own secret files must not), and does not fsync the directory.
 */

export interface AtomicWriteOptions {
  /** Mode of a new file (default 0644). An existing file keeps its mode, except with `secret`. */
  mode?: number;
  /**
   * The file holds secrets: always mode 0600, parent directories created 0700, and a symlink at
   * the path is replaced by the file, never followed (so a planted link cannot redirect secrets).
   */
  secret?: boolean;
  /**
   * The user named this path (`--output-file`): a character device or FIFO there (`/dev/stdout`, a
   * named pipe, `/dev/null`) is written to in place, and symbolic links are followed, since the user
   * chose them. Without it such a path is refused (exit 2), never renamed over.
   */
  stream?: boolean;
}

/** What is at a path when it is neither missing nor a regular file (links followed). */
export function specialKind(file: string): string | undefined {
  let st: fs.Stats;
  try {
    st = fs.statSync(file);
  } catch {
    return undefined;
  }
  if (st.isFile() || st.isDirectory()) return undefined;
  if (st.isCharacterDevice()) return 'character device';
  if (st.isFIFO()) return 'named pipe (FIFO)';
  if (st.isBlockDevice()) return 'block device';
  if (st.isSocket()) return 'socket';
  return 'special file';
}

/** A chain of links that ends at one of this process's descriptors (/dev/stdout → /proc/self/fd/1). */
function viaDescriptor(file: string): boolean {
  let p = file;
  for (let hops = 0; hops < 40; hops++) {
    if (/^\/(proc\/[^/]+\/fd|dev\/fd)\//.test(p)) return true;
    let link: string;
    try {
      if (!fs.lstatSync(p).isSymbolicLink()) return false;
      link = fs.readlinkSync(p);
    } catch {
      return false;
    }
    p = path.resolve(path.dirname(p), link);
  }
  return false;
}

/** Sleeps the thread briefly (a FIFO whose reader is slow answers EAGAIN to a non-blocking write). */
const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Writes `text` into a device, FIFO or descriptor in place. Opened non-blocking: a FIFO nobody reads
 * is an error (ENXIO), not a run that hangs for ever; a reader slower than 30 s is one too.
 */
function streamInto(file: string, text: string): void {
  withFsErrors(file, 'write', () => {
    const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK | fs.constants.O_TRUNC);
    try {
      const buf = Buffer.from(text);
      const deadline = Date.now() + 30_000;
      for (let off = 0; off < buf.length; ) {
        try {
          off += fs.writeSync(fd, buf, off);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || Date.now() > deadline) throw err;
          pause(10);
        }
      }
    } finally {
      fs.closeSync(fd);
    }
  });
}

/**
 * Where a write to `file` lands: a symlink is followed to its target (a user's ~/.kube/config
 * or settings file linked from a dotfiles repository stays a link), unless the file is secret.
 */
export function writeTarget(file: string, secret = false): string {
  if (secret) return file;
  let target = file;
  for (let hops = 0; hops < 40; hops++) {
    let st: fs.Stats;
    try {
      st = fs.lstatSync(target);
    } catch {
      return target; // not there (yet): the dangling link's target is created
    }
    if (!st.isSymbolicLink()) return target;
    target = path.resolve(path.dirname(target), fs.readlinkSync(target));
  }
  return target;
}

/** Atomically replaces (or creates) `file` with `text`; see the module comment for the guarantees. */
export function writeFileAtomic(file: string, text: string, opts: AtomicWriteOptions = {}): void {
  const kind = specialKind(file);
  if (kind && opts.stream && (kind === 'character device' || kind.startsWith('named pipe'))) return streamInto(file, text);
  if (kind) {
    throw new UsageError(`cannot write ${file}: it is a ${kind}, not a regular file; kaas writes only regular files and never replaces anything else`, {
      hint: opts.stream ? 'name a regular file, a character device (e.g. /dev/stdout) or a named pipe' : 'name a regular file (or remove what is there); nothing was written',
    });
  }
  // /dev/stdout redirected to a file: write through the descriptor, never replace the link in /dev.
  if (opts.stream && viaDescriptor(file)) return streamInto(file, text);
  const target = writeTarget(file, opts.secret && !opts.stream);
  const dir = path.dirname(target);
  ensureDir(dir, opts.secret ? 0o700 : 0o755);
  withFsErrors(target, 'write', () => {
    const old = statOrUndefined(target);
    if (old?.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${target}'`), { code: 'EISDIR', syscall: 'open', path: target });
    const mode = opts.secret ? 0o600 : old ? old.mode & 0o7777 : (opts.mode ?? 0o644);
    // What a run killed mid-write (kill -9, power loss) left beside this file goes first.
    removeStaleTemps(dir, path.basename(target));
    const tmp = path.join(dir, `.${path.basename(target)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    const flags = fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW;
    const fd = fs.openSync(tmp, flags, 0o600);
    try {
      if (mode !== 0o600) fs.fchmodSync(fd, mode);
      // Root editing another user's file must not hand it over to root.
      if (old && !opts.secret && process.getuid?.() === 0 && old.uid !== 0) fs.fchownSync(fd, old.uid, old.gid);
      fs.writeFileSync(fd, text);
      fs.fsyncSync(fd);
    } catch (err) {
      fs.closeSync(fd);
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    fs.closeSync(fd);
    try {
      fs.renameSync(tmp, target);
    } catch (err) {
      fs.rmSync(tmp, { force: true });
      throw err;
    }
    syncDir(dir);
  });
}

export function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes renames in `dir` durable; some file systems refuse fsync on a directory, which is harmless. */
export function syncDir(dir: string): void {
  let fd: number | undefined;
  try {
    fd = fs.openSync(dir, fs.constants.O_RDONLY);
    fs.fsyncSync(fd);
  } catch {
    // EINVAL/EISDIR on some file systems: the rename itself is still atomic.
  } finally {
    if (fd !== undefined) fs.closeSync(fd);
  }
}
