import fs from 'node:fs';
import os from 'node:os';

/**
 * Which kaas process left a temporary file or a lock, and whether it still runs. After a kill -9
 * nothing removes what the process was writing; the next run removes it when its owner is gone,
 * instead of leaving it for ever (temp files) or waiting for it to look old (locks).
 */

/** The owner record kaas writes into its locks: "<pid> <host>". */
export function ownerRecord(): string {
  return `${process.pid} ${os.hostname()}\n`;
}

/** True when `pid` names no running process on this machine (kill(pid, 0) answers ESRCH). */
export function processGone(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false;
  if (pid === process.pid) return false;
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    // EPERM: it runs, as another user.
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** The owner record in `file` ("<pid> <host>"), or undefined when there is none or it is not one. */
export function readOwnerRecord(file: string): { pid: number; host: string } | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  const m = /^(\d+) (\S+)\s*$/.exec(text);
  return m ? { pid: Number(m[1]), host: m[2] } : undefined;
}

/**
 * The pid of an owner record read from `file` when that owner ran on this host and is gone; else
 * undefined (no record, unreadable, another host's, or still running).
 */
export function goneOwner(file: string): number | undefined {
  const owner = readOwnerRecord(file);
  if (!owner || owner.host !== os.hostname()) return undefined;
  return processGone(owner.pid) ? owner.pid : undefined;
}

/** kaas's temporary files beside a target: `.<name>.<pid>.<12 hex>.tmp` (see atomic.ts). */
const TEMP = /^\.(.+)\.(\d+)\.[0-9a-f]{12}\.tmp$/;

/**
 * Removes the temporary files that kaas runs which no longer exist left beside `base` in `dir`
 * (a kill -9 between creating and renaming one). Files of running processes are left alone.
 * Returns the names removed.
 */
export function removeStaleTemps(dir: string, base: string): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const removed: string[] = [];
  for (const n of names) {
    const m = TEMP.exec(n);
    if (!m || m[1] !== base || !processGone(Number(m[2]))) continue;
    try {
      // Only a regular file of ours: never follow or remove anything else under that name.
      if (!fs.lstatSync(`${dir}/${n}`).isFile()) continue;
      fs.unlinkSync(`${dir}/${n}`);
      removed.push(n);
    } catch {
      // gone already (another run cleaned it) or not ours to remove: either way nothing to do
    }
  }
  return removed;
}
