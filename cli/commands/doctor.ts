import { durationOption, kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
  cloud?: string;
  cloudOnly: boolean;
  stuckAfter: number;
  kubeconfig?: string;
  context?: string;
}

/** kaas doctor [<cluster>] [--cloud-only] [--stuck-after 10m] [--cloud NAME] [--kubeconfig F] [--context C] */
export const doctor: Command = {
  command: 'doctor [cluster]',
  describe: 'find what makes load balancers half-work: Octavia/Neutron state, quotas, OCCM config, Services (exit 1 on an error finding)',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', describe: 'the cluster to look at (its LBs, kubeconfig and clusters.<name> settings); without it: every cluster LB of the project, cloud side only' })
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry (beats the cloud setting and OS_CLOUD)' })
      .option('cloud-only', { type: 'boolean', default: false, describe: 'skip the cluster side (kubectl)' })
      .option('stuck-after', durationOption('stuck-after', '10m', 'a load balancer PENDING_* for longer is reported as stuck'))
      .options(kubeconfigOptions('workload'))
      .example('kaas doctor demo', 'cloud and cluster checks of cluster demo')
      .example('kaas doctor demo --cloud-only -o json', 'cloud checks only, as JSON'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runDoctor } = await import('../../lib/doctor/doctor.js');
    return runDoctor(
      {
        cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: ctx.set,
        cloud: argv.cloud, cloudOnly: argv.cloudOnly, stuckAfterSec: argv.stuckAfter,
        kubeconfig: argv.kubeconfig, context: argv.context,
      },
      { logger: ctx.logger, runner: ctx.runner },
    );
  }),
};
