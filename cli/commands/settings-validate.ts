
import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
}

/** kaas settings validate [<cluster>] */
export const settingsValidate: Command = {
  command: 'validate [cluster]',
  describe: 'check the environment file (all cluster sections, or one), KAAS_* variables and --set flags; exit 2 listing every problem',
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', describe: 'only this cluster section must exist' })
      .example('kaas settings validate --env example', 'check the whole file')
      .example('kaas settings validate -o json', '{valid, file, clusters, problems} (exit 2 when invalid)'),
  handler: handle<Args>(async (ctx, argv) => {
    const { validateSettings, validationReport } = await import('../../lib/settings/show.js');
    if (ctx.output !== 'text') {
      return validationReport({ settingsDir: ctx.settingsDir, env: ctx.env, cluster: argv.cluster, environ: ctx.environ, sets: ctx.set, cwd: ctx.cwd });
    }
    return validateSettings({
      settingsDir: ctx.settingsDir, env: ctx.env, cluster: argv.cluster, environ: ctx.environ, sets: ctx.set, cwd: ctx.cwd,
      warn: ctx.logger.warn,
    });
  }),
};
