import { UsageError } from '../../lib/errors.js';
import { kubeconfigOptions } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
  namespace?: string;
  file?: string;
  outputDir?: string;
  apply: boolean;
  allowUnprotected: boolean;
  detachUnprotected: boolean;
  capabilities?: string;
  kubeconfig?: string;
  context?: string;
}

/** kaas migrate-ingress [<cluster>] [--namespace N] [--file F] [--output-dir D] [--apply] [--detach-unprotected | --allow-unprotected] [--capabilities FILE] */
export const migrateIngress: Command = {
  command: 'migrate-ingress [cluster]',
  describe: 'convert ingress-nginx Ingresses (from the cluster, or offline from files) to Gateway API routes on the kaas Gateway, listing every annotation not converted',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', describe: 'read the Ingresses of this cluster (and apply there with --apply)' })
      .option('namespace', { alias: 'n', type: 'string', describe: 'only this namespace (with --file: also the namespace of Ingresses that name none)' })
      .option('file', { alias: 'f', type: 'string', describe: 'read Ingresses, and the Services their named ports refer to, from a manifest file or directory instead of the cluster (no cluster access needed)' })
      .option('output-dir', { type: 'string', describe: 'write one file per object under DIR/<namespace>/ instead of stdout' })
      .option('apply', { type: 'boolean', default: false, describe: 'apply the objects to the cluster (server-side, field manager kaas-migrate-ingress)' })
      .option('detach-unprotected', { type: 'boolean', default: false, describe: 'write the routes of Ingresses whose auth, IP list or client-certificate check is not converted without parentRefs (not on the Gateway) instead of refusing' })
      .option('allow-unprotected', { type: 'boolean', default: false, describe: 'attach those routes to the Gateway anyway, without that protection (open to anyone who reaches the Gateway)' })
      .option('capabilities', { type: 'string', describe: 'the cloud\'s capabilities (kaas detect -o json): decides whether the gateway keeps client IPs (IP allow/deny lists convert only then) when use_ovn_lb_provider is auto' })
      .options(kubeconfigOptions('workload'))
      .example('kaas migrate-ingress --file k8s/ingress/ > routes.yaml', 'convert a GitOps folder offline; the not-converted list goes to stderr')
      .example('kaas migrate-ingress demo -n shop -o json', 'the routes and notConverted [{ingress, annotation, reason}] as JSON')
      .example('kaas migrate-ingress demo --apply', 'apply the routes beside the Ingresses; switch DNS per host afterwards'),
  handler: handle<Args>(async (ctx, argv) => {
    if (argv.allowUnprotected && argv.detachUnprotected) {
      throw new UsageError('--detach-unprotected and --allow-unprotected exclude each other', { hint: 'detach keeps those routes off the Gateway; allow attaches them without their protection: pick one' });
    }
    const { runMigrateIngress } = await import('../../lib/gateway/migrate/run.js');
    return runMigrateIngress(
      {
        cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: ctx.set,
        namespace: argv.namespace, file: argv.file, outputDir: argv.outputDir, apply: argv.apply, kubeconfig: argv.kubeconfig, context: argv.context, capabilitiesFile: argv.capabilities,
        unprotected: argv.allowUnprotected ? 'attach' : argv.detachUnprotected ? 'detach' : 'refuse',
        json: ctx.output === 'json',
      },
      { logger: ctx.logger, runner: ctx.runner },
    );
  }),
};
