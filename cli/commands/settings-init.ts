import { handle, type Command } from '../context.js';

interface Args {
  cloud?: string;
  cluster?: string;
  force: boolean;
  dryRun: boolean;
}

/** kaas settings init [--cloud NAME] [--cluster NAME] [--force] [--dry-run] */
export const settingsInit: Command = {
  command: 'init',
  describe: 'write a commented starter file <settings-dir>/<env>.yaml',
  builder: (y) =>
    y
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry to write as the cloud setting' })
      .option('cluster', { type: 'string', describe: 'add an empty clusters.<name> section' })
      .option('force', { type: 'boolean', default: false, describe: 'overwrite an existing file' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the file instead of writing it' })
      .example('kaas settings init --cloud mycloud --cluster demo', 'start ~/.config/kaas/default.yaml (or ./settings/)')
      .example('kaas settings init --env prod --settings-dir ./settings', 'start ./settings/prod.yaml'),
  handler: handle<Args>(async (ctx, argv) => {
    const { initSettings } = await import('../../lib/settings/init.js');
    const r = initSettings({ settingsDir: ctx.settingsDir, env: ctx.env, cwd: ctx.cwd, cloud: argv.cloud, cluster: argv.cluster, force: argv.force, dryRun: argv.dryRun });
    return ctx.output === 'text' ? { raw: r.raw, text: r.text } : { data: r.data };
  }),
};
