import { guardSignals, type SignalGuard } from '../exec/interrupt.js';
import type { Logger } from '../log.js';

/**
 * Ctrl-C (SIGINT) and SIGTERM during `kaas settings import`. The import's work is synchronous and
 * bounded (inputs are capped at 1 MiB and read in linear time), so a signal is seen at the next pause.
 * Before the settings file's lock is asked for, kaas exits at once; while it waits for the lock, holds it
 * or releases it, the exit waits until the lock is released, so that neither a lock nor a temporary file
 * is left behind (the write itself is a temporary file renamed over the target: never half a file).
 * Either way one line says whether the file was left as it was or written in full, and kaas exits
 * 130/143 instead of being killed by the lock library's exit hook with no word. A second signal exits
 * at once. The guard itself is lib/exec/interrupt.ts.
 */

/** Where the signals arrive and how the process ends (tests pass their own). */
export interface InterruptDeps {
  logger: Logger;
  signals?: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  exit?: (code: number) => void;
}

/**
 * Attaches the handlers; `said(sig)` is the one line printed. `hold(fn)` runs `fn` (the locked write)
 * with the exit deferred until it has ended; `release()` detaches the handlers.
 */
export function onInterrupt(said: (sig: NodeJS.Signals) => string, d: InterruptDeps): SignalGuard {
  return guardSignals({ signals: ['SIGINT', 'SIGTERM'], on: d.signals, exit: d.exit, onSignal: (sig) => d.logger.warn(said(sig)) });
}
