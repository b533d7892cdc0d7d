import path from 'node:path';
import lockfile from 'proper-lockfile';
import { OperationError } from '../errors.js';
import { writeTarget } from './atomic.js';
import { ensureDir } from './dir.js';
import { fsError, isFsError } from './errors.js';

/**
 * One writer at a time per state file: read–modify–write of a settings file or kubeconfig under
 * a lock (proper-lockfile: an atomic mkdir of `<file>.lock`, refreshed while held, taken over when
 * stale after 10 s, removed on exit), so two concurrent `kaas settings import` runs both land.
 */

/** How long a run waits for another kaas to finish writing the same file. */
const RETRIES = { retries: 60, factor: 1.3, minTimeout: 20, maxTimeout: 500 };

/** Runs `fn` while holding the lock of `file` (of its target when `file` is a symlink). */
export async function withFileLock<T>(file: string, fn: () => T | Promise<T>, opts: { secret?: boolean } = {}): Promise<T> {
  const target = writeTarget(file, opts.secret);
  ensureDir(path.dirname(target), opts.secret ? 0o700 : 0o755);
  let release: () => Promise<void>;
  try {
    // A lost lock only means the next writer may not wait; each write stays atomic, so ignore it.
    release = await lockfile.lock(target, { realpath: false, retries: RETRIES, stale: 10_000, onCompromised: () => undefined });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ELOCKED') {
      throw new OperationError(`${file} is being written by another kaas run`, { hint: `wait for it to finish and run again; if no kaas is running, remove ${target}.lock` });
    }
    if (isFsError(err)) throw fsError(err, 'lock', file);
    throw err;
  }
  try {
    return await fn();
  } finally {
    await release().catch(() => undefined); // already released (compromised lock): nothing to undo
  }
}
