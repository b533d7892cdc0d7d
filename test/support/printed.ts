import fs from 'node:fs';
import path from 'node:path';
import { printedDir } from './peer-paths.js';

let seq = 0;

/**
 * Keeps a copy of text the code under test printed (CLI stdout/stderr, logger lines), plus the
 * secrets that run used, so that the secrets check can grep everything the suite printed.
 */
export function recordPrinted(label: string, text: string, secrets: string[]): void {
  const dir = printedDir();
  fs.mkdirSync(dir, { recursive: true });
  const base = path.join(dir, `${process.pid}-${++seq}`);
  fs.writeFileSync(`${base}.txt`, `# ${label}\n${text}`);
  fs.writeFileSync(`${base}.secrets`, secrets.filter((s) => s.length >= 4).join('\n'));
}

/** Keystone fernet tokens ("gAAAAA…"): no printed line may carry one, whoever's it is. */
const FERNET = /gAAAAA[A-Za-z0-9_-]{40,}/;

/** Every "file: secret" pair where a recorded secret (or any fernet token) shows up in recorded output. */
export function findLeakedSecrets(dir: string = printedDir()): string[] {
  const files = fs.readdirSync(dir);
  const secrets = new Set<string>();
  for (const f of files.filter((x) => x.endsWith('.secrets'))) {
    for (const s of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) if (s) secrets.add(s);
  }
  const leaks: string[] = [];
  for (const f of files.filter((x) => x.endsWith('.txt'))) {
    const text = fs.readFileSync(path.join(dir, f), 'utf8');
    for (const s of secrets) if (text.includes(s)) leaks.push(`${f}: ${s.slice(0, 3)}…`);
    if (FERNET.test(text)) leaks.push(`${f}: a Keystone token`);
  }
  return leaks.sort();
}

/** How many captures were recorded (the secrets test checks it is not vacuous). */
export function printedCount(dir: string = printedDir()): number {
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((x) => x.endsWith('.txt')).length : 0;
}
