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

/**
 * The kubeconfig flag of a command that reaches a cluster, named after the cluster it means:
 * `--workload-kubeconfig` (apply-*, check-lb, doctor, migrate-ingress) or `--mgmt-kubeconfig`
 * (create/delete-cluster, get), as the settings call them (workload_kubeconfig, mgmt_kubeconfig);
 * `--kubeconfig` stays an alias of it. `--context` is a context in that file. `use` says what the
 * management kubeconfig is for where it is not the command's main input.
 */
export function kubeconfigOptions(of: 'workload' | 'management', use?: string) {
  const workload = of === 'workload';
  const flag = workload ? 'workload-kubeconfig' : 'mgmt-kubeconfig';
  return {
    [flag]: {
      type: 'string' as const,
      alias: 'kubeconfig',
      describe: workload
        ? 'workload cluster kubeconfig (default: from the management cluster, else workload_kubeconfig, else ~/.kube/kaas/env.<env>/<namespace>/<cluster>.yaml); --kubeconfig is the same flag'
        : `management cluster kubeconfig${use ? `, ${use}` : ''} (default: mgmt_kubeconfig, else KUBECONFIG or ~/.kube/config); --kubeconfig is the same flag`,
    },
    context: {
      type: 'string' as const,
      describe: workload ? `context in the workload cluster kubeconfig (default: its current context)` : 'context in the management cluster kubeconfig (default: mgmt_context, else its current context)',
    },
  };
}
