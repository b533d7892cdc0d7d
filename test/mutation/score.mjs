#!/usr/bin/env node
// Mutation scores from one or more Stryker JSON reports (scoped runs, docs/development/mutation-testing.md):
//   node test/mutation/score.mjs [--under DIR] [--survivors] reports/mutation/*.json
// Prints the score per file, per directory and overall, as Stryker counts it:
// (killed + timeout) / (killed + timeout + survived + no coverage); compile and runtime errors and
// ignored mutants do not count. When several reports hold the same file (runs with different tests in
// scope), a mutant counts as detected if any run detected it: each scoped run is a lower bound.
// A report's result for a file whose source has changed since that run (compared with the file on disk
// in the checkout score.mjs runs in: reports copied from another worktree are judged against this one)
// is stale: it is left out, with a note on stderr.
// --under DIR keeps only files under DIR (e.g. lib/openstack); --survivors lists the mutants left alive,
// with their place, mutator and replacement, to decide which behaviour is not pinned by a test.
import fs from 'node:fs';
import path from 'node:path';

let survivors = false;
let under;
const reports = [];
for (const args = process.argv.slice(2); args.length; ) {
  const arg = args.shift();
  if (arg === '--survivors') survivors = true;
  else if (arg === '--under') under = args.shift()?.replace(/\/+$/, '');
  else reports.push(arg);
}
if (!reports.length) {
  console.error('usage: score.mjs [--under DIR] [--survivors] REPORT.json…');
  process.exit(2);
}

const DETECTED = new Set(['Killed', 'Timeout']);
const UNDETECTED = new Set(['Survived', 'NoCoverage']);
const rank = (status) => (DETECTED.has(status) ? 2 : UNDETECTED.has(status) ? 1 : 0);

/** file → mutant key → the best outcome over all reports. */
const files = new Map();
for (const report of reports) {
  const json = JSON.parse(fs.readFileSync(report, 'utf8'));
  for (const [file, { mutants, source }] of Object.entries(json.files)) {
    if (under && !(file === under || file.startsWith(`${under}/`))) continue;
    const onDisk = path.join(process.cwd(), file);
    if (fs.existsSync(onDisk) && fs.readFileSync(onDisk, 'utf8') !== source) {
      console.error(`stale: ${report} ran on an older ${file}; left out`);
      continue;
    }
    const entry = files.get(file) ?? { source, mutants: new Map() };
    files.set(file, entry);
    for (const m of mutants) {
      const { start, end } = m.location;
      const key = `${start.line}:${start.column}-${end.line}:${end.column} ${m.mutatorName} ${m.replacement ?? ''}`;
      const seen = entry.mutants.get(key);
      if (!seen || rank(m.status) > rank(seen.status)) entry.mutants.set(key, m);
    }
  }
}

const tally = () => ({ detected: 0, undetected: 0 });
const add = (t, m) => {
  if (DETECTED.has(m.status)) t.detected++;
  else if (UNDETECTED.has(m.status)) t.undetected++;
};
const pct = (t) => (t.detected + t.undetected ? ((100 * t.detected) / (t.detected + t.undetected)).toFixed(1) : '—');
const row = (name, t) => `${pct(t).padStart(6)} %  ${String(t.detected).padStart(5)} / ${String(t.detected + t.undetected).padEnd(5)} ${name}`;

const dirs = new Map();
const total = tally();
const lines = [];
for (const file of [...files.keys()].sort()) {
  const t = tally();
  const dir = path.posix.dirname(file);
  const d = dirs.get(dir) ?? tally();
  dirs.set(dir, d);
  for (const m of files.get(file).mutants.values()) {
    add(t, m);
    add(d, m);
    add(total, m);
  }
  lines.push(row(file, t));
}
console.log('  score  detected/valid  file');
console.log(lines.join('\n'));
console.log('per directory:');
for (const dir of [...dirs.keys()].sort()) console.log(row(`${dir}/`, dirs.get(dir)));
console.log(row('overall', total));
// Files under DIR that no report covers are not in the score: say so rather than hide them.
if (under && fs.existsSync(under)) {
  const missing = fs.readdirSync(under, { recursive: true }).map((f) => path.posix.join(under, String(f).split(path.sep).join('/')))
    .filter((f) => /\.(ts|js|mjs)$/.test(f) && !/\.d\.ts$/.test(f) && !files.has(f));
  if (missing.length) console.log(`not in any report: ${missing.sort().join(', ')}`);
}

if (survivors) {
  for (const file of [...files.keys()].sort()) {
    const { source, mutants } = files.get(file);
    const srcLines = (source ?? '').split('\n');
    const alive = [...mutants.values()].filter((m) => UNDETECTED.has(m.status));
    alive.sort((a, b) => a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column);
    if (!alive.length) continue;
    console.log(`\n${file}: ${alive.length} undetected`);
    for (const m of alive) {
      const { line, column } = m.location.start;
      const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 80);
      const code = (srcLines[line - 1] ?? '').trim().slice(0, 100);
      console.log(`  ${line}:${column} ${m.status === 'NoCoverage' ? 'no coverage' : 'survived'} ${m.mutatorName} → ${replacement}\n      ${code}`);
    }
  }
}
