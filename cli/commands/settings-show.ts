
import { handle, type Command } from '../context.js';

interface Args {
  cluster: string;
}

/** kaas settings show <cluster> */
export const settingsShow: Command = {
  command: 'show <cluster>',
  describe: 'print every effective setting of a cluster and where it came from, and its edge plans (ingress-nginx, gateway)',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', demandOption: true, describe: 'cluster name (its clusters.<name> section applies)' })
      .example('kaas settings show demo --env example', 'every value of cluster demo and its origin')
      .example('kaas settings show demo -o json', '{env, cluster, file, settings: {key: {value, origin}}}'),
  handler: handle<Args>(async (ctx, argv) => {
    const { showSettings } = await import('../../lib/settings/show.js');
    const { explainOffline } = await import('../../lib/gateway/explain.js');
    return showSettings({
      settingsDir: ctx.settingsDir, env: ctx.env, cluster: argv.cluster, environ: ctx.environ, sets: ctx.set, cwd: ctx.cwd,
      warn: ctx.logger.warn, explain: explainOffline,
    });
  }),
};
