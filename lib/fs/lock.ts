import fs from 'node:fs';
import path from 'node:path';
import lockfile from 'proper-lockfile';
import { OperationError } from '../errors.js';
import { writeTarget } from './atomic.js';
import { ensureDir } from './dir.js';
import { fsError, isFsError } from './errors.js';
import { goneOwner, ownerRecord, readOwnerRecord } from './owner.js';

/**
 * One writer at a time per state file: read–modify–write of a settings file or kubeconfig under
 * a lock (proper-lockfile: an atomic mkdir of `<file>.lock`, refreshed while held, taken over when
 * stale after 10 s, removed on exit), so two concurrent `kaas settings import` runs both land.
 * The lock directory holds an owner record (`<pid> <host>`): a lock whose kaas was killed (kill -9,
 * no exit handler ran) is taken over at once by the next run on the same host, not after 10 s.
 */

/** How long a run waits for another kaas to finish writing the same file. */
const RETRIES = { retries: 60, factor: 1.3, minTimeout: 20, maxTimeout: 500 };

/** The owner record's name inside the lock directory. */
const OWNER = 'owner';

/** proper-lockfile removes its lock with rmdir: the owner record inside must go with it. */
const lockFs = {
  ...fs,
  rmdir: (p: string, cb: (err: NodeJS.ErrnoException | null) => void) => fs.rm(path.join(p, OWNER), { force: true }, () => fs.rmdir(p, cb)),
  rmdirSync: (p: string) => {
    fs.rmSync(path.join(p, OWNER), { force: true });
    fs.rmdirSync(p);
  },
};

/** Options of withFileLock. */
export interface FileLockOptions {
  secret?: boolean;
  /** Told when a lock left by a kaas run that no longer exists was removed. */
  onStale?: (message: string) => void;
}

/** Removes `lock` when its owner record names a process of this host that is gone; says so. */
function removeIfOwnerGone(lock: string, onStale?: (message: string) => void): void {
  const pid = goneOwner(path.join(lock, OWNER));
  if (pid === undefined) return;
  try {
    lockFs.rmdirSync(lock);
    onStale?.(`removed the lock ${lock}, left by a kaas run (pid ${pid}) that no longer runs`);
  } catch {
    // another run removed it first, or took it since: the lock call below sorts that out
  }
}

/** Runs `fn` while holding the lock of `file` (of its target when `file` is a symlink). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, opts: FileLockOptions = {}): Promise<T> {
  const target = writeTarget(file, opts.secret);
  const lock = `${target}.lock`;
  ensureDir(path.dirname(target), opts.secret ? 0o700 : 0o755);
  removeIfOwnerGone(lock, opts.onStale);
  let release: () => Promise<void>;
  try {
    // A lost lock only means the next writer may not wait; each write stays atomic, so ignore it.
    release = await lockfile.lock(target, { realpath: false, retries: RETRIES, stale: 10_000, onCompromised: () => undefined, fs: lockFs });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      const owner = readOwnerRecord(path.join(lock, OWNER))?.pid;
      throw new OperationError(`${file} is being written by another kaas run${owner ? ` (pid ${owner})` : ''}`, {
        hint: `wait for it to finish and run again; if no kaas is running, remove ${lock} (rm -r)`,
      });
    }
    if (isFsError(err)) throw fsError(err, 'lock', file);
    throw err;
  }
  try {
    fs.writeFileSync(path.join(lock, OWNER), ownerRecord(), { mode: 0o644 });
  } catch {
    // without the record the lock still works; a killed owner is then taken over after 10 s
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined); // already released (compromised lock): nothing to undo
  }
}
