import { parseDuration } from '../lib/duration.js';
import { UsageError } from '../lib/errors.js';

/**
 * A timeout flag: `--flag 90`, `90s`, `5m`, `1h30m`; the handler gets seconds. yargs used to turn
 * `abc` into NaN (an endless wait) and pass `-1` (a crash in the HTTP client) or 2147484 (a timer
 * that fires at once); each is now a usage error (exit 2) before anything runs.
 */
export function durationOption(flag: string, defaultText: string, describe: string) {
  return {
    type: 'string' as const,
    default: defaultText,
    describe: `${describe} (e.g. 90s, 5m, 1h30m; a bare number is seconds)`,
    coerce: (v: unknown): number => {
      if (Array.isArray(v)) throw new UsageError(`--${flag} was given ${v.length} times`, { hint: `give --${flag} once` });
      const s = parseDuration(typeof v === 'number' || typeof v === 'string' ? v : String(v));
      if (typeof s !== 'number') throw new UsageError(`--${flag}: ${s.error}`, { hint: `e.g. --${flag} 5m` });
      return s;
    },
  };
}

/** "90", "90s", "10m", "2h" → seconds; a usage error (exit 2) for anything else. */
export function parseDurationSeconds(flag: string, v: unknown): number {
  const m = /^(\d+)\s*(s|m|h)?$/.exec(String(v ?? '').trim());
  if (!m) throw new UsageError(`--${flag} must be a duration such as 90s, 10m or 2h (got ${String(v)})`, { hint: `e.g. --${flag} 10m` });
  return Number(m[1]) * ({ s: 1, m: 60, h: 3600 } as Record<string, number>)[m[2] ?? 's'];
}
