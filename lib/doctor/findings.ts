/**
 * What doctor, check-lb and the post-apply verification report: findings with a stable check id,
 * a severity, the resource, one sentence of what is wrong and the exact fix. Plain data: printed as
 * text grouped by severity, or as JSON `{findings, checked, skipped}`.
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

/** A check that did not run, and why. */
export interface Skipped {
  check: string;
  reason: string;
}

/** The whole report (the `-o json` shape, exactly). */
export interface DoctorReport {
  findings: Finding[];
  checked: string[];
  skipped: Skipped[];
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

/** The report as text: findings grouped by severity, then what was checked and skipped. */
export function formatReport(r: DoctorReport, title: string): string {
  const lines: string[] = [title];
  for (const sev of ['error', 'warning', 'info'] as const) {
    const group = r.findings.filter((f) => f.severity === sev);
    if (!group.length) continue;
    lines.push('', `${sev === 'error' ? 'ERRORS' : sev === 'warning' ? 'WARNINGS' : 'INFO'} (${group.length})`);
    for (const f of group) {
      lines.push(`  [${f.check}] ${f.resource.type} ${f.resource.name}${f.resource.id && f.resource.id !== f.resource.name ? ` (${f.resource.id})` : ''}`);
      lines.push(`    ${f.message}`);
      lines.push(`    fix: ${f.fix}`);
    }
  }
  if (!r.findings.length) lines.push('', 'no findings');
  lines.push('', `checked (${r.checked.length}): ${r.checked.join(', ') || 'nothing'}`);
  if (r.skipped.length) {
    lines.push(`skipped (${r.skipped.length}):`);
    for (const s of r.skipped) lines.push(`  ${s.check}: ${s.reason}`);
  }
  return lines.join('\n');
}
