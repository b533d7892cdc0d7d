import { show } from '../settings/check.js';
import type { Conversion, Dropped } from './convert.js';
import type { MergeStatus } from './write.js';
import { hiddenNote, visibleName } from '../visible.js';

/** What `kaas settings import` did: printed as text, or as data with `-o json|yaml`. */
export interface ImportReport {
  env: string;
  /** Absolute path of the environment file. */
  file: string;
  cluster: string;
  status: MergeStatus;
  written: boolean;
  imported: { key: string; value: unknown; from: string }[];
  conversions: Conversion[];
  /** Keys not imported, with the reason; never with their values. */
  dropped: Dropped[];
  notes: string[];
}

const VERB: Record<MergeStatus, string> = {
  created: 'created with',
  added: 'gained',
  replaced: 'had replaced',
  unchanged: 'already has an identical',
};

/** The human report: what was imported from where, what was converted, what was dropped and why. */
export function reportText(r: ImportReport, shownFile: string, dryRun: boolean): string {
  const head = dryRun
    ? `dry run: ${shownFile} would get clusters.${r.cluster} (${r.imported.length} settings); nothing written`
    : `${shownFile} ${VERB[r.status]} clusters.${r.cluster} (${r.imported.length} settings)${r.written ? '' : '; nothing written'}`;
  const lines = [head];
  const w = Math.max(0, ...r.imported.map((i) => i.key.length));
  if (r.imported.length) lines.push('imported:', ...r.imported.map((i) => `  ${i.key.padEnd(w)}  ${short(show(i.value))}  ← ${i.from}`));
  if (r.conversions.length) lines.push('converted:', ...r.conversions.map((c) => `  ${c.name}: ${short(show(c.from))} → ${short(show(c.to))} (${c.key})`));
  if (r.dropped.length) {
    const dw = Math.max(...r.dropped.map((d) => visibleName(d.name).length));
    lines.push(`dropped (${r.dropped.length}):`, ...r.dropped.map((d) => `  ${visibleName(d.name).padEnd(dw)}  ${d.reason}${hiddenNote(d.name)}  [${d.where}]`));
  }
  if (r.notes.length) lines.push('notes:', ...r.notes.map((n) => `  ${n}`));
  return lines.join('\n');
}

function short(s: string): string {
  return s.length > 60 ? `${s.slice(0, 57)}...` : s;
}
