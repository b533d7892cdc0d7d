import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from './atomic.js';
import { ensureDir } from './dir.js';
import { withFsErrors } from './errors.js';

/** One output file of a dry-run. */
export interface OutputFile {
  name: string;
  text: string;
  secret: boolean;
}

/**
 * Writes the files into `dir` (created if needed; a kernel file system such as /proc is refused
 * before anything is written), each atomically; secret files 0600 from the first byte. Returns their paths.
 */
export function writeOutputDir(dir: string, files: OutputFile[]): string[] {
  ensureDir(dir, 0o755, '--output-dir');
  // Check every target first, so that one bad path leaves no partial set of files behind.
  for (const f of files) {
    const p = path.join(dir, f.name);
    withFsErrors(p, 'write', () => {
      if (fs.existsSync(p) && fs.statSync(p).isDirectory()) throw Object.assign(new Error(`EISDIR: '${p}'`), { code: 'EISDIR', syscall: 'open', path: p });
      fs.accessSync(dir, fs.constants.W_OK);
    });
  }
  return files.map((f) => {
    const p = path.join(dir, f.name);
    writeFileAtomic(p, f.text, f.secret ? { secret: true } : { mode: 0o644 });
    return p;
  });
}
