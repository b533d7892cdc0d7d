import { kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';
import { ownFlagsFirst } from '../help-groups.js';

interface Args {
  cluster: string;
  outputFile?: string;
  kubeconfig?: string;
  context?: string;
}

/** kaas get kubeconfig <cluster> [--output-file F] [--kubeconfig F] [--context C] */
const getKubeconfig: Command = {
  command: 'kubeconfig <cluster>',
  describe: "print the workload cluster's kubeconfig (or write it, mode 0600)",
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name' })
      .option('output-file', { type: 'string', describe: 'write the kubeconfig here (mode 0600) instead of printing it' })
      .options(kubeconfigOptions('management', 'asked when no file is recorded'))
      .example('kaas get kubeconfig demo --env example > demo.yaml', 'print it')
      .example('kaas get kubeconfig demo --output-file ~/.kube/demo.yaml', 'write it (mode 0600)'),
  handler: handle<Args>(async (ctx, argv) => {
    const { getKubeconfig: run } = await import('../../lib/cluster/read/get-kubeconfig.js');
    const r = await run(
      { cluster: argv.cluster, env: ctx.env, settingsDir: ctx.settingsDir, sets: ctx.set, kubeconfig: argv.kubeconfig, context: argv.context, outputFile: argv.outputFile, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home },
      { runner: ctx.runner, logger: ctx.logger },
    );
    // Without --output-file stdout is the kubeconfig itself (like clusterctl get kubeconfig), whatever -o says.
    if (!argv.outputFile) return { raw: r.kubeconfig };
    return { data: r.result, text: `wrote ${r.result.file} (mode 0600, from ${r.result.from ?? 'the management cluster'})` };
  }),
};

interface ClustersArgs {
  kubeconfig?: string;
  context?: string;
  allNamespaces: boolean;
}

/** kaas get clusters [-A] [--mgmt-kubeconfig F] [--context C] */
const getClusters: Command = {
  command: 'clusters',
  describe: "list the environment's clusters with their live phase, Kubernetes versions and ready machines (from the management cluster)",
  builder: (y) =>
    y
      .option('all-namespaces', { alias: 'A', type: 'boolean', default: false, describe: "also list the management cluster's Clusters that the environment file has no section for" })
      .options(kubeconfigOptions('management'))
      .example('kaas get clusters --env prod', "prod's clusters: phase, control plane and worker versions")
      .example('kaas get clusters -A -o json', 'every Cluster of the management cluster, as JSON'),
  handler: handle<ClustersArgs>(async (ctx, argv) => {
    const { getClusters: run } = await import('../../lib/cluster/read/get-clusters.js');
    return run(
      { env: ctx.env, settingsDir: ctx.settingsDir, sets: ctx.set, kubeconfig: argv.kubeconfig, context: argv.context, all: argv.allNamespaces, environ: ctx.environ, cwd: ctx.cwd },
      { runner: ctx.runner, logger: ctx.logger },
    );
  }),
};

/** The get subcommands, in help order. */
export const getCommands: Command[] = [getClusters, getKubeconfig].map(ownFlagsFirst);

/** kaas get <clusters|kubeconfig> */
export const get: Command = {
  command: 'get <what>',
  describe: 'get something of an environment or a cluster: clusters, kubeconfig',
  builder: (y) =>
    getCommands
      .reduce((p, c) => p.command(c as never), y)
      .example('kaas get clusters', "the environment's clusters and their live state")
      .example('kaas get kubeconfig demo > demo.yaml', "cluster demo's kubeconfig")
      .demandCommand(1, 'name what to get: clusters or kubeconfig'),
  handler: () => undefined,
};
