import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors.js';
import { withFsErrors } from './errors.js';

/**
 * What may stand where `--output-dir` writes a file: nothing yet, or a regular file — and on the way
 * to it from DIR only real directories. A symbolic link anywhere inside DIR (at the file, or at a
 * namespace folder of migrate-ingress) is refused: kaas wrote or created files outside DIR through
 * links planted there, with exit 0. A FIFO, device or socket is refused too. DIR itself may be a
 * link: the user named it.
 */

function kindOf(st: fs.Stats): string {
  if (st.isSymbolicLink()) return 'symbolic link';
  if (st.isDirectory()) return 'directory';
  if (st.isFile()) return 'regular file';
  if (st.isCharacterDevice()) return 'character device';
  if (st.isFIFO()) return 'named pipe (FIFO)';
  if (st.isBlockDevice()) return 'block device';
  if (st.isSocket()) return 'socket';
  return 'special file';
}

function lstat(p: string): fs.Stats | undefined {
  try {
    return fs.lstatSync(p);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    return withFsErrors(p, 'write', () => {
      throw err;
    });
  }
}

/** Why kaas may not write DIR/`name`, or undefined when it may (`name` is relative, `<ns>/<file>` at most nested). */
export function outputTargetProblem(dir: string, name: string): { path: string; problem: string } | undefined {
  const parts = path.normalize(name).split(path.sep);
  let p = dir;
  for (const [i, part] of parts.entries()) {
    p = path.join(p, part);
    const st = lstat(p);
    if (!st) return undefined; // kaas creates the rest
    const last = i === parts.length - 1;
    if (last ? st.isFile() : st.isDirectory()) continue;
    if (st.isSymbolicLink()) {
      let to = '';
      try {
        to = ` to ${fs.readlinkSync(p)}`;
      } catch {
        // unreadable link: named without its target
      }
      return { path: p, problem: `it is a symbolic link${to}; kaas does not write through links inside --output-dir` };
    }
    return { path: p, problem: `it is a ${kindOf(st)}, not a ${last ? 'regular file' : 'directory'}; kaas writes only regular files and never replaces anything else` };
  }
  return undefined;
}

/** Throws the UsageError for the first file of `names` that kaas may not write under `dir`. */
export function checkOutputTargets(dir: string, names: string[]): void {
  for (const name of names) {
    const bad = outputTargetProblem(dir, name);
    if (bad) throw new UsageError(`cannot write ${bad.path}: ${bad.problem}`, { hint: 'remove it or choose another --output-dir; nothing was written' });
  }
}
