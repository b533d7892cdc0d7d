import YAML from 'yaml';
import { redact, redactValue } from '../lib/redact.js';
import { printable } from '../lib/visible.js';
import type { CommandResult, OutputFormat } from './context.js';

/** Renders a command result for stdout in the chosen format (secrets redacted). */
export function renderResult(result: CommandResult, format: OutputFormat): string {
  if (result.raw !== undefined) return result.raw;
  if (format === 'json') return JSON.stringify(redactValue(result.data ?? null), null, 2) + '\n';
  if (format === 'yaml') return YAML.stringify(redactValue(result.data ?? null));
  // The text result quotes names from the cloud and the cluster: control characters escaped (raw file contents are left as they are).
  if (result.text !== undefined) return printable(redact(result.text.endsWith('\n') || result.text === '' ? result.text : result.text + '\n'));
  return YAML.stringify(redactValue(result.data ?? null));
}
