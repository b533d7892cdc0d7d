import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { OperationError } from '../errors.js';
import { syncDir, writeFileAtomic } from './atomic.js';
import { checkOutputTargets } from './output-target.js';
import { withFsErrors } from './errors.js';
import { goneOwner, ownerRecord, processGone, readOwnerRecord } from './owner.js';

/**
 * The commit protocol of `--output-dir` (output-dir.ts), in DIR:
 *   .kaas-output.stage-<pid>-<hex>/   a set being written (files/…, journal.json); not yet committed
 *   .kaas-output.commit/              the committed set, being moved into place
 *   .kaas-output.manifest             each command's files and their SHA-256, as JSON (no .json/.yaml
 *                                     suffix: `kubectl apply -R -f DIR` reads every such file, and refused it)
 *   .kaas-output.lock                 held while a run writes into DIR ("<pid> <host>")
 * The rename of a staging directory to `.kaas-output.commit` is the commit point: before it the old
 * set is whole, after it the next run (or this one) moves every file of the new set into place.
 */

export const STAGE_PREFIX = '.kaas-output.stage-';
export const JOURNAL = 'journal.json';
const COMMIT = '.kaas-output.commit';
const MANIFEST = '.kaas-output.manifest';
const LOCK = '.kaas-output.lock';

/** What a committed set holds. */
export interface Journal {
  owner: string;
  files: { name: string; secret: boolean; sha256: string }[];
}

interface Manifest {
  sets: Record<string, Record<string, string>>;
}

const sleep = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);

/**
 * Takes DIR's lock (an O_EXCL file with an owner record); a lock whose kaas is gone (kill -9) is
 * removed at once, an empty one older than 10 s too. Waits up to 30 s for a running kaas.
 * Returns the release function.
 */
export function lockOutputDir(dir: string): () => void {
  const lock = path.join(dir, LOCK);
  const deadline = Date.now() + 30_000;
  for (;;) {
    try {
      const fd = fs.openSync(lock, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o644);
      fs.writeSync(fd, ownerRecord());
      fs.closeSync(fd);
      return () => fs.rmSync(lock, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') withFsErrors(lock, 'lock', () => {
        throw err;
      });
    }
    if (goneOwner(lock) !== undefined || emptyAndOld(lock)) {
      fs.rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) {
      const pid = readOwnerRecord(lock)?.pid;
      throw new OperationError(`--output-dir ${dir} is being written by another kaas run${pid ? ` (pid ${pid})` : ''}`, {
        hint: `wait for it to finish and run again; if no kaas is running, remove ${lock}`,
      });
    }
    sleep(50);
  }
}

function emptyAndOld(lock: string): boolean {
  try {
    const st = fs.statSync(lock);
    return st.size === 0 && st.mtimeMs < Date.now() - 10_000;
  } catch {
    return false;
  }
}

/**
 * Cleans up after a killed run (call under the lock): staging directories of runs that are gone
 * are removed (never committed: the old set is whole), a committed set is moved into place.
 */
export function recoverOutputDir(dir: string, warn: (m: string) => void): void {
  for (const n of fs.readdirSync(dir)) {
    const m = /^\.kaas-output\.stage-(\d+)-[0-9a-f]+$/.exec(n);
    if (m && processGone(Number(m[1]))) fs.rmSync(path.join(dir, n), { recursive: true, force: true });
  }
  if (fs.existsSync(path.join(dir, COMMIT))) {
    warn(`${dir}: completing the set of files a kaas run killed while moving them into place had written`);
    finishCommit(dir, warn);
  }
}

/** Commits the staged set (one rename) and moves it into place. */
export function commitSet(dir: string, stage: string, warn: (m: string) => void): void {
  withFsErrors(path.join(dir, COMMIT), 'write', () => fs.renameSync(stage, path.join(dir, COMMIT)));
  syncDir(dir);
  finishCommit(dir, warn);
}

/** Moves every file of the committed set into place, removes the set's files it no longer has, updates the manifest. Idempotent. */
function finishCommit(dir: string, warn: (m: string) => void): void {
  const commit = path.join(dir, COMMIT);
  const journal = JSON.parse(fs.readFileSync(path.join(commit, JOURNAL), 'utf8')) as Journal;
  // Checked again under the lock, before any file moves: a link or FIFO planted since the first
  // check is refused, and the commit marker goes with the refusal (the old set stays as it is).
  try {
    checkOutputTargets(dir, journal.files.filter((f) => fs.existsSync(path.join(commit, 'files', f.name))).map((f) => f.name));
  } catch (err) {
    fs.rmSync(commit, { recursive: true, force: true });
    throw err;
  }
  const touched = new Set([dir]);
  for (const f of journal.files) {
    const src = path.join(commit, 'files', f.name);
    const dst = path.join(dir, f.name);
    if (!fs.existsSync(src)) continue; // moved before the kill
    withFsErrors(dst, 'write', () => {
      fs.mkdirSync(path.dirname(dst), { recursive: true, mode: 0o755 });
      touched.add(path.dirname(dst));
      fs.renameSync(src, dst); // replaces the file; never follows a link (none is there: checked above)
    });
  }
  const manifestFile = path.join(dir, MANIFEST);
  const manifest = readManifest(manifestFile);
  const now = Object.fromEntries(journal.files.map((f) => [f.name, f.sha256]));
  for (const [name, sha] of Object.entries(manifest.sets[journal.owner] ?? {})) {
    if (name in now) continue;
    const p = path.join(dir, name);
    if (!isRegular(p)) continue;
    if (sha256Of(p) === sha) fs.rmSync(p);
    else warn(`kept ${p}: the previous ${journal.owner} wrote it, this one does not, and it was changed since`);
  }
  manifest.sets[journal.owner] = now;
  writeFileAtomic(manifestFile, `${JSON.stringify(manifest, null, 2)}\n`, { mode: 0o644 });
  fs.rmSync(commit, { recursive: true, force: true });
  for (const d of touched) syncDir(d);
}

function readManifest(file: string): Manifest {
  try {
    const m = JSON.parse(fs.readFileSync(file, 'utf8')) as Manifest;
    if (m && typeof m.sets === 'object' && m.sets !== null) return m;
  } catch {
    // missing or not kaas's: start a new one (no file is removed without a record of it)
  }
  return { sets: {} };
}

const isRegular = (p: string) => {
  try {
    return fs.lstatSync(p).isFile();
  } catch {
    return false;
  }
};
const sha256Of = (p: string) => createHash('sha256').update(fs.readFileSync(p)).digest('hex');
