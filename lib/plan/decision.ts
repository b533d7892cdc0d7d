import { PlanError } from '../errors.js';

/**
 * The one shape every plan function returns: either a value with the reasons that led to it, or
 * the reasons it cannot be done, each with the hint that fixes it. Pure data, printable, testable
 * with tables; the use case turns a refusal into a PlanError (exit 2, nothing touched) with `orThrow`.
 */

/** Why a plan cannot be carried out, and how to fix it. */
export interface Refusal {
  /** One sentence: what cannot be done and why. */
  message: string;
  /** One line: the setting, flag or command that fixes it. */
  hint: string;
  /** Further details (listed under the message). */
  problems?: string[];
}

/** A decision: `ok` with a value, or refused. Reasons are full sentences, in the order taken. */
export type Decision<T> =
  | { ok: true; value: T; reasons: string[]; warnings: string[] }
  | { ok: false; refusals: Refusal[]; reasons: string[] };

/** A decision that went through. */
export function decided<T>(value: T, reasons: string[] = [], warnings: string[] = []): Decision<T> {
  return { ok: true, value, reasons, warnings };
}

/** A decision refused (one or more refusals, all reported). */
export function refused<T = never>(refusals: Refusal | Refusal[], reasons: string[] = []): Decision<T> {
  return { ok: false, refusals: Array.isArray(refusals) ? refusals : [refusals], reasons };
}

/** The value of a decision, or a PlanError (exit 2) naming every refusal. */
export function orThrow<T>(d: Decision<T>): T {
  if (d.ok) return d.value;
  const [first, ...rest] = d.refusals;
  throw new PlanError(first.message, {
    problems: [...(first.problems ?? []), ...rest.map((r) => `${r.message} (${r.hint})`)],
    hint: first.hint,
  });
}

/** Applies `f` to the value of an accepted decision, keeping its reasons and warnings. */
export function andThen<T, U>(d: Decision<T>, f: (v: T) => Decision<U>): Decision<U> {
  if (!d.ok) return d;
  const next = f(d.value);
  return next.ok
    ? { ...next, reasons: [...d.reasons, ...next.reasons], warnings: [...d.warnings, ...next.warnings] }
    : { ...next, reasons: [...d.reasons, ...next.reasons] };
}
