import fs from 'node:fs';
import { UsageError } from '../errors.js';
import { fsError, isFsError } from './errors.js';

/**
 * Reading a file the user named (settings, clouds.yaml, cacert, --capabilities, SCS files, manifests)
 * with a size cap that holds for every kind of file: the cap used to be checked against stat's size,
 * which is 0 for /dev/zero and FIFOs (a settings file linked to /dev/zero grew to 9 GB), or only after
 * reading everything. A regular file is refused from its size; anything else is read up to the cap and
 * refused past it. Opened non-blocking, so a FIFO cannot hold kaas before the first byte: no writer
 * is an error, a writer that sends nothing for 30 s is an error.
 */

/** What a read is of, for the messages: `settings file`, `cacert of cloud "x"`, … */
export interface CappedRead {
  /** How the file is named in messages (e.g. the path as the user wrote it). */
  shown?: string;
  /** Largest size accepted, in bytes. */
  maxBytes: number;
  /** One line saying what the file should be, for the hint (e.g. "a settings file is a few KiB"). */
  expect: string;
}

const pause = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
const STALL_MS = 30_000;

const mib = (n: number) => (n >= 1024 * 1024 ? `${n / (1024 * 1024)} MiB` : `${Math.round(n / 1024)} KiB`);

/** The text of `file`, at most `o.maxBytes` bytes; a UsageError (exit 2) naming the file otherwise. */
export function readTextCapped(file: string, o: CappedRead): string {
  const shown = o.shown ?? file;
  const tooLarge = (size: string) =>
    new UsageError(`${shown} has ${size} bytes; kaas reads at most ${o.maxBytes} (${mib(o.maxBytes)})`, { hint: `is this the right file? ${o.expect}` });
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (err) {
    if (isFsError(err)) throw fsError(err, 'read', shown);
    throw err;
  }
  try {
    const st = fs.fstatSync(fd);
    if (st.isDirectory()) throw new UsageError(`cannot read ${shown}: it is a directory, not a file`, { hint: `name the file itself; ${o.expect}` });
    if (st.isFile() && st.size > o.maxBytes) throw tooLarge(String(st.size));
    const buf = Buffer.alloc(o.maxBytes + 1);
    let len = 0;
    let quietSince = Date.now();
    while (len < buf.length) {
      let n: number;
      try {
        n = fs.readSync(fd, buf, len, buf.length - len, null);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EAGAIN') throw err;
        if (Date.now() - quietSince > STALL_MS) {
          throw new UsageError(`cannot read ${shown}: nothing arrived for ${STALL_MS / 1000} s (a pipe or device whose writer stalled)`, { hint: `name a regular file; ${o.expect}` });
        }
        pause(10);
        continue;
      }
      if (n === 0) {
        // O_NONBLOCK: a FIFO with no writer reads as an empty file; refuse rather than take it as one.
        if (len === 0 && st.isFIFO()) throw new UsageError(`cannot read ${shown}: it is a named pipe nobody writes into`, { hint: `start the writer first, or name a regular file; ${o.expect}` });
        break;
      }
      len += n;
      quietSince = Date.now();
    }
    if (len > o.maxBytes) throw tooLarge(`more than ${o.maxBytes}`);
    return buf.toString('utf8', 0, len);
  } catch (err) {
    if (isFsError(err)) throw fsError(err, 'read', shown);
    throw err;
  } finally {
    fs.closeSync(fd);
  }
}
