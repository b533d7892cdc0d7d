import type { ApplyIngressOptions, ApplyIngressResult } from '../../lib/ingress/apply-ingress.js';
import type { ApplyIngressDeps } from '../../lib/ingress/apply-ingress.js';
import { UsageError } from '../../lib/errors.js';
import { durationOption, kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
  dryRun: boolean;
  outputDir?: string;
  capabilities?: string;
  cloud?: string;
  kubeconfig?: string;
  context?: string;
  force: boolean;
  rolloutTimeout: number;
  addressTimeout: number;
  verify: boolean;
  verifyTimeout: number;
  newCluster: boolean;
}

/** What differs between the edge-apply commands (apply-ingress, apply-gateway). */
export interface EdgeApplySpec {
  name: string;
  describe: string;
  /** The manifest file --output-dir writes, e.g. "ingress-nginx.yaml". */
  manifest: string;
  /** What the rollout and address waits wait for (help texts). */
  rolloutOf: string;
  addressOf: string;
  dryRunShows: string;
  /** The use case, loaded on demand. */
  run: () => Promise<(o: ApplyIngressOptions, d: ApplyIngressDeps) => Promise<ApplyIngressResult>>;
}

/** An edge-apply command: the same flags and options for every edge proxy kaas deploys. */
export function edgeApplyCommand(spec: EdgeApplySpec): Command {
  return {
    command: `${spec.name} <cluster>`,
    describe: spec.describe,
    builder: (y) =>
      y
        .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its clusters.<name> section applies)' })
        .option('dry-run', { type: 'boolean', default: false, describe: 'print the manifests (multi-document YAML; a v1 List with -o json) on stdout; apply nothing' })
        .option('output-dir', { type: 'string', describe: `with --dry-run: write DIR/${spec.manifest} and DIR/cloud.conf (mode 0600) instead` })
        .option('capabilities', { type: 'string', describe: 'plan from a saved `kaas detect -o json` file instead of asking the cloud' })
        .option('cloud', { type: 'string', describe: 'clouds.yaml entry (overrides the cloud setting and OS_CLOUD)' })
        .options(kubeconfigOptions('workload'))
        .option('new-cluster', { type: 'boolean', default: false, describe: 'the cluster is not in the clusters: map of the environment file: use the environment-level settings (without it a real run refuses a name the map does not list)' })
        .option('force', { type: 'boolean', default: false, describe: "apply even when OCCM's live cloud config contradicts the plan (apply-gateway: also over newer or experimental-channel Gateway API CRDs)" })
        .option('rollout-timeout', durationOption('rollout-timeout', '5m', `how long to wait for the ${spec.rolloutOf} rollout`))
        .option('address-timeout', durationOption('address-timeout', '10m', `how long to wait for ${spec.addressOf}`))
        .option('verify', { type: 'boolean', default: true, describe: 'verify the Octavia LB against the plan after applying (--no-verify to skip); exit 1 on a mismatch' })
        .option('verify-timeout', durationOption('verify-timeout', '3m', 'how long the verification re-checks before reporting a mismatch'))
        .check((a) => {
          if (a['output-dir'] !== undefined && !a['dry-run']) throw new UsageError('--output-dir needs --dry-run', { hint: 'add --dry-run, or drop --output-dir to apply' });
          return true;
        })
        .example(`kaas ${spec.name} demo --env example --dry-run`, `show the manifests (${spec.dryRunShows}) for the example cluster (offline)`)
        .example(`kaas ${spec.name} demo --env example --dry-run --output-dir out/`, `write out/${spec.manifest} and out/cloud.conf`)
        .example(`kaas ${spec.name} demo --kubeconfig ~/demo/demo.yaml`, 'deploy into that cluster'),
    handler: handle<Args>(async (ctx, argv) => {
      const run = await spec.run();
      return run(
        {
          cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: [...ctx.set, ...(argv.cloud ? [`cloud=${argv.cloud}`] : [])],
          dryRun: argv.dryRun, newCluster: argv.newCluster, outputDir: argv.outputDir, manifestFormat: ctx.output === 'json' ? 'json' : 'yaml', capabilitiesFile: argv.capabilities, kubeconfig: argv.kubeconfig,
          context: argv.context, force: argv.force, verify: argv.verify,
          timeouts: { rolloutSec: argv.rolloutTimeout, addressSec: argv.addressTimeout, verifySec: argv.verifyTimeout },
        },
        { logger: ctx.logger, runner: ctx.runner },
      );
    }),
  };
}
