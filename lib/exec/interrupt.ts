/**
 * The one signal guard of kaas's commands: while it is attached, SIGINT/SIGTERM (and SIGHUP when asked)
 * are kaas's to handle, and kaas exits 128+signal itself (130, 143, 129) after the caller's last words
 * instead of being killed with none (by the default action, or by the exit hook of execa's signal-exit
 * or the lock library). Two options cover what the callers need:
 * - hold(fn): the exit is deferred until `fn` (a locked write) has ended, so no lock or temporary file is
 *   left behind; a second signal meanwhile exits at once.
 * - an async `onSignal` (clean up first): the exit waits for it; a second signal meanwhile runs `onAgain`
 *   and exits at once.
 */

/** The exit code after a signal: 128 + its number. */
export function signalExitCode(sig: NodeJS.Signals): number {
  return 128 + (sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 15);
}

/** What guardSignals does on a signal. */
export interface SignalGuardOptions {
  /** The signals taken over (SIGINT and SIGTERM, and SIGHUP where a closed terminal must not stop the cleanup). */
  signals: readonly NodeJS.Signals[];
  /** Where the signals arrive (tests pass their own); process by default. */
  on?: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  /** How the process ends; process.exit by default. */
  exit?: (code: number) => void;
  /** The last words or the cleanup, run once before the exit; the exit waits when it returns a promise. */
  onSignal: (sig: NodeJS.Signals) => void | Promise<void>;
  /** Said when a second signal arrives while onSignal still runs, just before exiting at once. */
  onAgain?: (sig: NodeJS.Signals) => void;
}

/** The attached guard: `hold` defers the exit around `fn`, `interrupted` tells a held fn to stop writing, `release` detaches. */
export interface SignalGuard {
  hold: <T>(fn: () => Promise<T>) => Promise<T>;
  /** True once a signal is waiting for the held work to end: the work then writes nothing more. */
  interrupted: () => boolean;
  release: () => void;
}

/** Attaches the handlers (see the module comment). */
export function guardSignals(o: SignalGuardOptions): SignalGuard {
  const on = o.on ?? process;
  const exit = o.exit ?? ((code: number) => process.exit(code));
  let holding = false;
  let pending: NodeJS.Signals | undefined;
  let ending = false;
  const end = (sig: NodeJS.Signals) => {
    const code = signalExitCode(sig);
    if (ending) {
      o.onAgain?.(sig);
      exit(code);
      return;
    }
    ending = true;
    let last: void | Promise<void>;
    try {
      last = o.onSignal(sig);
    } catch {
      last = undefined;
    }
    if (last instanceof Promise) void last.catch(() => undefined).then(() => exit(code));
    else exit(code);
  };
  // `on`, not `once`: while this listener is attached, a signal is ours to handle. With `once` it detaches
  // as the signal arrives, and execa's signal-exit (attached while a tool runs) then finds itself the only
  // listener and re-raises the signal, killing kaas before its cleanup.
  const handler = (sig: NodeJS.Signals) => {
    // SIGHUP: the terminal is gone (ssh dropped, window closed); writing to it fails with EIO/EPIPE, which
    // must not end the process before the cleanup is done.
    if (sig === 'SIGHUP') for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
    if (holding && !pending && !ending) pending = sig;
    else end(sig);
  };
  for (const s of o.signals) on.on(s, handler);
  return {
    async hold(fn) {
      holding = true;
      try {
        return await fn();
      } finally {
        holding = false;
        if (pending && !ending) end(pending);
      }
    },
    interrupted: () => pending !== undefined,
    release: () => {
      for (const s of o.signals) on.removeListener(s, handler);
    },
  };
}
