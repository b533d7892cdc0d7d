import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ensureDir } from './dir.js';
import { withFsErrors } from './errors.js';

/**
 * Whole-file writes that never leave a half-written or missing file behind: the text goes to a
 * temporary file beside the target (created O_EXCL|O_NOFOLLOW, mode 0600 from the first byte),
 * is fsynced, gets its final mode, and is renamed over the target; then the directory is fsynced.
 * A crash or a full disk leaves the old file as it was.
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
  const target = writeTarget(file, opts.secret);
  const dir = path.dirname(target);
  ensureDir(dir, opts.secret ? 0o700 : 0o755);
  withFsErrors(target, 'write', () => {
    const old = statOrUndefined(target);
    if (old?.isDirectory()) throw Object.assign(new Error(`EISDIR: illegal operation on a directory, open '${target}'`), { code: 'EISDIR', syscall: 'open', path: target });
    const mode = opts.secret ? 0o600 : old ? old.mode & 0o7777 : (opts.mode ?? 0o644);
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

function statOrUndefined(file: string): fs.Stats | undefined {
  try {
    return fs.statSync(file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
}

/** Makes the rename durable; some file systems refuse fsync on a directory, which is harmless. */
function syncDir(dir: string): void {
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
