import { guardSignals, signalExitCode } from '../exec/interrupt.js';
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
  // SIGHUP too: a closed terminal must not leave the namespace (and OCCM's load balancers) behind (issue 23).
  const guard = guardSignals({
    signals: ['SIGINT', 'SIGTERM', 'SIGHUP'], on: d.signals, exit: d.exit,
    onSignal: async (sig) => {
      logger.warn(`${sig}: cleaning up before exiting (send it again to exit at once)`);
      if (await cleanup().catch(() => false)) logger.warn(`${sig}: namespace ${namespace} removed (OCCM deletes its load balancers); exiting ${signalExitCode(sig)}`);
    },
    onAgain: (sig) => logger.warn(`${sig} again: exiting without waiting; remove the check's namespace yourself: ${manualDelete(k, namespace)}`),
  });
  return { cleanup, release: guard.release };
}
