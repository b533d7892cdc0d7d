import { UsageError } from '../../lib/errors.js';
import { checkPositiveSeconds } from '../checks.js';
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

/** kaas apply-gateway <cluster> [--dry-run] [--output-dir DIR] [--capabilities FILE] [--kubeconfig F] [--context C] [--force] */
export const applyGateway: Command = {
  command: 'apply-gateway <cluster>',
  describe: 'deploy the Gateway API with Envoy Gateway (the supported successor of ingress-nginx), its envoy Service made right for the load balancer (amphora + PROXY, amphora, OVN)',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its clusters.<name> section applies)' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the manifests (multi-document YAML; a v1 List with -o json) on stdout; apply nothing' })
      .option('output-dir', { type: 'string', describe: 'with --dry-run: write DIR/envoy-gateway.yaml and DIR/cloud.conf (mode 0600) instead' })
      .option('capabilities', { type: 'string', describe: 'plan from a saved `kaas detect -o json` file instead of asking the cloud' })
      .option('kubeconfig', { type: 'string', describe: 'workload cluster kubeconfig (default: workload_kubeconfig, else ~/.kube/kaas/<cluster>.yaml)' })
      .option('context', { type: 'string', describe: 'context in that kubeconfig (default: its current context)' })
      .option('force', { type: 'boolean', default: false, describe: "apply even when OCCM's live cloud config contradicts the plan" })
      .option('rollout-timeout', { type: 'number', default: 300, describe: 'seconds to wait for the Envoy Gateway rollout' })
      .option('address-timeout', { type: 'number', default: 600, describe: 'seconds to wait for the Gateway to be Programmed and its load-balancer address' })
      .check((a) => {
        if (a['output-dir'] !== undefined && !a['dry-run']) throw new UsageError('--output-dir needs --dry-run', { hint: 'add --dry-run, or drop --output-dir to apply' });
        return checkPositiveSeconds(a, ['rollout-timeout', 'address-timeout']);
      })
      .example('kaas apply-gateway demo --env example --dry-run', 'show the manifests (CRDs, control plane, GatewayClass, EnvoyProxy, Gateway) for the example cluster (offline)')
      .example('kaas apply-gateway demo --env example --dry-run --output-dir out/', 'write out/envoy-gateway.yaml and out/cloud.conf'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runApplyGateway } = await import('../../lib/gateway/apply-gateway.js');
    return runApplyGateway(
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
