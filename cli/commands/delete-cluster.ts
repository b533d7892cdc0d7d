import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
  dryRun: boolean;
  cloud?: string;
}

/** kaas delete-cluster <cluster>: delete a workload cluster and what it left in the cloud. */
export const deleteCluster: Command = {
  command: 'delete-cluster [cluster]',
  describe: 'delete a workload cluster: LoadBalancer Services and PVCs first, then the Cluster, then leftover LBs, FIPs, server and security groups, and the kubeconfig context',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', describe: 'cluster name' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'list what would be deleted; delete nothing' })
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry (overrides the cloud setting and OS_CLOUD)' }),
  handler: handle<Args>(async (ctx, argv) => {
    const { runDeleteCluster } = await import('../../lib/cluster/run.js');
    return runDeleteCluster({
      cluster: argv.cluster ?? '', env: ctx.env, settingsDir: ctx.settingsDir, sets: ctx.set, cloud: argv.cloud,
      dryRun: argv.dryRun, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home,
    }, ctx);
  }),
};
