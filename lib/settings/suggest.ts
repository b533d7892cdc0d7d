import { closest, distance } from 'fastest-levenshtein';

/**
 * "did you mean …?" for a misspelt name: the closest candidate (case-insensitive), offered only
 * when at most a third of the name (at least 2 characters) differs; else the empty string.
 */
export function didYouMeanIn(name: string, candidates: readonly string[]): string {
  const lower = name.toLowerCase();
  const best = closest(lower, candidates.map((c) => c.toLowerCase()));
  const original = candidates.find((c) => c.toLowerCase() === best) ?? best;
  return distance(lower, best) <= Math.max(2, Math.floor(name.length / 3)) ? `; did you mean ${original}?` : '';
}
