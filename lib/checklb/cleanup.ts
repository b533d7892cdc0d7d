import type { Kubectl } from '../kube/kubectl.js';
import type { Logger } from '../log.js';
import { thrownLine } from '../visible.js';

/**
 * check-lb's removal of its namespace: once, bounded, never throwing (a hostile or hung API server must
 * not hide why the run stopped, nor hold kaas for kubectl's five minutes), and on SIGINT/SIGTERM/SIGHUP
 * before kaas exits 130/143/129. When the delete fails, the output names the exact kubectl command
 * (with the kubeconfig and context check-lb used) that removes what is left.
 */

/** How long the delete of the namespace may take by default (it does not wait for the deletion itself). */
export const CLEANUP_TIMEOUT_MS = 30_000;

/** The kubectl command a user runs to remove the namespace by hand, against the cluster check-lb used. */
export function manualDelete(k: Pick<Kubectl, 'target'>, namespace: string): string {
  const q = (w: string) => (/^[\w./:@=+-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`);
  const t = k.target ?? {};
  return ['kubectl', 'delete', 'namespace', namespace, ...(t.kubeconfig ? ['--kubeconfig', q(t.kubeconfig)] : []), ...(t.context ? ['--context', q(t.context)] : [])].join(' ');
}

/** What guardNamespace needs: where signals arrive and how the process ends after one. */
export interface GuardDeps {
  logger: Logger;
  signals: Pick<NodeJS.Process, 'on' | 'removeListener'>;
  exit: (code: number) => void;
  timeoutMs?: number;
}

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

/**
 * Guards `namespace` from the moment the caller is about to create it: `cleanup()` removes it (once;
 * resolves true when the delete was issued and answered, false otherwise, never rejects), a signal runs
 * the cleanup and then exits 128+signal, and `release()` detaches the signal listeners after the cleanup.
 */
export function guardNamespace(k: Pick<Kubectl, 'delete' | 'target'>, namespace: string, d: GuardDeps): { cleanup: () => Promise<boolean>; release: () => void } {
  const { logger } = d;
  let cleaning: Promise<boolean> | undefined;
  const cleanup = () => (cleaning ??= (async () => {
    const step = logger.step(`removing namespace ${namespace}`);
    try {
      await k.delete(['namespace', namespace], { wait: false, timeoutMs: d.timeoutMs ?? CLEANUP_TIMEOUT_MS });
      step.succeed();
      return true;
    } catch (e) {
      step.fail();
      logger.warn(`could not remove namespace ${namespace}: ${thrownLine(e)}; remove it (and with it the check's load balancers) yourself: ${manualDelete(k, namespace)}`);
      return false;
    }
  })());
  // `on`, not `once`: while our listener is attached, a signal is ours to handle. With `once` it detaches as
  // the signal arrives, and execa's signal-exit (attached while a kubectl runs) then finds itself the only
  // listener and re-raises the signal, killing kaas before the namespace is removed.
  let interrupted = false;
  const onSignal = (sig: NodeJS.Signals) => {
    const code = 128 + (sig === 'SIGINT' ? 2 : sig === 'SIGHUP' ? 1 : 15);
    // SIGHUP: the terminal is gone (ssh dropped, window closed); writing to it fails with EIO/EPIPE, which
    // must not end the process before the namespace (and with it OCCM's load balancers) is removed.
    if (sig === 'SIGHUP') for (const out of [process.stdout, process.stderr]) out.on('error', () => undefined);
    if (interrupted) {
      logger.warn(`${sig} again: exiting without waiting; remove the check's namespace yourself: ${manualDelete(k, namespace)}`);
      d.exit(code);
      return;
    }
    interrupted = true;
    logger.warn(`${sig}: cleaning up before exiting (send it again to exit at once)`);
    void cleanup().catch(() => false).then((removed) => {
      if (removed) logger.warn(`${sig}: namespace ${namespace} removed (OCCM deletes its load balancers); exiting ${code}`);
      d.exit(code);
    });
  };
  for (const sig of SIGNALS) d.signals.on(sig, onSignal);
  return { cleanup, release: () => { for (const sig of SIGNALS) d.signals.removeListener(sig, onSignal); } };
}
