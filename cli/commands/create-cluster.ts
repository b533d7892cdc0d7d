import { kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
  dryRun: boolean;
  outputDir?: string;
  listVariables: boolean;
  wait: boolean;
  mergeKubeconfig: boolean;
  cloud?: string;
  capabilities?: string;
  recreateEdgeServices?: boolean;
  kubeconfig?: string;
  context?: string;
  upgrade: boolean;
  newCluster: boolean;
}

/** kaas create-cluster <cluster>: create or converge a workload cluster and its add-ons. */
export const createCluster: Command = {
  command: 'create-cluster <cluster>',
  describe: 'create a workload cluster (Cluster API + CAPO) with its add-ons and ingress; re-running converges',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its clusters.<name> section applies)' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'render and check only: print the manifests (secrets redacted) or write them to --output-dir; touches nothing' })
      .option('output-dir', { type: 'string', describe: 'with --dry-run: write cluster.yaml, addon-*.yaml, ingress-nginx.yaml and cloud.conf here (secret files mode 0600)' })
      .option('wait', { type: 'boolean', default: true, describe: '--no-wait: stop once the management-cluster objects are applied (webhooks passed); a later run without it waits and continues with the add-ons' })
      .option('merge-kubeconfig', { type: 'boolean', default: true, describe: '--no-merge-kubeconfig: do not add the context <env>/<namespace>/<cluster>-admin@<cluster> to KUBECONFIG / ~/.kube/config (the cluster\'s own file is written either way)' })
      .option('list-variables', { type: 'boolean', default: false, describe: 'list the settings that shape the cluster, their values and origins, and exit' })
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry (overrides the cloud setting and OS_CLOUD)' })
      .option('capabilities', { type: 'string', describe: 'a `kaas detect -o json` file: plan the load balancers without asking Octavia' })
      .option('upgrade', { type: 'boolean', default: false, describe: 'with kubernetes_version vX.Y.x: move a live cluster to the newest patch image of that minor (without it, a live cluster keeps its version)' })
      .option('new-cluster', { type: 'boolean', default: false, describe: 'the cluster is new and not in the clusters: map of the environment file: build it from the environment-level settings (without it a real run refuses a name the map does not list)' })
      .option('recreate-edge-services', { type: 'boolean', default: false, describe: 'allow switching use_ovn_lb_provider on a running cluster: the edge Services are re-created on the new provider (new addresses)' })
      .options(kubeconfigOptions('management'))
      .example('kaas create-cluster demo --env example --dry-run', 'render everything offline (secrets redacted)')
      .example('kaas create-cluster demo --list-variables', 'the settings that shape cluster demo')
      .example('kaas create-cluster demo --kubeconfig ~/.kube/mgmt.yaml', 'create it from that management cluster')
      .example('kaas create-cluster demo --no-wait', 'apply the cluster objects and return; re-run without --no-wait to finish'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runCreateCluster } = await import('../../lib/cluster/run.js');
    const r = await runCreateCluster({
      cluster: argv.cluster, env: ctx.env, settingsDir: ctx.settingsDir, sets: ctx.set, cloud: argv.cloud,
      kubeconfig: argv.kubeconfig, context: argv.context,
      dryRun: argv.dryRun || argv.listVariables, outputDir: argv.outputDir, listVariables: argv.listVariables, capabilitiesFile: argv.capabilities,
      wait: argv.wait, mergeKubeconfig: argv.mergeKubeconfig, upgrade: argv.upgrade, newCluster: argv.newCluster, recreateEdgeServices: argv.recreateEdgeServices, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home,
    }, ctx);
    return ctx.output === 'text' ? r : { data: r.data };
  }),
};
