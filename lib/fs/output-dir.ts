import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { statOrUndefined, syncDir } from './atomic.js';
import { ensureDir } from './dir.js';
import { withFsErrors } from './errors.js';
import { checkOutputTargets } from './output-target.js';
import { commitSet, JOURNAL, lockOutputDir, recoverOutputDir, STAGE_PREFIX, type Journal } from './output-journal.js';

/** One output file of a dry-run; `name` may hold a sub-directory (`<namespace>/<file>`). */
export interface OutputFile {
  name: string;
  text: string;
  secret: boolean;
}

/**
 * `--output-dir`: the files of one command replace that command's previous files as a set. All are
 * written into a staging directory inside DIR (same file system), fsynced, and committed by one
 * rename; then moved into place (see output-journal.ts). A kill or a full disk before the commit
 * leaves the old set whole (the next run removes the staging directory); a kill after it is
 * completed by the next run that writes into DIR. Files kaas did not write stay untouched; a file
 * of the command's previous set that the new set lacks is removed when it still holds what kaas
 * wrote (a file you edited stays, and is named). Secret files are 0600 from the first byte.
 *
 * `owner` names the set (the command, e.g. "create-cluster"); DIR/.kaas-output.manifest records each
 * set's files and their SHA-256.
 */
export function writeOutputDir(dir: string, files: OutputFile[], owner: string, warn: (m: string) => void = () => undefined): string[] {
  ensureDir(dir, 0o755, '--output-dir');
  for (const f of files) checkName(f.name);
  // Check every target first, so that a bad path is refused before anything is written.
  checkOutputTargets(dir, files.map((f) => f.name));
  withFsErrors(dir, 'write into', () => fs.accessSync(dir, fs.constants.W_OK));
  const unlock = lockOutputDir(dir);
  try {
    recoverOutputDir(dir, warn);
    const stage = path.join(dir, `${STAGE_PREFIX}${process.pid}-${randomBytes(6).toString('hex')}`);
    withFsErrors(dir, 'write into', () => fs.mkdirSync(stage, { mode: 0o700 }));
    try {
      const journal = stageFiles(dir, stage, files, owner);
      withFsErrors(path.join(stage, JOURNAL), 'write', () => writeSynced(path.join(stage, JOURNAL), JSON.stringify(journal), 0o600));
      syncDir(stage);
    } catch (err) {
      fs.rmSync(stage, { recursive: true, force: true });
      throw err;
    }
    commitSet(dir, stage, warn);
  } finally {
    unlock();
  }
  return files.map((f) => path.join(dir, f.name));
}

/** A name kaas writes under DIR: relative, inside DIR, not one of the directory's own records. */
function checkName(name: string): void {
  const norm = path.normalize(name);
  if (path.isAbsolute(norm) || norm.startsWith('..') || norm.split(path.sep).some((p) => p.startsWith('.kaas-output'))) {
    throw new Error(`internal: output file name ${JSON.stringify(name)} is not a plain relative name`);
  }
}

/** Writes each file into `stage/files/`, with its final mode and owner; returns the journal. */
function stageFiles(dir: string, stage: string, files: OutputFile[], owner: string): Journal {
  const journal: Journal = { owner, files: [] };
  for (const f of files) {
    const staged = path.join(stage, 'files', f.name);
    withFsErrors(path.join(dir, f.name), 'write', () => {
      const old = statOrUndefined(path.join(dir, f.name));
      const mode = f.secret ? 0o600 : old ? old.mode & 0o7777 : 0o644;
      fs.mkdirSync(path.dirname(staged), { recursive: true, mode: 0o700 });
      writeSynced(staged, f.text, mode, !f.secret && old && process.getuid?.() === 0 && old.uid !== 0 ? old : undefined);
    });
    journal.files.push({ name: f.name, secret: f.secret, sha256: createHash('sha256').update(f.text).digest('hex') });
  }
  return journal;
}

/** Creates `file` (O_EXCL|O_NOFOLLOW, 0600 until written), writes, sets `mode`, fsyncs. */
function writeSynced(file: string, text: string, mode: number, chownTo?: fs.Stats): void {
  const fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_NOFOLLOW, 0o600);
  try {
    if (mode !== 0o600) fs.fchmodSync(fd, mode);
    // Root writing into another user's directory must not hand their files over to root.
    if (chownTo) fs.fchownSync(fd, chownTo.uid, chownTo.gid);
    fs.writeFileSync(fd, text);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
