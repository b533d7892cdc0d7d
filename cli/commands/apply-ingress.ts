import { UsageError } from '../../lib/errors.js';
import { durationOption } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
  dryRun: boolean;
  outputDir?: string;
  capabilities?: string;
  kubeconfig?: string;
  context?: string;
  force: boolean;
  rolloutTimeout: number;
  addressTimeout: number;
}

/** kaas apply-ingress <cluster> [--dry-run] [--output-dir DIR] [--capabilities FILE] [--kubeconfig F] [--context C] [--force] */
export const applyIngress: Command = {
  command: 'apply-ingress <cluster>',
  describe: 'deploy ingress-nginx to a workload cluster the right way for its load balancer (amphora + PROXY, amphora, OVN)',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its clusters.<name> section applies)' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the manifests (multi-document YAML; a v1 List with -o json) on stdout; apply nothing' })
      .option('output-dir', { type: 'string', describe: 'with --dry-run: write DIR/ingress-nginx.yaml and DIR/cloud.conf (mode 0600) instead' })
      .option('capabilities', { type: 'string', describe: 'plan from a saved `kaas detect -o json` file instead of asking the cloud' })
      .option('kubeconfig', { type: 'string', describe: 'workload cluster kubeconfig (default: workload_kubeconfig, else ~/.kube/kaas/<cluster>.yaml)' })
      .option('context', { type: 'string', describe: 'context in that kubeconfig (default: its current context)' })
      .option('force', { type: 'boolean', default: false, describe: "apply even when OCCM's live cloud config contradicts the plan" })
      .option('rollout-timeout', durationOption('rollout-timeout', '5m', 'how long to wait for the controller rollout'))
      .option('address-timeout', durationOption('address-timeout', '10m', 'how long to wait for the load-balancer address'))
      .check((a) => {
        if (a['output-dir'] !== undefined && !a['dry-run']) throw new UsageError('--output-dir needs --dry-run', { hint: 'add --dry-run, or drop --output-dir to apply' });
        return true;
      })
      .example('kaas apply-ingress demo --env example --dry-run', 'show the manifests for the example cluster (offline)')
      .example('kaas apply-ingress demo --env example --dry-run --output-dir out/', 'write out/ingress-nginx.yaml and out/cloud.conf'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runApplyIngress } = await import('../../lib/ingress/apply-ingress.js');
    return runApplyIngress(
      {
        cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: ctx.set,
        dryRun: argv.dryRun, outputDir: argv.outputDir, manifestFormat: ctx.output === 'json' ? 'json' : 'yaml', capabilitiesFile: argv.capabilities, kubeconfig: argv.kubeconfig,
        context: argv.context, force: argv.force,
        timeouts: { rolloutSec: argv.rolloutTimeout, addressSec: argv.addressTimeout },
      },
      { logger: ctx.logger, runner: ctx.runner },
    );
  }),
};
