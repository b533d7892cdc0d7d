import { KaasError, type ExitCode } from '../errors.js';

/**
 * File-system failures as KaasErrors that name the path and say what to do, instead of a raw
 * "ENOSPC: no space left on device, write". A path the user chose badly (a directory where a file
 * belongs, no permission, a read-only mount) exits 2; the machine failing under us (full disk,
 * I/O error, quota) exits 1.
 */

const REASONS: Record<string, { what: string; hint: string; exitCode: ExitCode }> = {
  EISDIR: { what: 'is a directory', hint: 'name a file, not a directory', exitCode: 2 },
  ENOTDIR: { what: 'has a part that is not a directory', hint: 'check every component of the path', exitCode: 2 },
  EACCES: { what: 'permission denied', hint: 'check the owner and mode of the file and its directory (ls -ld), or choose another path', exitCode: 2 },
  EPERM: { what: 'operation not permitted', hint: 'check the owner, mode and attributes of the file and its directory, or choose another path', exitCode: 2 },
  EEXIST: { what: 'already exists', hint: 'remove it or choose another path', exitCode: 2 },
  EROFS: { what: 'is on a read-only file system', hint: 'choose a path on a writable file system', exitCode: 2 },
  ELOOP: { what: 'has too many levels of symbolic links', hint: 'fix the symbolic link (ls -l)', exitCode: 2 },
  ENAMETOOLONG: { what: 'has a name that is too long', hint: 'choose a shorter path', exitCode: 2 },
  ENXIO: { what: 'is a named pipe nobody reads (or a device with no driver)', hint: 'start the reader first (e.g. cat < FIFO &), or name a regular file', exitCode: 2 },
  ENOENT: { what: 'does not exist', hint: 'check the path', exitCode: 2 },
  ENOSPC: { what: 'no space left on the device', hint: 'free some space (df -h shows which file system is full) and run again; the previous file is unchanged', exitCode: 1 },
  EDQUOT: { what: 'disk quota exceeded', hint: 'free some space within your quota and run again; the previous file is unchanged', exitCode: 1 },
  EIO: { what: 'input/output error', hint: 'the disk reported an error; check dmesg and run again', exitCode: 1 },
  EMFILE: { what: 'too many open files', hint: 'raise the limit (ulimit -n) and run again', exitCode: 1 },
};

/** A file-system error carrying a path, as Node's fs functions throw it. */
export function isFsError(err: unknown): err is NodeJS.ErrnoException & { code: string } {
  // Not `instanceof Error`: errors from another realm (vm contexts, jest) are errors too.
  if (typeof err !== 'object' || err === null || !('syscall' in err)) return false;
  const code = (err as NodeJS.ErrnoException).code;
  return typeof code === 'string' && /^E[A-Z0-9]+$/.test(code);
}

/** The KaasError for a file-system error; `file` is the path the user knows (else the error's own). */
export function fsError(err: NodeJS.ErrnoException, action: string, file?: string): KaasError {
  const where = file ?? err.path ?? '(unknown path)';
  const r = REASONS[err.code ?? ''] ?? { what: `${err.code ?? 'error'} from ${err.syscall ?? 'the file system'}`, hint: 'check the path and the file system', exitCode: 1 as ExitCode };
  return new KaasError(`cannot ${action} ${where}: ${r.what}`, { exitCode: r.exitCode, hint: r.hint, cause: err });
}

/** Runs `fn`, turning a file-system error into a KaasError naming `file`. */
export function withFsErrors<T>(file: string, action: string, fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    if (isFsError(err)) throw fsError(err, action, file);
    throw err;
  }
}
