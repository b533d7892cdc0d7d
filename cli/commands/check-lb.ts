import { UsageError } from '../../lib/errors.js';
import { durationOption, kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
  capabilities?: string;
  kubeconfig?: string;
  context?: string;
  port: number;
  tries: number;
  addressTimeout: number;
}

/** kaas check-lb <cluster> [--tries N] [--port P] [--kubeconfig F] [--context C] */
export const checkLb: Command = {
  command: 'check-lb <cluster>',
  describe: 'run the SCS KaaS load-balancer conformance test: echo pods, an ETP Cluster and an ETP Local Service, requests from this host (exit 1 on a failed check)',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its kubeconfig and clusters.<name> settings)' })
      .option('capabilities', { type: 'string', describe: 'plan from a saved `kaas detect -o json` file instead of asking the cloud' })
      .options(kubeconfigOptions('workload'))
      .option('port', { type: 'number', default: 80, describe: 'port of the two test Services' })
      .option('tries', { type: 'number', default: 50, describe: 'requests per Service; every one must answer' })
      .option('address-timeout', durationOption('address-timeout', '10m', 'how long to wait for each load-balancer address'))
      .check((a) => {
        for (const f of ['port', 'tries']) {
          const v = a[f];
          if (typeof v !== 'number' || !Number.isInteger(v) || v < 1 || (f === 'port' && v > 65535)) throw new UsageError(`--${f} must be a positive whole number${f === 'port' ? ' up to 65535' : ''} (got ${String(v)})`);
        }
        return true;
      })
      .example('kaas check-lb demo', 'check that LoadBalancer Services of cluster demo work as the SCS standard asks'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runCheckLb } = await import('../../lib/checklb/check-lb.js');
    return runCheckLb(
      {
        cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: ctx.set,
        capabilitiesFile: argv.capabilities, kubeconfig: argv.kubeconfig, context: argv.context, port: argv.port, tries: argv.tries, addressSec: argv.addressTimeout,
      },
      { logger: ctx.logger, runner: ctx.runner },
    );
  }),
};
