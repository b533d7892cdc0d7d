/**
 * Durations as users write them for timeouts: `90` (seconds, as before), `90s`, `5m`, `1h30m`,
 * `1.5h`, `500ms`. Node's timers hold at most 2^31-1 ms (about 24.8 days); a longer delay fires
 * at once (TimeoutOverflowWarning), so anything above that is refused rather than silently shortened.
 */

/** The longest timeout Node's setTimeout can wait, in seconds (2147483.647). */
export const MAX_TIMEOUT_SEC = (2 ** 31 - 1) / 1000;

const UNIT_SEC: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86400 };

/** Seconds for a duration text, or the reason it is not one (positive, finite, within the timer limit). */
export function parseDuration(text: string | number): number | { error: string } {
  const raw = String(text).trim();
  const example = 'e.g. 90, 90s, 5m or 1h30m';
  let seconds: number;
  if (/^\d+(\.\d+)?$/.test(raw)) seconds = Number(raw);
  else {
    const parts = [...raw.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g)];
    if (!parts.length || parts.map((p) => p[0]).join('') !== raw) return { error: `"${raw}" is not a duration (${example})` };
    seconds = parts.reduce((sum, p) => sum + Number(p[1]) * UNIT_SEC[p[2]], 0);
  }
  if (!Number.isFinite(seconds) || seconds <= 0) return { error: `"${raw}" is not a positive duration (${example})` };
  if (seconds > MAX_TIMEOUT_SEC) return { error: `"${raw}" is longer than ${Math.floor(MAX_TIMEOUT_SEC)} s (about 24 days), the longest wait a timer can hold` };
  return seconds;
}
