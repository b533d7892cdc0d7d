import { durationOption } from '../checks.js';
import { handle, type Command } from '../context.js';

interface Args {
  cluster?: string;
  cloud?: string;
  capabilities?: string;
  timeout: number;
}

/** kaas detect [<cluster>] [--cloud NAME] [--capabilities FILE] */
export const detect: Command = {
  command: 'detect [cluster]',
  describe: "show the cloud's OpenStack capabilities (Octavia version and providers, OVN/Wallaby) and the load-balancer plan",
  builder: (y) =>
    y
      .positional('cluster', { type: 'string', describe: "apply this cluster's overrides (clusters.<name>) before planning" })
      .option('cloud', { type: 'string', describe: 'clouds.yaml entry (beats the cloud setting and OS_CLOUD)' })
      .option('capabilities', { type: 'string', describe: 'plan from a saved `kaas detect -o json` file instead of asking the cloud' })
      // A saved file already names its cloud: asking for another one would be silently ignored.
      .conflicts('capabilities', 'cloud')
      .option('timeout', durationOption('timeout', '30s', 'how long to wait for each HTTP answer'))
      .example('kaas detect --cloud mycloud -o json > caps.json', 'save the capabilities for offline planning'),
  handler: handle<Args>(async (ctx, argv) => {
    const { runDetect } = await import('../../lib/detect/detect.js');
    return runDetect({
      settingsDir: ctx.settingsDir, env: ctx.env, cluster: argv.cluster, environ: ctx.environ, cwd: ctx.cwd, home: ctx.home,
      sets: ctx.set, cloud: argv.cloud, capabilitiesFile: argv.capabilities, timeoutMs: argv.timeout * 1000,
    }, { logger: ctx.logger });
  }),
};
