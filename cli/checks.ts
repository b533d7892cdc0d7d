import { UsageError } from '../lib/errors.js';

/**
 * yargs turns `--timeout abc` into NaN and accepts `-1` or `0`; a NaN deadline never passes (an
 * endless wait) and a negative one crashes the HTTP client. Each named flag must be a positive
 * number of seconds: else a usage error (exit 2) before anything runs.
 */
export function checkPositiveSeconds(argv: Record<string, unknown>, flags: string[]): true {
  for (const flag of flags) {
    const v = argv[flag];
    if (v === undefined) continue;
    if (typeof v !== 'number' || !Number.isFinite(v) || v <= 0) {
      const shown = typeof v === 'number' && Number.isNaN(v) ? 'not a number' : String(v);
      throw new UsageError(`--${flag} must be a positive number of seconds (got ${shown})`, { hint: `e.g. --${flag} 60` });
    }
  }
  return true;
}

/** "90", "90s", "10m", "2h" → seconds; a usage error (exit 2) for anything else. */
export function parseDurationSeconds(flag: string, v: unknown): number {
  const m = /^(\d+)\s*(s|m|h)?$/.exec(String(v ?? '').trim());
  if (!m) throw new UsageError(`--${flag} must be a duration such as 90s, 10m or 2h (got ${String(v)})`, { hint: `e.g. --${flag} 10m` });
  return Number(m[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[m[2] ?? 's'];
}
