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
  /** What to look at when it times out. */
  hint: string;
  probe: () => Promise<Probe>;
}

/**
 * Polls `probe` until it reports done, showing its progress; throws an OperationError with the
 * last progress and the hint when the step's timeout passes. Re-running create-cluster resumes:
 * each wait starts by looking, so a step that is already done costs one poll.
 */
export async function waitFor(o: WaitOptions): Promise<number> {
  const step = o.logger.step(o.title);
  const t0 = o.clock.now();
  let last = '';
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
      last = p.progress;
    }
    const elapsed = (o.clock.now() - t0) / 1000;
    if (p.done) {
      step.succeed(`${o.title}${p.progress ? ` (${p.progress})` : ''}`);
      return elapsed;
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
