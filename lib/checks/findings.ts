import { oneLine } from '../visible.js';

/**
 * What doctor, check-lb and the post-apply verification report: findings with a stable check id,
 * a severity, the resource, one sentence of what is wrong and the exact fix. Plain data: printed as
 * text grouped by severity, or as JSON `{findings, checked, skipped, couldNotRun}`.
 */

export type Severity = 'error' | 'warning' | 'info';

/** The resource a finding is about. `id` is the OpenStack UUID or Kubernetes `namespace/name`. */
export interface FindingResource {
  type: string;
  id: string;
  name: string;
}

/** One problem found. */
export interface Finding {
  check: string;
  severity: Severity;
  resource: FindingResource;
  message: string;
  fix: string;
}

/** A check that did not run, and why (skipped on purpose, or could not run). */
export interface Skipped {
  check: string;
  reason: string;
}

/** The whole report (the `-o json` shape, exactly). */
export interface DoctorReport {
  findings: Finding[];
  checked: string[];
  /** Left out on purpose (--cloud-only, no cluster named). */
  skipped: Skipped[];
  /** Could not run (a side unreadable, a quota forbidden, the check failed): never a clean bill of health. */
  couldNotRun: Skipped[];
}

const ORDER: Record<Severity, number> = { error: 0, warning: 1, info: 2 };

/** Findings sorted by severity, then check id, then resource name (stable output). */
export function sortFindings(fs: Finding[]): Finding[] {
  return [...fs].sort((a, b) => ORDER[a.severity] - ORDER[b.severity] || a.check.localeCompare(b.check) || a.resource.name.localeCompare(b.resource.name));
}

/** True when any finding is an error (exit 1). */
export function hasErrors(fs: Finding[]): boolean {
  return fs.some((f) => f.severity === 'error');
}

/** True when the report is not a clean bill of health for lack of data: some check could not run (exit 1). */
export function incomplete(r: Pick<DoctorReport, 'couldNotRun'>): boolean {
  return r.couldNotRun.length > 0;
}

/**
 * The report as text: findings grouped by severity, then what was checked, skipped and could not
 * run; with checks that could not run, an `error:` line saying this is not health.
 */
export function formatReport(r: DoctorReport, title: string): string {
  const lines: string[] = [title];
  for (const sev of ['error', 'warning', 'info'] as const) {
    const group = r.findings.filter((f) => f.severity === sev);
    if (!group.length) continue;
    lines.push('', `${sev === 'error' ? 'ERRORS' : sev === 'warning' ? 'WARNINGS' : 'INFO'} (${group.length})`);
    for (const f of group) {
      // Each field is one line: a name from the cloud holding "\nhint: …" cannot add a line of its own.
      lines.push(`  [${f.check}] ${f.resource.type} ${oneLine(f.resource.name)}${f.resource.id && f.resource.id !== f.resource.name ? ` (${oneLine(f.resource.id)})` : ''}`);
      lines.push(`    ${oneLine(f.message)}`);
      lines.push(`    fix: ${oneLine(f.fix)}`);
    }
  }
  if (!r.findings.length) lines.push('', incomplete(r) ? 'no findings in what could be checked' : 'no findings');
  lines.push('', `checked (${r.checked.length}): ${r.checked.join(', ') || 'nothing'}`);
  if (r.skipped.length) {
    lines.push(`skipped (${r.skipped.length}):`);
    for (const s of r.skipped) lines.push(`  ${s.check}: ${oneLine(s.reason)}`);
  }
  if (r.couldNotRun.length) {
    lines.push(`could not run (${r.couldNotRun.length}):`);
    for (const s of r.couldNotRun) lines.push(`  ${s.check}: could not run: ${oneLine(s.reason)}`);
  }
  return lines.join('\n');
}

/**
 * The error lines of a report some of whose checks could not run (for stderr, where every kaas error
 * goes), with the hints of the causes (a 401's "check the credentials", a shape error's "ask the
 * operator"); undefined when every check ran.
 */
export function incompleteError(r: DoctorReport, hints: string[] = []): string | undefined {
  if (!r.couldNotRun.length) return undefined;
  const why = [...new Set(r.couldNotRun.map((s) => oneLine(s.reason)))];
  const lines = [`error: ${r.couldNotRun.length} check(s) could not run (${why.join('; ')}); this is not a clean bill of health`];
  for (const h of [...new Set(hints)]) lines.push(`hint: ${oneLine(h)}`);
  return lines.join('\n');
}
