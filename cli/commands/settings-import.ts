
import { handle, type Command } from '../context.js';

interface Args {
  clusterctl: string;
  cloudConf?: string;
  harborSettings?: string;
  tfvars?: string;
  cluster: string;
  dryRun: boolean;
  force: boolean;
}

/** kaas settings import <clusterctl.yaml> --cluster NAME */
export const settingsImport: Command = {
  command: 'import <clusterctl>',
  describe: 'turn an SCS clusterctl.yaml (+ cloud.conf, harbor-settings, environment tfvars) into clusters.<name> of <settings-dir>/<env>.yaml',
  builder: (y) =>
    y
      .positional('clusterctl', { type: 'string', demandOption: true, describe: 'the SCS per-cluster clusterctl.yaml' })
      .option('cloud-conf', { type: 'string', describe: 'the SCS cloud.conf: its [LoadBalancer] extras become occm_loadbalancer' })
      .option('harbor-settings', { type: 'string', describe: 'the SCS harbor-settings file' })
      .option('tfvars', { type: 'string', describe: 'the SCS environment file (environments/environment-<cloud>.tfvars); the clusterctl.yaml wins where both set a value' })
      .option('cluster', { type: 'string', demandOption: true, describe: 'name of the clusters.<name> section to write' })
      .option('dry-run', { type: 'boolean', default: false, describe: 'print the resulting file instead of writing it' })
      .option('force', { type: 'boolean', default: false, describe: 'replace an existing, different clusters.<name> section' })
      .example('kaas settings import ~/demo/clusterctl.yaml --cluster demo', 'take over the SCS cluster demo')
      .example('kaas settings import clusterctl.yaml --cluster demo --tfvars env.tfvars', 'also read the SCS environment tfvars'),
  handler: handle<Args>(async (ctx, argv) => {
    const { importScs } = await import('../../lib/import/import.js');
    return importScs({
      clusterctlFile: argv.clusterctl,
      cloudConfFile: argv.cloudConf,
      harborSettingsFile: argv.harborSettings,
      tfvarsFile: argv.tfvars,
      cluster: argv.cluster,
      settingsDir: ctx.settingsDir,
      env: ctx.env,
      cwd: ctx.cwd,
      dryRun: argv.dryRun,
      force: argv.force,
    }, { logger: ctx.logger });
  }),
};
