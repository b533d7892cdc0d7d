import { KaasError, SettingsError } from '../errors.js';
import { redactValue } from '../redact.js';
import { displayPath, environmentFileExists, loadSettings, validateAll, type LoadOptions } from './load.js';
import { settingsFileSchema } from './schema.js';
import { SETTINGS } from './table.js';

type LoadedValues = ReturnType<typeof loadSettings>['values'];

import { describeOrigin } from './origin.js';

export { describeOrigin };

function display(v: unknown): string {
  if (v === undefined) return '(unset)';
  return typeof v === 'string' ? (v === '' ? '""' : v) : JSON.stringify(v);
}

/** `kaas settings show <cluster>`: every effective value and where it came from. */
export function showSettings(opts: LoadOptions & { warn: (m: string) => void; explain?: (cluster: string, env: string, s: LoadedValues) => string[] }) {
  const r = loadSettings(opts);
  r.warnings.forEach(opts.warn);
  const rows = SETTINGS.map((d) => ({
    key: d.key,
    value: redactValue((r.values as unknown as Record<string, unknown>)[d.key]),
    origin: describeOrigin(r.origins[d.key]),
  }));
  const w1 = Math.max(...rows.map((x) => x.key.length));
  const w2 = Math.min(48, Math.max(...rows.map((x) => display(x.value).length)));
  const text = [
    `# environment ${r.env}${r.cluster ? `, cluster ${r.cluster}` : ''} (${displayPath(r.file, opts.cwd)}${environmentFileExists(r.file) ? '' : ' does not exist: built-in defaults'})`,
    ...rows.map((x) => `${x.key.padEnd(w1)}  ${display(x.value).padEnd(w2)}  ${x.origin}`),
    ...(opts.explain && r.cluster ? ['', ...opts.explain(r.cluster, r.env, r.values)] : []),
  ].join('\n');
  const data = {
    env: r.env,
    cluster: r.cluster ?? null,
    file: r.file,
    settings: Object.fromEntries(rows.map((x) => [x.key, { value: x.value ?? null, origin: x.origin }])),
  };
  return { data, text };
}

/** `kaas settings validate [<cluster>]`: every problem of the file, env vars and flags at once. */
export function validateSettings(opts: LoadOptions & { warn: (m: string) => void }) {
  const r = validateAll(opts);
  r.warnings.forEach(opts.warn);
  if (r.problems.length) {
    throw new SettingsError(`invalid settings (${r.problems.length} problem${r.problems.length > 1 ? 's' : ''})`, r.problems,
      'fix the values above; `kaas settings schema` prints the allowed values, docs/reference/settings.md lists every setting');
  }
  const rel = displayPath(r.file, opts.cwd);
  // Only env "default" may lack its file; then there is nothing to call valid but the defaults.
  if (!environmentFileExists(r.file)) {
    return {
      data: { valid: true, file: null, clusters: [], problems: [], warnings: r.warnings },
      text: `${rel} does not exist: only the built-in defaults, KAAS_* variables and --set flags were checked (valid)`,
    };
  }
  const scope = opts.cluster ? `cluster ${opts.cluster}` : r.clusters.length ? `clusters: ${r.clusters.join(', ')}` : 'no cluster sections';
  return { data: { valid: true, file: r.file, clusters: r.clusters, problems: [], warnings: r.warnings }, text: `${rel}: valid (${scope})` };
}

/** The -o json|yaml shape of `settings validate`: the same whether the file is valid or not. */
export interface ValidationReport {
  valid: boolean;
  /** Absolute path of the environment file; null when it does not exist. */
  file: string | null;
  clusters: string[];
  /** Every problem, each naming file, line and path ([] when valid). */
  problems: string[];
  warnings: string[];
}

/**
 * `settings validate -o json|yaml`: the problems as data on stdout (exit 2 when there are any),
 * so that scripts and editors need not scrape stderr.
 */
export function validationReport(opts: LoadOptions): { data: ValidationReport; exitCode: 0 | 2 } {
  let report: ValidationReport;
  try {
    const r = validateAll(opts);
    report = { valid: r.problems.length === 0, file: environmentFileExists(r.file) ? r.file : null, clusters: r.clusters, problems: r.problems, warnings: r.warnings };
  } catch (e) {
    if (!(e instanceof KaasError)) throw e;
    report = { valid: false, file: null, clusters: [], problems: [e.message, ...e.problems], warnings: [] };
  }
  return { data: report, exitCode: report.valid ? 0 : 2 };
}

/** `kaas settings schema`: the JSON Schema editors use through yaml-language-server. */
export function schemaText(): string {
  return JSON.stringify(settingsFileSchema(), null, 2) + '\n';
}
