import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
  namespace?: string;
  file?: string;
  outputDir?: string;
  apply: boolean;
  kubeconfig?: string;
  context?: string;
}

/** kaas migrate-ingress [<cluster>] [--namespace N] [--file F] [--output-dir D] [--apply] */
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
      .option('kubeconfig', { type: 'string', describe: 'workload cluster kubeconfig (default: from the management cluster, else workload_kubeconfig, else ~/.kube/kaas/env.<env>/<namespace>/<cluster>.yaml)' })
      .option('context', { type: 'string', describe: 'context in that kubeconfig' })
      .example('kaas migrate-ingress --file k8s/ingress/ > routes.yaml', 'convert a GitOps folder offline; the not-converted list goes to stderr')
      .example('kaas migrate-ingress demo -n shop -o json', 'the routes and notConverted [{ingress, annotation, reason}] as JSON')
      .example('kaas migrate-ingress demo --apply', 'apply the routes beside the Ingresses; switch DNS per host afterwards'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runMigrateIngress } = await import('../../lib/gateway/migrate/run.js');
    return runMigrateIngress(
      {
        cluster: argv.cluster, settingsDir: ctx.settingsDir, env: ctx.env, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home, sets: ctx.set,
        namespace: argv.namespace, file: argv.file, outputDir: argv.outputDir, apply: argv.apply, kubeconfig: argv.kubeconfig, context: argv.context,
        json: ctx.output === 'json',
      },
      { logger: ctx.logger, runner: ctx.runner },
    );
  }),
};
