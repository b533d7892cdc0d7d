import { OperationError } from '../errors.js';
import type { Logger } from '../log.js';

/** Time as the waits see it; tests pass a fake that never sleeps. */
export interface Clock {
  now(): number;
  sleep(ms: number): Promise<void>;
}

/** The real clock. */
export const realClock: Clock = {
  now: () => Date.now(),
  sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
};

/** One poll: done or not, and a short progress text for the spinner. */
export interface Probe {
  done: boolean;
  progress: string;
}

/** Options of waitFor. */
export interface WaitOptions {
  title: string;
  timeoutSec: number;
  intervalMs?: number;
  logger: Logger;
  clock: Clock;
  /**
   * Fail earlier when the progress text has not changed for this long (seconds): a rollout that
   * moves may take up to `timeoutSec`, one that is stuck is reported after `stallSec`.
   */
  stallSec?: number;
  /** What to look at when it times out. */
  hint: string;
  probe: () => Promise<Probe>;
}

/**
 * Polls `probe` until it reports done, showing its progress (each change is also logged, so the
 * counts are seen as they move); throws an OperationError with the last progress and the hint when
 * the step's timeout passes, or when the progress has not changed for `stallSec`. Re-running create-cluster resumes:
 * each wait starts by looking, so a step that is already done costs one poll.
 */
export async function waitFor(o: WaitOptions): Promise<number> {
  const step = o.logger.step(o.title);
  const t0 = o.clock.now();
  let last = '';
  let moved = t0;
  for (;;) {
    let p: Probe;
    try {
      p = await o.probe();
    } catch (e) {
      step.fail(`${o.title}: ${(e as Error).message.split('\n')[0]}`);
      throw e;
    }
    if (p.progress !== last) {
      step.update(p.progress);
      // Machine rollouts take long: their counts are logged as they move, not only shown on a spinner.
      if (o.stallSec !== undefined) o.logger.info(`  ${o.title}: ${p.progress}`);
      last = p.progress;
      moved = o.clock.now();
    }
    const elapsed = (o.clock.now() - t0) / 1000;
    if (p.done) {
      step.succeed(`${o.title}${p.progress ? ` (${p.progress})` : ''}`);
      return elapsed;
    }
    const still = (o.clock.now() - moved) / 1000;
    if (o.stallSec !== undefined && still >= o.stallSec && elapsed < o.timeoutSec) {
      step.fail(`${o.title}: no progress for ${o.stallSec}s`);
      throw new OperationError(`${o.title}: no progress for ${o.stallSec}s (stuck at: ${last || 'unknown'})`, {
        hint: `${o.hint}; running the command again resumes where it stopped`,
      });
    }
    if (elapsed >= o.timeoutSec) {
      step.fail(`${o.title}: not done after ${o.timeoutSec}s`);
      throw new OperationError(`${o.title}: not done within ${o.timeoutSec}s (last state: ${last || 'unknown'})`, {
        hint: `${o.hint}; running the command again resumes where it stopped`,
      });
    }
    await o.clock.sleep(o.intervalMs ?? 10_000);
  }
}

/**
 * A probe whose errors that `transient` accepts mean "not known yet": the poll reports the error's
 * last line and the next one asks again; the wait's timeout still ends it, with that line as its state.
 */
export function retryingProbe(transient: (e: unknown) => boolean, probe: () => Promise<Probe>): () => Promise<Probe> {
  return async () => {
    try {
      return await probe();
    } catch (e) {
      if (!transient(e)) throw e;
      const last = (e as Error).message.split('\n').map((l) => l.trim()).filter(Boolean).pop() ?? '';
      return { done: false, progress: `${last}; retrying` };
    }
  };
}
