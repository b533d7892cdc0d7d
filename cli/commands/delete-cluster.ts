import { kubeconfigOptions } from '../checks.js';
import { UsageError } from '../../lib/errors.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
  dryRun: boolean;
  yes: boolean;
  cloud?: string;
  kubeconfig?: string;
  context?: string;
}

/**
 * Asks on the terminal before anything is deleted. Without a terminal (CI, pipes) nobody can
 * answer: refuse, and say how to confirm up front.
 */
async function confirmDelete(cluster: string, env: string): Promise<void> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) {
    throw new UsageError(`not deleting cluster ${cluster}: no terminal to confirm on`, { hint: `add --yes to delete without asking, or --dry-run to list what would be deleted` });
  }
  const { createInterface } = await import('node:readline/promises');
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = await rl.question(`Delete cluster ${cluster} (environment ${env}) with its volumes, load balancers and floating IPs? Type the cluster name to confirm: `);
    if (answer.trim() !== cluster) throw new UsageError(`not deleting cluster ${cluster}: confirmation "${answer.trim()}" does not match`, { hint: 'type the cluster name exactly, or use --yes' });
  } finally {
    rl.close();
  }
}

/** kaas delete-cluster <cluster>: delete a workload cluster and what it left in the cloud. */
export const deleteCluster: Command = {
  command: 'delete-cluster <cluster>',
  describe: 'delete a workload cluster: LoadBalancer Services and PVCs first, then the Cluster, then leftover LBs, FIPs, server and security groups, and the kubeconfig context',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'list what would be deleted; delete nothing' })
      .option('yes', { alias: 'y', type: 'boolean', default: false, describe: 'do not ask for confirmation (needed without a terminal)' })
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry (overrides the cloud setting and OS_CLOUD)' })
      .options(kubeconfigOptions('management'))
      .example('kaas delete-cluster demo --dry-run', 'list what would be deleted')
      .example('kaas delete-cluster demo --yes', 'delete without asking (scripts, CI)'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runDeleteCluster } = await import('../../lib/cluster/run.js');
    const { checkClusterName } = await import('../../lib/cluster/setup.js');
    checkClusterName(argv.cluster);
    if (!argv.dryRun && !argv.yes) await confirmDelete(argv.cluster, ctx.env);
    return runDeleteCluster({
      cluster: argv.cluster, env: ctx.env, settingsDir: ctx.settingsDir, sets: ctx.set, cloud: argv.cloud,
      kubeconfig: argv.kubeconfig, context: argv.context,
      dryRun: argv.dryRun, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home,
    }, ctx);
  }),
};
